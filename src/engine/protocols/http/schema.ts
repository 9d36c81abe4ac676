// http's schema and compile: the `http` block (old name `requests`) validated against nuclei's field list,
// then mapped to HttpRequest with nuclei's defaults. The template parser (template/parse.ts) calls it for
// the block; execute.ts runs what it makes. Only template helpers are imported: template loading (in
// worker threads) must not load the http client.
import type { AttackType, Extractor, HttpRequest, Matcher, Payloads } from '../../template/types.ts';
import { IssueList, join } from '../../template/issues.ts';
import { checkShape, type Shape } from '../../template/shape.ts';
import { operatorFields } from '../../template/operator-specs.ts';
import { ATTACK, FUZZING, PRE_CONDITION } from '../../template/common-specs.ts';
import { readPayloads, type PayloadOptions } from '../../template/payloads.ts';
import { needsReqCondition } from '../../template/req-condition.ts';
import { type Dict, isMap, kind, setOwn } from '../../template/values.ts';

const PATH_START = /^(\{\{|https?:\/\/)/i;

export const HTTP_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
  'PURGE',
  'DEBUG',
];

const HTTP: Shape = {
  fields: {
    ...operatorFields,
    path: 'list',
    raw: 'list',
    id: 'string',
    name: 'string',
    attack: ATTACK,
    method: { enum: HTTP_METHODS, fold: 'upper' },
    body: 'string',
    payloads: 'any', // checked by readPayloads
    headers: 'stringMap',
    race_count: 'uint',
    'max-redirects': 'uint',
    'pipeline-concurrent-connections': 'uint',
    'pipeline-requests-per-connection': 'uint',
    threads: 'uint',
    'max-size': 'uint',
    fuzzing: FUZZING,
    analyzer: { shape: { required: ['name'], fields: { name: 'string', parameters: 'map' } } },
    'self-contained': 'bool',
    signature: { enum: ['AWS'], fold: 'upper' },
    'skip-secret-file': 'bool',
    'cookie-reuse': 'bool',
    'disable-cookie': 'bool',
    'read-all': 'bool',
    redirects: 'bool',
    'host-redirects': 'bool',
    'protocol-redirects': 'bool',
    pipeline: 'bool',
    unsafe: 'bool',
    race: 'bool',
    'req-condition': 'bool',
    'stop-at-first-match': 'bool',
    'skip-variables-check': 'bool',
    'iterate-all': 'bool',
    'digest-username': 'string',
    'digest-password': 'string',
    'disable-path-automerge': 'bool',
    'pre-condition': PRE_CONDITION,
    'pre-condition-operator': { enum: ['and', 'or'] },
    'global-matchers': 'bool',
  },
};

/** Keys without a dedicated HttpRequest field; kept verbatim in `extra`. */
const EXTRA_KEYS = [
  'name',
  'fuzzing',
  'analyzer',
  'self-contained',
  'signature',
  'pipeline',
  'pipeline-concurrent-connections',
  'pipeline-requests-per-connection',
  'protocol-redirects',
  'pre-condition',
  'pre-condition-operator',
  'global-matchers',
];

export function parseHttpBlock(v: unknown, key: string, out: IssueList, opts: PayloadOptions): HttpRequest[] {
  if (!Array.isArray(v)) {
    out.error(key, `must be a list of requests, got ${kind(v)}`);
    return [];
  }
  const result: HttpRequest[] = [];
  v.forEach((item, i) => {
    const req = parseHttpRequest(item, join(key, i), out, opts);
    if (req) result.push(req);
  });
  return result;
}

function parseHttpRequest(v: unknown, field: string, out: IssueList, opts: PayloadOptions): HttpRequest | undefined {
  const before = out.errors.length;
  const d = checkShape(v, HTTP, field, out);
  if (!d || !isMap(v)) return undefined;

  const path = (d.path as string[] | undefined) ?? [];
  const raw = (d.raw as string[] | undefined) ?? [];
  const fuzzing = d.fuzzing as unknown[] | undefined;
  // Global matchers run on other templates' responses and fuzzing rules on the input request: no path.
  const badType = (v.path != null && d.path === undefined) || (v.raw != null && d.raw === undefined);
  if (!badType && path.length === 0 && raw.length === 0 && !fuzzing?.length && !d['global-matchers']) {
    out.error(field, 'needs `path` or `raw` (or `fuzzing` rules)');
  }
  path.forEach((p, i) => {
    // A bare `/admin` has no target to go to; self-contained templates use full URLs instead.
    if (!PATH_START.test(p.trim())) {
      out.error(
        join(join(field, 'path'), i),
        'must start with {{BaseURL}} or {{RootURL}} (or be a full http(s) URL or start with a {{variable}})',
      );
    }
  });
  raw.forEach((r, i) => {
    if (r.trim() === '') out.error(join(join(field, 'raw'), i), 'must not be empty');
  });

  const redirects = (d.redirects as boolean | undefined) ?? false;
  const hostRedirects = (d['host-redirects'] as boolean | undefined) ?? false;
  if (redirects && hostRedirects) out.error(field, "'redirects' and 'host-redirects' can't be used together");
  if (d['protocol-redirects'] && !redirects && !hostRedirects) {
    out.error(join(field, 'protocol-redirects'), "requires 'redirects' or 'host-redirects'");
  }

  const operators = [...asList(v.matchers), ...asList(v.extractors)];
  const autoReqCondition = needsReqCondition(operators);
  const race = (d.race as boolean | undefined) ?? false;
  if (race && autoReqCondition) out.error(field, "'race' and 'req-condition' can't be used together");
  if (fuzzing?.length && autoReqCondition) out.error(field, "'fuzzing' and 'req-condition' can't be used together");
  if (fuzzing?.length && d.unsafe) out.error(field, "'unsafe' can't be used with 'fuzzing'");

  const attack = (d.attack as AttackType | undefined) ?? 'batteringram';
  let payloads: Payloads | undefined;
  if (v.payloads !== undefined && v.payloads !== null) {
    payloads = readPayloads(v.payloads, join(field, 'payloads'), out, opts);
    if (payloads) payloads = dropUnusedPayloads(payloads, v);
    if (payloads && attack === 'batteringram' && Object.keys(payloads).length > 1) {
      out.error(
        join(field, 'attack'),
        `batteringram (the default) takes exactly one payload set, found ${Object.keys(payloads).length} ` +
          `(${Object.keys(payloads).join(', ')}); use pitchfork or clusterbomb`,
      );
    }
    if (payloads && Object.keys(payloads).length === 0) payloads = undefined;
  }

  if (out.errors.length > before) return undefined;

  const extra: Record<string, unknown> = {};
  for (const k of EXTRA_KEYS) if (v[k] !== undefined && v[k] !== null) extra[k] = v[k];
  const maxRedirects = d['max-redirects'] as number | undefined;

  return {
    id: d.id as string | undefined,
    path,
    raw,
    method: (d.method as string | undefined) ?? 'GET',
    headers: (d.headers as Record<string, string> | undefined) ?? {},
    body: d.body as string | undefined,
    payloads,
    attack,
    redirects,
    hostRedirects,
    maxRedirects: maxRedirects ?? (redirects || hostRedirects ? 10 : 0),
    cookieReuse: (d['cookie-reuse'] as boolean | undefined) ?? false,
    disableCookie: (d['disable-cookie'] as boolean | undefined) ?? false,
    reqCondition: ((d['req-condition'] as boolean | undefined) ?? false) || autoReqCondition,
    stopAtFirstMatch: (d['stop-at-first-match'] as boolean | undefined) ?? false,
    unsafe: (d.unsafe as boolean | undefined) ?? false,
    race,
    raceCount: (d.race_count as number | undefined) ?? 0,
    threads: (d.threads as number | undefined) ?? 0,
    iterateAll: (d['iterate-all'] as boolean | undefined) ?? false,
    digestUsername: d['digest-username'] as string | undefined,
    digestPassword: d['digest-password'] as string | undefined,
    skipVariablesCheck: (d['skip-variables-check'] as boolean | undefined) ?? false,
    skipSecretFile: (d['skip-secret-file'] as boolean | undefined) ?? false,
    disablePathAutomerge: (d['disable-path-automerge'] as boolean | undefined) ?? false,
    maxSize: d['max-size'] as number | undefined,
    readAll: (d['read-all'] as boolean | undefined) ?? false,
    matchers: (d.matchers as Matcher[] | undefined) ?? [],
    extractors: (d.extractors as Extractor[] | undefined) ?? [],
    matchersCondition: (d['matchers-condition'] as 'and' | 'or' | undefined) ?? 'or',
    extra,
  };
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * nuclei ignores payload sets whose name appears nowhere in the request (path, raw, body, headers,
 * matchers, extractors, fuzzing); only the used sets count, e.g. for the batteringram rule.
 */
function dropUnusedPayloads(payloads: Payloads, request: Dict): Payloads {
  const text = JSON.stringify([
    request.headers,
    request.matchers,
    request.extractors,
    request.body,
    request.path,
    request.raw,
    request.fuzzing,
  ]);
  const used: Payloads = {};
  for (const [name, values] of Object.entries(payloads)) if (text.includes(name)) setOwn(used, name, values);
  return used;
}
