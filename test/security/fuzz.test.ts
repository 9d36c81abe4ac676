// A schema-driven fuzz of every operation in /openapi.json: for each parameter and body field (and the
// fields of an object field), wrong types, missing required fields, huge strings, NUL bytes, lone
// surrogates, invalid enums, huge and non-finite numbers and the edges of SQL's integer, traversal and
// SQL-ish strings, deeply nested query languages; deep nesting and huge bodies. The server must never
// answer 5xx, never crash, and every error must be the spec's body with a `message`. Deterministic (no
// randomness), bounded, and it prints what it tried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createQueuedApp } from '../helpers/queue.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maxLength?: number;
  $ref?: string;
};

const NASTY_STRINGS = [
  'x\u0000y',
  '\ud800',
  'a\udfffb',
  "' OR 1=1 --",
  '"; DROP TABLE scans; --',
  '../../../../etc/passwd',
  '%00',
  '..%2f..%2fetc%2fpasswd',
  '$(id)',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'x'.repeat(70_000),
  '-1',
  '1e309',
  '99999999999999999999',
  '',
  // Query languages: nesting a recursive parser (and the SQL it writes) hundreds of levels deep.
  'NOT '.repeat(600) + 'x',
  '('.repeat(1000) + 'x' + ')'.repeat(1000),
  '2147483648',
];
const HUGE = 'y'.repeat(1_100_000);
// 2^31 - 1 and 2^31: the edges of SQL's integer (a count of days that large overflowed a date, too).
/* eslint-disable no-loss-of-precision -- numbers past what a double holds are the point */
const NASTY_NUMBERS = [
  -1,
  1e309,
  -1e309,
  99999999999999999999,
  2 ** 63,
  0.5,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
];
/* eslint-enable no-loss-of-precision */

/** A plausible value for a schema (the starting point that mutations change one field of). */
function sample(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 4) return 'x';
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt?.length) return sample(alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k], depth + 1);
      return out;
    }
    case 'array':
      return [sample(s.items, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return s.format === 'date' ? '2024-01-02' : s.format === 'date-time' ? '2024-01-02T03:04:05Z' : 'x';
  }
}

/** Values that should all be refused or handled for a field of this schema. */
function badValues(s: Schema | undefined): unknown[] {
  const type = Array.isArray(s?.type) ? s!.type[0] : s?.type;
  const common: unknown[] = [null, {}, [], [[[['deep']]]], true];
  if (type === 'integer' || type === 'number') return [...common, ...NASTY_NUMBERS, 'abc', '1e309'];
  if (type === 'boolean') return [...common, 'maybe', 2];
  if (type === 'array')
    return [...common, 'not-a-list', Array.from({ length: 20_000 }, () => 'x'), [null], NASTY_STRINGS];
  if (s?.enum) return [...common, 'not-in-enum', ...NASTY_STRINGS.slice(0, 4)];
  return [...common, 12345, ...NASTY_STRINGS];
}

/** encodeURIComponent, with lone surrogates sent as the raw (invalid UTF-8) bytes a client could send. */
function encode(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}

