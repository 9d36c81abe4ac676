// Computes the served Vulnerability record of one CVE from every feed's facts. Pure: the same facts give the
// same record, so re-imports leave records untouched. age_in_days, created_at and updated_at are added
// at read time (service.ts). docs/intel.md describes each derived field.
import { createHash } from 'node:crypto';
import type { CveFact, CveFacts, KevFact, PocItem, ReferenceFact } from './facts.ts';
import { bestCvss, isAuth, isRemote, severityFromScore, userInteraction } from './cvss.ts';
import { cpeParts, CPE_PART_TYPE } from './cpe.ts';
import { ntps } from './ntps.ts';

export type VulnDoc = Record<string, unknown>;

/** Typed columns kept beside the document for search, sort and facets. */
export interface VulnColumns {
  cve_id: string;
  doc_id: string;
  cve_created_at: string | null;
  cve_updated_at: string | null;
  severity: string | null;
  cvss_score: number | null;
  epss_score: number | null;
  epss_percentile: number | null;
  poc_count: number;
  ntps: number;
  is_kev: boolean;
  is_vkev: boolean;
  is_poc: boolean;
  is_template: boolean;
  is_exploit_seen: boolean;
  is_patch_available: boolean;
  is_oss: boolean;
  is_remote: boolean | null;
  is_auth: boolean | null;
  vendor: string | null;
  product: string | null;
  assignee: string | null;
  vuln_status: string | null;
  template_coverage: string | null;
  cwe: string[];
  search_text: string;
}

export function docIdFor(cveId: string): string {
  return createHash('sha256').update(`vigil-vuln:${cveId}`).digest('hex').slice(0, 24);
}

// Hosts whose package or source listings mean the affected product's source is public.
const OSS_HOSTS = [
  'github.com',
  'gitlab.com',
  'bitbucket.org',
  'git.kernel.org',
  'wordpress.org',
  'pypi.org',
  'npmjs.com',
  'registry.npmjs.org',
  'crates.io',
  'rubygems.org',
  'packagist.org',
  'pkg.go.dev',
  'proxy.golang.org',
  'repo.maven.apache.org',
  'nuget.org',
  'hex.pm',
  'sourceforge.net',
];

const PATCH_TAGS = new Set(['patch', 'vendor-advisory']);

