// HTTP digest authentication (RFC 7616, MD5 / MD5-sess / SHA-256, qop=auth): computes the Authorization
// header answering a 401 challenge.
import { crypto } from '../../lazy.ts';

export function parseChallenge(header: string): Record<string, string> | undefined {
  const m = /^\s*Digest\s+(.*)$/i.exec(header);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  const re = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g;
  let p: RegExpExecArray | null;
  while ((p = re.exec(m[1]))) out[p[1].toLowerCase()] = p[2] ?? p[3];
  return out;
}

export function digestAuthorization(
  challenge: Record<string, string>,
  method: string,
  uri: string,
  username: string,
  password: string,
  cnonce = crypto().randomBytes(8).toString('hex'),
  nc = '00000001',
): string {
  const algo = (challenge.algorithm ?? 'MD5').toUpperCase();
  const hashName = algo.startsWith('SHA-256') ? 'sha256' : 'md5';
  const h = (s: string) => crypto().createHash(hashName).update(s).digest('hex');
  const realm = challenge.realm ?? '';
  const nonce = challenge.nonce ?? '';
  let ha1 = h(`${username}:${realm}:${password}`);
  if (algo.endsWith('-SESS')) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  const qop = challenge.qop
    ?.split(',')
    .map((s) => s.trim())
    .includes('auth')
    ? 'auth'
    : undefined;
  const response = qop ? h(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${nonce}:${ha2}`);
  const fields = [
    `username="${username}"`,
    `realm="${realm}"`,
    `nonce="${nonce}"`,
    `uri="${uri}"`,
    `algorithm=${challenge.algorithm ?? 'MD5'}`,
    `response="${response}"`,
  ];
  if (challenge.opaque !== undefined) fields.push(`opaque="${challenge.opaque}"`);
  if (qop) fields.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  return `Digest ${fields.join(', ')}`;
}