/** Query-string text for a value (objects and arrays as what a client might send). */
function qs(v: unknown): string {
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

describe('fuzz of every operation in /openapi.json', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // Jobs are queued (so scan creation works) but no worker runs them: no fuzzed target is ever contacted.
    ({ t, close } = await createQueuedApp());
  });
  afterAll(async () => {
    await close?.();
  });

  it('answers every malformed request with a 4xx error body, never a 5xx', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json', key: null })).json();
    const refs = doc.components?.schemas ?? {};
    const deref = (s: Schema | undefined): Schema | undefined => {
      if (s?.$ref) return deref(refs[s.$ref.split('/').pop()!]);
      return s;
    };
    let tried = 0;
    const fivexx: string[] = [];
    const noMessage: string[] = [];
    const send = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      tried++;
      let res;
      try {
        res = await t.request({ method: method as 'GET', url, payload: payload as string, headers });
      } catch (err) {
        fivexx.push(`${method} ${url.slice(0, 120)}: threw ${(err as Error).message}`);
        return;
      }
      if (res.statusCode >= 500)
        fivexx.push(`${method} ${url.slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
        let body: { message?: unknown } | undefined;
        try {
          body = res.json();
        } catch {
          body = undefined;
        }
        if (typeof body?.message !== 'string') noMessage.push(`${method} ${url.slice(0, 120)} -> ${res.statusCode}`);
      }
    };
    const ops = Object.entries(
      doc.paths as Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
            requestBody?: { content?: Record<string, { schema?: Schema }> };
          }
        >
      >,
    );
    for (const [path, byMethod] of ops) {
      for (const [method, op] of Object.entries(byMethod)) {
        const params = op.parameters ?? [];
        const pathParams = params.filter((p) => p.in === 'path');
        const query = params.filter((p) => p.in === 'query');
        const fill = (values: Record<string, string>) =>
          path.replace(/\{([^}]+)\}/g, (_m, name: string) => encode(values[name] ?? 'x'));
        const baseQuery = Object.fromEntries(
          query.filter((q) => q.required).map((q) => [q.name, qs(sample(deref(q.schema)))]),
        );
        const url = (pv: Record<string, string>, q: Record<string, string>) => {
          const s = new URLSearchParams(q).toString();
          return fill(pv) + (s ? `?${s}` : '');
        };
        const bodySchema = deref(op.requestBody?.content?.['application/json']?.schema);
        const baseBody = bodySchema ? sample(bodySchema) : undefined;
        const m = method.toUpperCase();

        // Path parameters: ids that are traversal, SQL-ish, NUL, huge.
        for (const p of pathParams)
          for (const v of NASTY_STRINGS) await send(m, url({ [p.name]: v }, baseQuery), baseBody);
        // Query parameters, one at a time.
        for (const q of query) {
          for (const v of badValues(deref(q.schema)))
            await send(m, url({}, { ...baseQuery, [q.name]: qs(v) }), baseBody);
        }
        if (bodySchema) {
          const props = Object.entries(bodySchema.properties ?? {});
          for (const [name, s] of props) {
            for (const v of badValues(deref(s)))
              await send(m, url({}, baseQuery), { ...(baseBody as object), [name]: v });
            await send(m, url({}, baseQuery), { ...(baseBody as object), [name]: HUGE }); // 1 MB values (a 1 MB dir was a 500)
            // One level down (filters, options): a day count in a scan's asset filters was a 500.
            const nested = deref(s);
            for (const [inner, is] of Object.entries(nested?.type === 'object' ? (nested.properties ?? {}) : {})) {
              for (const v of badValues(deref(is))) {
                await send(m, url({}, baseQuery), {
                  ...(baseBody as object),
                  [name]: { ...(sample(nested) as object), [inner]: v },
                });
              }
            }
          }
          for (const name of bodySchema.required ?? []) {
            const missing = { ...(baseBody as Record<string, unknown>) };
            delete missing[name];
            await send(m, url({}, baseQuery), missing);
          }
          // Whole-body shapes: wrong type, unknown field, deep nesting, a huge body, broken JSON.
          for (const body of [[], 'text', 42, { ...(baseBody as object), zz_unknown: 1 }])
            await send(m, url({}, baseQuery), body);
          await send(m, url({}, baseQuery), '['.repeat(100_000) + ']'.repeat(100_000), {
            'content-type': 'application/json',
          });
          await send(m, url({}, baseQuery), '{"a":', { 'content-type': 'application/json' });
          await send(
            m,
            url({}, baseQuery),
            JSON.stringify({ ...(baseBody as object), pad: 'x'.repeat(33 * 1024 * 1024) }),
            { 'content-type': 'application/json' },
          );
          await send(m, url({}, baseQuery), '{}', { 'content-type': 'application/xml' });
        }
        if (path.endsWith('/import')) {
          const deepLine = '{"template-id":"x","info":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}';
          const hugeFields = ['template-id', 'host', 'matched-at'].map((f) =>
            JSON.stringify({ 'template-id': 'x', [f]: HUGE }),
          );
          for (const body of [
            '',
            '\u0000',
            '{"template-id":"x","port":1e400}',
            '{"template-id":"x","timestamp":"+275760-09-13T00:00:00.001Z"}',
            'x'.repeat(100_000),
            deepLine,
            ...hugeFields,
          ]) {
            await send(m, url({}, baseQuery), body, { 'content-type': 'application/octet-stream' });
          }
        }
      }
    }
    // Raw URL problems Fastify answers itself.
    for (const u of ['/v1/scans/%E0%A4%A', '/v1/scans/%', `/v1/scans?search=${'%FF'.repeat(10)}`]) await send('GET', u);

    console.log(
      `fuzz: ${ops.length} paths, ${tried} requests, ${fivexx.length} 5xx, ${noMessage.length} errors without message`,
    );
    expect(fivexx).toEqual([]);
    expect(noMessage).toEqual([]);
    expect(tried).toBeGreaterThan(1000);
  }, 300_000);
});