export function computeRecord(
  cveId: string,
  f: CveFacts,
  cweNames: Map<string, string>,
): { doc: VulnDoc; columns: VulnColumns } | undefined {
  const cves = [f.cve5, f.nvd2].filter((c): c is CveFact => !!c);
  if (!cves.length) return undefined; // a record exists only once a CVE feed describes the CVE
  const main = cves[0]!;
  const tpl = f.template;

  const cvss = bestCvss(cves.flatMap((c) => c.cvss));
  const kev = kevEntries(f);
  const isKev = kev.length > 0;
  const isVkev = !!f.vulncheck_kev;
  const pocs = mergedPocs(f);
  const pocFirst = pocs
    .map((p) => p.added_at)
    .filter((d): d is string => !!d)
    .sort()[0];
  const citations = mergedCitations(cves);
  const affected = affectedProducts(cves);
  const cwe = unique([...cves.flatMap((c) => c.cwes.map((w) => w.id)), ...(f.kev?.cwes ?? []), ...templateCwes(f)]);
  const cveNames = new Map(cves.flatMap((c) => c.cwes.filter((w) => w.name).map((w) => [w.id, w.name!] as const)));
  const weaknesses = cwe
    .map((id) => ({ cwe_id: id, cwe_name: cweNames.get(id) ?? cveNames.get(id) }))
    .map(dropUndefined);
  const templateCoverage = tpl ? (tpl.metadata.verified === true ? 'verified' : 'unverified') : 'none';
  const remote = cvss ? isRemote(cvss.vector) : undefined;
  const auth = cvss ? isAuth(cvss.vector) : undefined;
  const ui = cvss ? userInteraction(cvss.vector) : undefined;
  const severity = cvss ? (cvss.severity ?? severityFromScore(cvss.score, cvss.version)) : tpl?.severity;
  const exploitSeen =
    isKev ||
    (f.pocs?.itw ?? 0) > 0 ||
    (f.vulncheck_kev?.reported_exploitation ?? 0) > 0 ||
    cves.some((c) => c.ssvc_exploitation === 'active');
  const firstAffected = affected.find((p) => p.vendor && p.product);
  const vendor = f.kev?.vendor ?? f.vulncheck_kev?.vendor ?? firstAffected?.vendor;
  const product = f.kev?.product ?? f.vulncheck_kev?.product ?? firstAffected?.product;
  const published = cves.map((c) => c.published).find(Boolean);
  const updated = cves
    .map((c) => c.updated)
    .filter((d): d is string => !!d)
    .sort()
    .at(-1);
  const rejected = cves.some((c) => c.state === 'REJECTED');
  const vulnStatus = f.nvd2?.vuln_status?.toLowerCase() ?? (rejected ? 'rejected' : 'published');
  const configurations = unique(cves.flatMap((c) => c.configurations));
  const solutions = unique(cves.flatMap((c) => c.solutions));
  const docId = docIdFor(cveId);
  const epss = f.epss;
  const score = ntps({
    cvss_score: cvss?.score,
    epss_score: epss?.score,
    is_kev: isKev,
    is_poc: pocs.length > 0,
    template_coverage: templateCoverage,
  });
  const nucleiPoc = tpl ? pocs.find((p) => p.source === 'nuclei' && p.url.endsWith(`/${tpl.uri}`)) : undefined;

  const doc: VulnDoc = {
    // CVE group
    cve_id: cveId,
    assignee: main.assigner ?? f.nvd2?.assigner,
    cve_created_at: published,
    cve_updated_at: updated,
    cvss_metrics: cvss?.vector,
    cvss_score: cvss?.score,
    epss_score: epss?.score,
    epss_percentile: epss?.percentile,
    is_kev: isKev,
    is_vkev: isVkev,
    is_oss:
      affected.some((p) => Object.keys(p.project_repos ?? {}).length > 0) ||
      cves.some((c) => c.affected.some(isOssAffected)),
    is_patch_available: citations.some((c) => c.tags.some((t) => PATCH_TAGS.has(normTag(t)))),
    is_poc: pocs.length > 0,
    is_remote: remote,
    is_template: !!tpl,
    is_auth: auth,
    is_exploit_seen: exploitSeen,
    kev,
    poc_count: pocs.length,
    pocs,
    scanner_template: tpl?.raw,
    poc_first_seen: pocFirst,
    vuln_status: vulnStatus,
    // description group
    citations,
    cwe,
    description: cves.map((c) => c.description).find(Boolean) ?? tpl?.description,
    impact: tpl?.impact,
    name: main.title ?? f.kev?.name ?? f.vulncheck_kev?.name ?? tpl?.name ?? f.nvd2?.title ?? cveId,
    product,
    remediation: solutions.length
      ? solutions.join('\n')
      : (tpl?.remediation ?? f.kev?.required_action ?? f.vulncheck_kev?.required_action),
    severity,
    vendor,
    requirement_type: auth ? 'authentication' : ui ? 'user_interaction' : cvss ? 'none' : undefined,
    requirements: configurations.length ? configurations.join('\n') : undefined,
    template_coverage: templateCoverage,
    vulnerability_impact: unique(cves.flatMap((c) => c.capec)),
    vulnerability_type: cves.flatMap((c) => c.problem_text)[0] ?? weaknesses[0]?.cwe_name,
    weaknesses,
    // own fields
    affected_products: affected,
    doc_id: docId,
    doc_type: 'cve',
    exposure: f.exposure,
    bounty: f.bounty
      ? dropUndefined({
          rank: f.bounty.rank,
          reports: f.bounty.reports,
          delta_rank: f.bounty.prev ? f.bounty.rank - f.bounty.prev.rank : undefined,
          delta_reports: f.bounty.prev ? f.bounty.reports - f.bounty.prev.reports : undefined,
        })
      : undefined,
    ntps: score,
    // when the template entered the public catalogue (nuclei's PoC entry), else when the store first saw it
    template_created_at: tpl ? (nucleiPoc?.added_at ?? tpl.created_at) : undefined,
    ...(tpl ? templateGroup(f) : {}),
  };
  const clean = dropUndefined(doc);
  const columns: VulnColumns = {
    cve_id: cveId,
    doc_id: docId,
    cve_created_at: published ?? null,
    cve_updated_at: updated ?? null,
    severity: severity ?? null,
    cvss_score: cvss?.score ?? null,
    epss_score: epss?.score ?? null,
    epss_percentile: epss?.percentile ?? null,
    poc_count: pocs.length,
    ntps: score,
    is_kev: isKev,
    is_vkev: isVkev,
    is_poc: pocs.length > 0,
    is_template: !!tpl,
    is_exploit_seen: exploitSeen,
    is_patch_available: clean.is_patch_available as boolean,
    is_oss: clean.is_oss as boolean,
    is_remote: remote ?? null,
    is_auth: auth ?? null,
    vendor: vendor ?? null,
    product: product ?? null,
    assignee: (clean.assignee as string | undefined) ?? null,
    vuln_status: vulnStatus,
    template_coverage: templateCoverage,
    cwe,
    search_text: [cveId, clean.name, clean.description, vendor, product, tpl?.id]
      .filter(Boolean)
      .join(' \n ')
      .toLowerCase(),
  };
  return { doc: clean, columns };
}

/** One entry per KEV source: CISA (catalog, else the date carried in the CVE record) and VulnCheck. */
function kevEntries(f: CveFacts): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const cisa: KevFact | undefined = f.kev ?? cisaFromCve(f);
  if (cisa) out.push(kevInfo(cisa, 'cisa'));
  if (f.vulncheck_kev) out.push(kevInfo(f.vulncheck_kev, 'vulncheck'));
  return out;
}

function cisaFromCve(f: CveFacts): KevFact | undefined {
  const c = [f.nvd2, f.cve5].find((x) => x?.kev_added);
  return c ? { added_date: c.kev_added, due_date: c.kev_due } : undefined;
}

