// Dynamic secrets: the values a login template extracted fill the `{{name}}` placeholders of the
// entry's static secret. Errors name the entry, the template and placeholder names, never values.
import { parseRawCookie } from './cookie.ts';
import type { CookieSpec, DynamicSecret, EntryOrigin, KeyValue, StaticSecret } from './types.ts';

export class SecretLoginError extends Error {
  constructor(origin: EntryOrigin, template: string, reason: string) {
    super(`secret file ${origin.file}: ${origin.list}[${origin.index}]: login template ${template}: ${reason}`);
    this.name = 'SecretLoginError';
  }
}

/**
 * Thrown by a LoginRunner when the entry cannot log in as written (e.g. no `input` for a template that
 * needs a target); reported as is, not as "the login failed".
 */
export class LoginConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoginConfigError';
  }
}

/**
 * Extracted values as text. A name with several values (a list) uses its first value; empty values are
 * dropped so "extracted nothing" is detected.
 */
export function extractedText(extracted: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(extracted)) {
    const first = Array.isArray(raw) ? raw.find((v) => v !== undefined && v !== null && String(v) !== '') : raw;
    if (first === undefined || first === null) continue;
    const text = typeof first === 'string' ? first : typeof first === 'object' ? JSON.stringify(first) : String(first);
    if (text !== '') out[name] = text;
  }
  return out;
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** Fills every placeholder of a secret; the returned list holds names that had no value. */
export function fillSecret(
  secret: DynamicSecret,
  values: Record<string, string>,
): { secret: StaticSecret; missing: string[] } {
  const missing = new Set<string>();
  const fill = (text: string | undefined): string | undefined =>
    text === undefined
      ? undefined
      : text.replace(PLACEHOLDER, (whole, name: string) => {
          if (name in values) return values[name]!;
          missing.add(name);
          return whole;
        });
  const fillKv = (list: KeyValue[] | undefined): KeyValue[] | undefined =>
    list?.map((kv) => ({ key: fill(kv.key)!, value: fill(kv.value)! }));
  const cookies: CookieSpec[] | undefined = secret.cookies?.map((c) =>
    c.raw !== undefined ? { raw: fill(c.raw)! } : { key: fill(c.key), value: fill(c.value) },
  );
  const filled: StaticSecret = {
    type: secret.type,
    domains: secret.domains,
    domainsRegex: secret.domainsRegex,
    username: fill(secret.username),
    password: fill(secret.password),
    token: fill(secret.token),
    headers: fillKv(secret.headers),
    params: fillKv(secret.params),
    cookies,
  };
  return { secret: filled, missing: [...missing] };
}

/** Turns a login's extracted values into the concrete secret, or throws SecretLoginError. */
export function resolveDynamic(
  origin: EntryOrigin,
  secret: DynamicSecret,
  extracted: Record<string, unknown>,
): StaticSecret {
  const values = extractedText(extracted);
  const names = Object.keys(values);
  if (names.length === 0) throw new SecretLoginError(origin, secret.template, 'the login extracted no values');
  const { secret: filled, missing } = fillSecret(secret, values);
  if (missing.length) {
    throw new SecretLoginError(
      origin,
      secret.template,
      `no extracted value for ${missing.map((n) => `{{${n}}}`).join(', ')} (extracted: ${names.join(', ')})`,
    );
  }
  // An extracted value with a line break would smuggle extra header lines into every request.
  const texts = [
    filled.username,
    filled.password,
    filled.token,
    ...[filled.headers, filled.params].flatMap((l) => (l ?? []).flatMap((kv) => [kv.key, kv.value])),
    ...(filled.cookies ?? []).flatMap((c) => [c.raw, c.key, c.value]),
  ];
  if (texts.some((t) => t !== undefined && /[\r\n]/.test(t))) {
    throw new SecretLoginError(
      origin,
      secret.template,
      'an extracted value holds a line break; it cannot go into a request',
    );
  }
  for (const [i, c] of (filled.cookies ?? []).entries()) {
    if (c.raw !== undefined && !parseRawCookie(c.raw)) {
      throw new SecretLoginError(origin, secret.template, `cookies[${i}].raw has no name=value pair once filled`);
    }
  }
  return filled;
}
