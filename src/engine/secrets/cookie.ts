// Cookie helpers: reading a raw cookie string from the file and merging cookies into a Cookie header.

/**
 * The first `name=value` pair of a raw cookie (`Set-Cookie: ` prefix allowed, attributes ignored),
 * or undefined when there is none.
 */
export function parseRawCookie(raw: string): { key: string; value: string } | undefined {
  let text = raw.trim();
  if (/^set-cookie:/i.test(text)) text = text.slice('set-cookie:'.length).trim();
  const first = text.split(';')[0]!.trim();
  const eq = first.indexOf('=');
  if (eq <= 0) return undefined;
  const key = first.slice(0, eq).trim();
  if (!key) return undefined;
  return { key, value: first.slice(eq + 1).trim() };
}

/** Splits a Cookie header into ordered pairs; fragments without `=` are kept as name-only pairs. */
function splitCookieHeader(header: string): Array<[string, string | undefined]> {
  const pairs: Array<[string, string | undefined]> = [];
  for (const part of header.split(';')) {
    const piece = part.trim();
    if (!piece) continue;
    const eq = piece.indexOf('=');
    if (eq < 0) pairs.push([piece, undefined]);
    else pairs.push([piece.slice(0, eq).trim(), piece.slice(eq + 1).trim()]);
  }
  return pairs;
}

/** Returns the Cookie header with each given cookie set: same-name cookies are replaced, others appended. */
export function mergeCookieHeader(
  existing: string | undefined,
  cookies: Array<{ key: string; value: string }>,
): string {
  const pairs = existing ? splitCookieHeader(existing) : [];
  for (const { key, value } of cookies) {
    const at = pairs.findIndex(([name]) => name === key);
    if (at >= 0) {
      pairs[at] = [key, value];
      // A header could carry the name twice; keep only the replaced one.
      for (let i = pairs.length - 1; i > at; i--) if (pairs[i]![0] === key) pairs.splice(i, 1);
    } else {
      pairs.push([key, value]);
    }
  }
  return pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('; ');
}