function kevInfo(k: KevFact, source: string) {
  return dropUndefined({
    added_date: k.added_date,
    due_date: k.due_date,
    known_ransomware_campaign_use: k.ransomware,
    source,
  });
}

function mergedPocs(f: CveFacts): PocItem[] {
  const byUrl = new Map<string, PocItem>();
  for (const p of [...(f.pocs?.items ?? []), ...(f.nomisec?.items ?? [])]) {
    const seen = byUrl.get(p.url);
    if (!seen) byUrl.set(p.url, { ...p });
    else if (p.added_at && (!seen.added_at || p.added_at < seen.added_at)) seen.added_at = p.added_at;
  }
  return [...byUrl.values()]
    .sort((a, b) => (a.added_at ?? '9').localeCompare(b.added_at ?? '9') || a.url.localeCompare(b.url))
    .map((p) => dropUndefined({ added_at: p.added_at, source: p.source, url: p.url }) as PocItem);
}

interface Citation {
  source: string;
  tags: string[];
  url: string;
}

function mergedCitations(cves: CveFact[]): Citation[] {
  const byUrl = new Map<string, Citation>();
  for (const r of cves.flatMap((c) => c.references) as ReferenceFact[]) {
    const seen = byUrl.get(r.url);
    if (!seen) byUrl.set(r.url, { source: r.source, tags: unique(r.tags), url: r.url });
    else seen.tags = unique([...seen.tags, ...r.tags]);
  }
  return [...byUrl.values()];
}

interface Product {
  vendor?: string;
  product?: string;
  cpe: string[];
  project_repos?: Record<string, string>;
  projects?: string[];
  product_type?: string;
}

function affectedProducts(cves: CveFact[]): Product[] {
  const byKey = new Map<string, Product>();
  for (const a of cves.flatMap((c) => c.affected)) {
    const fromCpe = a.cpes.map(cpeParts).find(Boolean);
    const vendor = a.vendor ?? fromCpe?.vendor;
    const product = a.product ?? fromCpe?.product;
    if (!vendor && !product) continue;
    const key = `${(vendor ?? '').toLowerCase()}\u0000${(product ?? '').toLowerCase()}`;
    const p = byKey.get(key) ?? { vendor, product, cpe: [] };
    for (const cpe of a.cpes) if (!p.cpe.includes(cpe)) p.cpe.push(cpe);
    if (a.repo) p.project_repos = { ...(p.project_repos ?? {}), [a.repo]: a.package_name ?? product ?? '' };
    if (a.package_name && !(p.projects ?? []).includes(a.package_name))
      p.projects = [...(p.projects ?? []), a.package_name];
    const part = (fromCpe ?? p.cpe.map(cpeParts).find(Boolean))?.part;
    if (part && CPE_PART_TYPE[part]) p.product_type = CPE_PART_TYPE[part];
    byKey.set(key, p);
  }
  return [...byKey.values()].map((p) => dropUndefined(p as unknown as Record<string, unknown>) as unknown as Product);
}

function isOssAffected(a: { repo?: string; collection_url?: string }): boolean {
  if (a.repo) return true;
  if (!a.collection_url) return false;
  try {
    const host = new URL(a.collection_url).hostname.replace(/^www\./, '');
    return OSS_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  } catch {
    return false;
  }
}

function templateCwes(f: CveFacts): string[] {
  const ids = f.template?.classification['cwe-id'];
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string' && /^CWE-\d+$/.test(x)) : [];
}

/** The linked template's record fields (Template group of the spec), as the template store holds them. */
function templateGroup(f: CveFacts): VulnDoc {
  const t = f.template!;
  const slash = t.uri.lastIndexOf('/');
  return {
    id: t.id,
    uri: t.uri,
    directory: slash > 0 ? t.uri.slice(0, slash) : undefined,
    filename: t.uri.slice(slash + 1),
    type: t.type,
    author: t.author,
    tags: t.tags,
    raw: t.raw,
    digest: t.digest,
    metadata: t.metadata,
    classification: classification(t.classification),
    ai_meta: t.ai_meta ?? undefined,
    template_type: t.template_type,
    ref: t.ref ?? undefined,
    release_tag: t.release_tag ?? undefined,
    is_draft: t.is_draft,
    is_early: t.is_early,
    is_github: t.is_github,
    is_new: t.is_new,
    is_svcteam: t.is_svcteam,
  };
}

function classification(c: Record<string, unknown>): Record<string, unknown> {
  const num = (v: unknown) =>
    v === undefined || v === null || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v);
  const strs = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : undefined);
  return dropUndefined({
    'cve-id': strs(c['cve-id']),
    'cwe-id': strs(c['cwe-id']),
    'cvss-metrics': typeof c['cvss-metrics'] === 'string' ? c['cvss-metrics'] : undefined,
    'cvss-score': num(c['cvss-score']),
    'epss-score': num(c['epss-score']),
    'epss-percentile': num(c['epss-percentile']),
    cpe: typeof c.cpe === 'string' ? c.cpe : undefined,
  });
}

const normTag = (t: string) =>
  t
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
