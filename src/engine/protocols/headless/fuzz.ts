// `fuzzing` rules on a headless block, as nuclei's dast headless templates use them: the input URL's query
// parameters or path segments get each fuzz value (rendered with the payloads) by the rule's type
// (replace, prefix, postfix, infix, replace-regex), one position at a time (`single`) or all at once
// (`multiple`); `keys`, `keys-regex` and `values` pick which positions. Each fuzzed URL becomes the input
// the steps run on ({{BaseURL}}). An input without parameters gets no query requests, as in nuclei.

export interface FuzzRule {
  part: 'query' | 'path';
  type: 'replace' | 'prefix' | 'postfix' | 'infix' | 'replace-regex';
  mode: 'single' | 'multiple';
  fuzz: string[];
  keys?: string[];
  keysRegex?: RegExp[];
  values?: RegExp[];
  replaceRegex?: RegExp;
}

const PARTS = new Set(['query', 'path']);

/** The block's rules, or why they cannot run on a headless block. */
export function compileFuzzing(raw: unknown): FuzzRule[] | string {
  if (!Array.isArray(raw)) return 'has `fuzzing` that is not a list';
  const rules: FuzzRule[] = [];
  for (const r of raw as Record<string, unknown>[]) {
    const parts = Array.isArray(r.parts) ? r.parts.map(String) : [String(r.part ?? 'query')];
    const fuzz = Array.isArray(r.fuzz) ? r.fuzz.map(String) : undefined;
    if (!fuzz) return 'uses `fuzzing` with named fuzz value lists on a headless block';
    for (const part of parts) {
      if (!PARTS.has(part)) return `uses \`fuzzing\` on the ${part} part of a headless block (query and path run)`;
      let replaceRegex: RegExp | undefined;
      try {
        replaceRegex = typeof r['replace-regex'] === 'string' ? new RegExp(r['replace-regex']) : undefined;
        rules.push({
          part: part as FuzzRule['part'],
          type: (r.type as FuzzRule['type'] | undefined) ?? 'replace',
          mode: (r.mode as FuzzRule['mode'] | undefined) ?? 'single',
          fuzz,
          keys: Array.isArray(r.keys) ? r.keys.map((k) => String(k).toLowerCase()) : undefined,
          keysRegex: Array.isArray(r['keys-regex']) ? r['keys-regex'].map((k) => new RegExp(String(k))) : undefined,
          values: Array.isArray(r.values) ? r.values.map((k) => new RegExp(String(k))) : undefined,
          replaceRegex,
        });
      } catch (err) {
        return `has a bad regex in \`fuzzing\`: ${(err as Error).message}`;
      }
    }
  }
  return rules;
}

function apply(rule: FuzzRule, value: string, payload: string): string {
  switch (rule.type) {
    case 'prefix':
      return payload + value;
    case 'postfix':
      return value + payload;
    case 'infix': {
      const half = Math.floor(value.length / 2);
      return value.slice(0, half) + payload + value.slice(half);
    }
    case 'replace-regex':
      return rule.replaceRegex ? value.replace(rule.replaceRegex, payload) : payload;
    default:
      return payload;
  }
}

function picked(rule: FuzzRule, key: string, value: string): boolean {
  if (rule.keys && !rule.keys.includes(key.toLowerCase())) return false;
  if (rule.keysRegex && !rule.keysRegex.some((r) => r.test(key))) return false;
  if (rule.values && !rule.values.some((r) => r.test(value))) return false;
  return true;
}

interface Position {
  key: string;
  value: string;
}

/** The positions of a part in the URL (raw text, not decoded: payloads go in as the template wrote them). */
function positions(rule: FuzzRule, url: URL, rawQuery: string): Position[] {
  if (rule.part === 'query') {
    if (!rawQuery) return [];
    return rawQuery.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { key: pair, value: '' } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
  }
  return url.pathname
    .split('/')
    .slice(1)
    .map((seg, i) => ({ key: String(i + 1), value: seg }))
    .filter((p) => p.value !== '');
}

function rebuild(rule: FuzzRule, url: URL, rawQuery: string, values: Position[]): string {
  const origin = `${url.protocol}//${url.host}`;
  if (rule.part === 'query') {
    const q = values.map((p) => (p.value === '' && !rawQuery.includes(`${p.key}=`) ? p.key : `${p.key}=${p.value}`));
    return `${origin}${url.pathname}?${q.join('&')}`;
  }
  const segs = url.pathname.split('/').slice(1);
  for (const p of values) segs[Number(p.key) - 1] = p.value;
  return `${origin}/${segs.join('/')}${rawQuery ? `?${rawQuery}` : ''}`;
}

/** Every fuzzed input URL of the rules for one set of (rendered) fuzz values. */
export function* fuzzedUrls(
  rules: FuzzRule[],
  target: string,
  rawQuery: string,
  render: (text: string) => string,
): Generator<string> {
  const url = new URL(target);
  for (const rule of rules) {
    const all = positions(rule, url, rawQuery);
    const chosen = all.map((p, i) => ({ p, i })).filter(({ p }) => picked(rule, p.key, p.value));
    if (chosen.length === 0) continue;
    for (const text of rule.fuzz) {
      const payload = render(text);
      if (rule.mode === 'multiple') {
        const next = all.map((p, i) =>
          chosen.some((c) => c.i === i) ? { key: p.key, value: apply(rule, p.value, payload) } : p,
        );
        yield rebuild(rule, url, rawQuery, next);
        continue;
      }
      for (const { p, i } of chosen) {
        const next = all.slice();
        next[i] = { key: p.key, value: apply(rule, p.value, payload) };
        yield rebuild(rule, url, rawQuery, next);
      }
    }
  }
}
