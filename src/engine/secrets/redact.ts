// The values that must never leave the process in clear: output replaces them with [REDACTED].
import { basicCredentials, cookiePairs } from './apply.ts';
import type { StaticSecret } from './types.ts';

export const REDACTED = '[REDACTED]';

/**
 * Every concrete value a secret sends, in the forms it can appear in a request: as written, base64
 * Basic credentials, and percent-encoded query values. User names and header/cookie names are not
 * secret and stay readable.
 */
export function valuesOfSecret(secret: StaticSecret): string[] {
  const values: string[] = [];
  const add = (v: string | undefined) => {
    if (v !== undefined && v !== '') values.push(v);
  };
  switch (secret.type) {
    case 'basicauth':
      add(secret.password);
      if (secret.username !== undefined && secret.password !== undefined)
        add(basicCredentials(secret.username, secret.password));
      break;
    case 'bearertoken':
      add(secret.token);
      break;
    case 'header':
      for (const h of secret.headers ?? []) {
        add(h.value);
        // `Basic xyz` / `Token xyz`: a server may echo only the credential part.
        const scheme = /^[A-Za-z][\w-]*\s+(\S{6,})$/.exec(h.value.trim());
        if (scheme) add(scheme[1]);
      }
      break;
    case 'cookie':
      for (const c of cookiePairs(secret)) add(c.value);
      break;
    case 'query':
      for (const p of secret.params ?? []) {
        add(p.value);
        add(encodeURIComponent(p.value));
      }
      break;
  }
  return values;
}

/**
 * Values shorter than this are not redacted: replacing `on` or `1` everywhere would wreck every
 * response while protecting nothing a guess would not find.
 */
export const MIN_REDACTED_LENGTH = 4;

/** Longest first, so a value containing another is replaced whole; duplicates and short values removed. */
export function orderForRedaction(values: Iterable<string>): string[] {
  return [...new Set(values)].filter((v) => v.length >= MIN_REDACTED_LENGTH).sort((a, b) => b.length - a.length);
}

/** Replaces every secret value in a text. */
export function redact(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) if (out.includes(v)) out = out.split(v).join(REDACTED);
  return out;
}

/**
 * A copy of a result (any JSON-like value) with secret values replaced in every string, so host,
 * matched-at, extracted results and errors are covered as well as request, response and curl.
 */
export function redactDeep<T>(value: T, values: readonly string[]): T {
  if (values.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, values);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** What the runner calls on every result it emits. */
export function redactEvent<T>(ev: T, secrets: { secretValues(): string[] } | undefined): T {
  return secrets ? redactDeep(ev, secrets.secretValues()) : ev;
}
