// Which http/ templates nuclei would cluster and we do not, and the other way round, with the reason
// (npx tsx bench/cluster-diff.ts [folder]). Same selection as bench/engine.ts's clustering part. nuclei's
// rules (pkg/templates/cluster.go, pkg/protocols/http/cluster.go): no flow, one block of one protocol;
// the request has no payloads, fuzzing, raw, body, unsafe, `name` or `_N` in matcher/extractor DSL or
// part; the key is method, max-redirects, disable-cookie, redirects, protocol-redirects, paths, headers.
// Requests a template sends = its paths (clusterable requests have no payloads), which is nuclei's count.
import path from 'node:path';
import yaml from 'js-yaml';
import { fileURLToPath } from 'node:url';
import { loadTemplates } from '../src/engine/template/index.ts';
import { clusterVerdict } from '../src/engine/runner/cluster.ts';
import type { Template } from '../src/engine/template/types.ts';
import { figures, skipWithoutShared } from './figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folder = process.argv[2] ?? path.resolve(repoRoot, '../shared/corpus/nuclei-templates/http');
skipWithoutShared('cluster-diff', folder);

function yamlMaxRedirects(t: Template): number {
  const doc = yaml.load(t.raw) as Record<string, Array<Record<string, unknown>> | undefined>;
  return Number((doc.http ?? doc.requests)?.[0]?.['max-redirects'] ?? 0);
}

/** nuclei's TmplClusterKey for a template it would cluster, or undefined. */
function nucleiKey(t: Template): string | undefined {
  if (t.flow || t.http.length !== 1 || t.other.length > 0) return undefined;
  const r = t.http[0]!;
  const requestCondition = [...r.matchers, ...r.extractors].some((o) => {
    const x = o as { dsl?: string[]; part?: string };
    return [...(x.dsl ?? []), x.part ?? ''].some((e) => /_\d+/.test(e));
  });
  if (r.payloads || r.extra.fuzzing || r.raw.length || r.body || r.unsafe || requestCondition || r.extra.name)
    return undefined;
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // nuclei's max-redirects is the YAML value (0 when absent); ours defaults to 10 with redirects on.
  return JSON.stringify([
    r.method,
    yamlMaxRedirects(t),
    r.disableCookie,
    r.redirects,
    Boolean(r.extra['protocol-redirects']),
    r.path,
    headers,
  ]);
}

function groups(templates: Template[], key: (t: Template) => string | undefined): Map<string, Template[]> {
  const m = new Map<string, Template[]>();
  for (const t of templates) {
    const k = key(t);
    if (k !== undefined) m.set(k, [...(m.get(k) ?? []), t]);
  }
  return m;
}

/** Requests saved per host: every member but the leader sends nothing. */
function saved(g: Map<string, Template[]>): number {
  let n = 0;
  for (const ts of g.values()) n += (ts.length - 1) * ts[0]!.http[0]!.path.length;
  return n;
}

/** What nuclei's "Templates clustered: N (Reduced M Requests)" line says: a cluster counts as one request. */
function nucleiLogged(g: Map<string, Template[]>): number {
  let n = 0;
  for (const ts of g.values()) if (ts.length > 1) n += ts.length * ts[0]!.http[0]!.path.length - 1;
  return n;
}

const allTags = Boolean(process.env.ALL_TAGS);
const loaded = await loadTemplates([folder], allTags ? {} : { excludeTags: ['osint', 'intrusive', 'dos', 'fuzz'] });
const templates = loaded.templates.filter((t) => !t.selfContained);
const ng = groups(templates, nucleiKey);
const og = groups(templates, (t) => clusterVerdict(t).key);
const clusteredBy = (g: Map<string, Template[]>) => new Set([...g.values()].filter((ts) => ts.length > 1).flat());
const nSet = clusteredBy(ng);
const oSet = clusteredBy(og);

const rel = (t: Template) => path.relative(folder, t.path);
const reasons = new Map<string, Template[]>();
for (const t of nSet) {
  if (oSet.has(t)) continue;
  const v = clusterVerdict(t);
  const reason = v.reason ?? 'our key differs or its group is alone';
  reasons.set(reason, [...(reasons.get(reason) ?? []), t]);
}
console.log(
  `${templates.length} templates; nuclei clusters ${nSet.size} in ${[...ng.values()].filter((g) => g.length > 1).length} groups, ` +
    `saving ${saved(ng)} requests per host (its log line would say "Reduced ${nucleiLogged(ng)} Requests"); we cluster ${oSet.size} in ${[...og.values()].filter((g) => g.length > 1).length} groups, saving ${saved(og)}`,
);
console.log('\nnuclei clusters, we do not:');
for (const [reason, ts] of [...reasons].sort((a, b) => b[1].length - a[1].length)) {
  const paths = ts.reduce((n, t) => n + t.http[0]!.path.length, 0);
  console.log(`  ${reason}: ${ts.length} templates (${paths} requests)`);
  for (const t of ts.slice(0, Number(process.env.SHOW ?? 5))) console.log(`    ${rel(t)}`);
}
console.log('\nwe cluster, nuclei does not:');
for (const t of oSet) if (!nSet.has(t)) console.log(`  ${rel(t)}`);

// For templates nuclei groups but our key splits: which of our key's fields differ within the nuclei group.
const FIELDS = [
  'proto',
  'method',
  'path',
  'headers',
  'protocol-redirects',
  'cookie-reuse',
  'disable-cookie',
  'max-size',
  'read-all',
  'disable-path-automerge',
  'skip-secret-file',
  'redirects',
  'host-redirects',
  'max-redirects',
];
const split = new Map<string, number>();
for (const ts of ng.values()) {
  if (ts.length < 2) continue;
  const keys = ts
    .map((t) => clusterVerdict(t).key)
    .filter((k): k is string => k !== undefined)
    .map((k) => JSON.parse(k) as unknown[]);
  if (new Set(keys.map((k) => JSON.stringify(k))).size < 2) continue;
  for (let i = 0; i < FIELDS.length; i++) {
    const vals = new Set(keys.map((k) => JSON.stringify(k[i])));
    if (vals.size > 1) split.set(FIELDS[i]!, (split.get(FIELDS[i]!) ?? 0) + 1);
  }
}
console.log('\nfields of our key that split a nuclei group (groups):', Object.fromEntries(split));
const out = figures('cluster-diff');
out.set('nuclei_clustered_templates', nSet.size);
out.set('vigil_clustered_templates', oSet.size);
out.set('nuclei_requests_saved_per_host', saved(ng));
out.set('vigil_requests_saved_per_host', saved(og));
out.set('vigil_nuclei_saved_ratio', saved(og) / saved(ng));
out.print();
