// cookie_unsign: recovers the payload of a signed session cookie by trying well-known secret keys
// (Django signing and Flask/itsdangerous), like cookiemonster's default wordlist does for common keys.
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { crypto, zlib } from '../../lazy.ts';

const WORDLIST = [
  'changeme',
  'secret',
  'secret_key',
  'secretkey',
  'SECRET_KEY',
  'development',
  'dev',
  'key',
  'password',
  'default',
  'test',
  'admin',
  'flask',
  'django',
  'your-secret-key',
  'super-secret',
  'supersecret',
  'change_me',
  'CHANGEME',
  'secret-key',
  'mysecret',
  'this-is-a-secret',
  'keyboard cat',
  'insecure',
  's3cr3t',
  '123456',
  'qwerty',
];

function djangoKey(secret: string, salt: string): Buffer {
  return crypto()
    .createHash('sha1')
    .update(salt + 'signer' + secret)
    .digest();
}

function b64urlDecode(s: string): Buffer {
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

function tryDjango(cookie: string): string | undefined {
  const parts = cookie.split(':');
  if (parts.length < 3) return undefined;
  const sig = parts[parts.length - 1];
  const value = parts.slice(0, -1).join(':');
  const salts = ['django.core.signing', 'django.contrib.sessions.backends.signed_cookies'];
  for (const secret of WORDLIST) {
    for (const salt of salts) {
      const sha1 = crypto().createHmac('sha1', djangoKey(secret, salt)).update(value).digest('base64url');
      const key256 = crypto()
        .createHash('sha256')
        .update(salt + 'signer' + secret)
        .digest();
      const sha256 = crypto().createHmac('sha256', key256).update(value).digest('base64url');
      if (sha1 === sig || sha256 === sig) return secret;
    }
  }
  return undefined;
}

function tryFlask(cookie: string): string | undefined {
  const compressed = cookie.startsWith('.');
  const parts = (compressed ? cookie.slice(1) : cookie).split('.');
  if (parts.length !== 3) return undefined;
  const value = (compressed ? '.' : '') + parts[0] + '.' + parts[1];
  for (const secret of WORDLIST) {
    const key = crypto().createHmac('sha1', secret).update('cookie-session').digest();
    const mac = crypto().createHmac('sha1', key).update(value).digest('base64url');
    if (mac === parts[2]) {
      try {
        const raw = b64urlDecode(parts[0]);
        (compressed ? zlib().inflateSync(raw) : raw).toString('utf8');
      } catch {
        // payload is not needed to report the key
      }
      return secret;
    }
  }
  return undefined;
}

export function registerCookies(): void {
  define('cookie_unsign', undefined, (a) => {
    if (a.length < 1) throw invalid('cookie_unsign');
    const s = toStr(a[0]);
    const found = tryDjango(s) ?? tryFlask(s);
    if (found === undefined) throw new DslError('cookie_unsign: could not unsign cookie');
    return found;
  });
}
