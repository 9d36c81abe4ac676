// Hashes, HMAC, murmur3 (favicon hashes), AES, RSA and JWT signing.
import { DslError } from '../errors.ts';
import { sprint, toBytes, toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { goJsonMarshal } from './gojson.ts';
import { crypto } from '../../lazy.ts';
import type { CipherGCM, KeyObject } from 'node:crypto';

/** MurmurHash3 x86 32-bit, seed 0, returned as Go's int32 decimal. */
export function mmh3(data: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const len = data.length;
  const blocks = len - (len % 4);
  for (let i = 0; i < blocks; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (len & 3) {
    case 3:
      k ^= data[blocks + 2] << 16; // falls through
    case 2:
      k ^= data[blocks + 1] << 8; // falls through
    case 1:
      k ^= data[blocks];
      k = Math.imul(k, c1);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, c2);
      h ^= k;
  }
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

function hash(algo: string, v: unknown): string {
  return crypto().createHash(algo).update(toBytes(v)).digest('hex');
}

function b64url(b: Buffer | string): string {
  return Buffer.from(b).toString('base64url');
}

function generateJwt(a: unknown[]): string {
  if (a.length < 2 || a.length > 4) throw invalid('generate_jwt');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(toStr(a[0]));
  } catch (e) {
    throw new DslError(`generate_jwt: ${(e as Error).message}`);
  }
  const alg = toStr(a[1]);
  const upper = alg.toUpperCase();
  const none = alg.trim().toLowerCase() === 'none' || alg === '';
  const hmacs: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
  if (!none && !hmacs[upper]) {
    if (/^(RS|PS|ES)(256|384|512)$|^EDDSA$/.test(upper))
      throw new DslError(`generate_jwt: ${upper} needs a private key object; only HS* and none are supported`);
    throw new DslError(`generate_jwt: invalid algorithm: ${upper}`);
  }
  let payload = goJsonMarshal(claims);
  if (a.length > 3) {
    const until = Number(toStr(a[3]));
    if (!Number.isFinite(until)) throw new DslError('generate_jwt: invalid argument type');
    const now = Math.floor(Date.now() / 1000);
    const extra = `"exp":${Math.trunc(until)},"iat":${now}`;
    payload = payload === '{}' ? `{${extra}}` : payload.slice(0, -1) + ',' + extra + '}';
  }
  const header = `{"alg":"${none ? alg.trim() || 'none' : upper}","typ":"JWT"}`;
  const signingInput = b64url(header) + '.' + b64url(payload);
  if (none) return signingInput + '.';
  const key = a.length > 2 ? toBytes(a[2]) : Buffer.alloc(0);
  return signingInput + '.' + crypto().createHmac(hmacs[upper], key).update(signingInput).digest('base64url');
}

export function registerHashing(): void {
  define('md5', 1, ([s]) => hash('md5', s));
  define('sha1', 1, ([s]) => hash('sha1', s));
  define('sha256', 1, ([s]) => hash('sha256', s));
  define('sha512', 1, ([s]) => hash('sha512', s));
  define('mmh3', 1, ([s]) => String(mmh3(s instanceof Uint8Array ? s : Buffer.from(sprint(s), 'utf8'))));
  define('hmac', 3, ([algo, data, secret]) => {
    const map: Record<string, string> = {
      sha1: 'sha1',
      'sha-1': 'sha1',
      sha256: 'sha256',
      'sha-256': 'sha256',
      sha512: 'sha512',
      'sha-512': 'sha512',
    };
    const a = map[toStr(algo)];
    if (!a || typeof algo !== 'string') throw new DslError(`hmac: unsupported hash algorithm: '${toStr(algo)}'`);
    return crypto().createHmac(a, toBytes(secret)).update(toBytes(data)).digest('hex');
  });
  define('aes_cbc', 3, ([plain, key, iv]) => {
    const k = toBytes(key);
    if (![16, 24, 32].includes(k.length)) throw new DslError(`aes_cbc: invalid key size ${k.length}`);
    const cipher = crypto().createCipheriv(`aes-${k.length * 8}-cbc`, k, toBytes(iv));
    return Buffer.concat([cipher.update(toBytes(plain)), cipher.final()]); // PKCS#7 padding, as the Go code pads
  });
  define('aes_gcm', 2, ([key, plain]) => {
    const k = toBytes(key);
    if (![16, 24, 32].includes(k.length)) throw new DslError(`aes_gcm: crypto/aes: invalid key size ${k.length}`);
    const nonce = crypto().randomBytes(12);
    const cipher = crypto().createCipheriv(`aes-${k.length * 8}-gcm`, k, nonce) as CipherGCM;
    const body = Buffer.concat([cipher.update(toBytes(plain)), cipher.final()]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]);
  });
  define('rsa_encrypt', 2, ([plain, pem]) => {
    if (typeof plain !== 'string' || typeof pem !== 'string') throw new DslError('rsa_encrypt: invalid arguments');
    let key: KeyObject;
    try {
      key = crypto().createPublicKey({ key: pem, format: 'pem' });
    } catch {
      throw new DslError('rsa_encrypt: invalid PEM format');
    }
    if (key.asymmetricKeyType !== 'rsa') throw new DslError('rsa_encrypt: not an RSA public key');
    return crypto()
      .publicEncrypt({ key, padding: crypto().constants.RSA_PKCS1_PADDING }, Buffer.from(plain, 'utf8'))
      .toString('base64');
  });
  define('generate_jwt', undefined, generateJwt);
}
