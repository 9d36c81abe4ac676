// Imports the real feeds of ../shared/data/vuln (plus small EPSS and bounty files made here) and checks
// whole records, field by field, against the source files read independently in the test.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import YAML from 'yaml';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Vulnerability } from '../../../src/platform/intel/schema.ts';
import { lookup } from '../../../src/platform/intel/service.ts';
import { recordCache } from '../../../src/platform/intel/record-cache.ts';
import { deleteRecords } from '../../../src/platform/intel/store.ts';
import { connect } from '../../../src/db/connection.ts';
import { waitFor } from '../../helpers/wait.ts';
import { importIntel, type ImportReport } from '../../../src/platform/intel/importer.ts';
import { chooseLinks, relinkTemplates } from '../../../src/platform/intel/template-link.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { hasShared } from '../../helpers/shared.ts';

const SHARED = path.resolve(import.meta.dirname, '../../../../shared');
const VULN = path.join(SHARED, 'data/vuln');
const CORPUS = path.join(SHARED, 'corpus/nuclei-templates');
// Without ../shared the data is empty and the tests below are skipped (hasShared says so once).
const HAVE = hasShared('data/vuln') && hasShared('corpus/nuclei-templates');
const readJson = (p: string) => (HAVE ? JSON.parse(readFileSync(path.join(VULN, p), 'utf8')) : []);
const iso = (s: string) =>
  new Date(/Z|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.length === 10 ? `${s}T00:00:00` : s}Z`).toISOString();

const manifest: { cve: string; path: string }[] = readJson('cve5/MANIFEST.json');
const cve5 = (id: string) => readJson(`cve5/${manifest.find((m) => m.cve === id)!.path}`);
const kevCatalog: { cveID: string; dateAdded: string; dueDate: string; knownRansomwareCampaignUse: string }[] =
  readJson('kev/known_exploited_vulnerabilities.json').vulnerabilities;
const vulncheck: { cve: string[]; date_added: string; dueDate?: string; knownRansomwareCampaignUse: string }[] =
  readJson('vulncheck-kev/vulncheck_kev_subset.json');
const cweNames: Record<string, { name: string }> = readJson('cwe/cwe_names_v4.14.json');
const templateIndex = (HAVE ? readFileSync(path.join(CORPUS, 'cves.json'), 'utf8') : '')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { ID: string; file_path: string });

// The catalogue given to the template store: the corpus's templates of the CVEs in the data (per its
// cves.json) minus one kept back to link later, plus templates that name a CVE besides its own template.
const dataCves = new Set(manifest.map((m) => m.cve));
const LATE = templateIndex.filter((r) => dataCves.has(r.ID)).at(-1)!;
const catalogueFiles = [
  ...templateIndex.filter((r) => dataCves.has(r.ID) && r !== LATE).map((r) => r.file_path),
  'http/cves/2021/CVE-2021-22205.yaml',
  'http/vulnerabilities/gitlab/gitlab-rce.yaml',
  'http/cves/2022/CVE-2022-22965.yaml',
  'dast/cves/2022/CVE-2022-22965.yaml',
];
/** The template the catalogue's index names for a CVE, when that template is in the catalogue imported. */
const linkedTo = (id: string) => {
  const file = templateIndex.find((r) => r.ID === id)?.file_path;
  return file && catalogueFiles.includes(file) ? file : undefined;
};
const copyTemplate = (to: string, rel: string) => {
  mkdirSync(path.dirname(path.join(to, rel)), { recursive: true });
  copyFileSync(path.join(CORPUS, rel), path.join(to, rel));
};

const BOTH_KEV_TEMPLATE = 'CVE-2018-13379';
FormatRegistry.Set(
  'date-time',
  (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
); // CISA KEV, VulnCheck KEV, PoCs, template
const NO_CVSS = 'CVE-2022-22273';
const EPSS = { [BOTH_KEV_TEMPLATE]: [0.94352, 0.99951], [NO_CVSS]: [0.01234, 0.5] } as Record<string, [number, number]>;

function containers(rec: any): any[] {
  return [rec.containers.cna, ...(rec.containers.adp ?? [])];
}

describe.skipIf(!HAVE).each(dbKinds())('vulnerability intelligence import on %s', (kind) => {
  let t: TestApp;
  let first: ImportReport;
  let dir: string;
  let catalogue: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-intel-'));
    writeFileSync(
      path.join(dir, 'epss.csv'),
      [
        '#model_version:v2025.03.14,score_date:2025-05-01T00:00:00+0000',
        'cve,epss,percentile',
        ...Object.entries(EPSS).map(([id, [s, p]]) => `${id},${s},${p}`),
        'CVE-2021-44228,not-a-number,0.9',
        'not-a-cve,0.5,0.5',
      ].join('\n'),
    );
    catalogue = path.join(dir, 'catalogue');
    for (const rel of catalogueFiles) copyTemplate(catalogue, rel);
    await importCatalogue(t.ctx.db, catalogue);
    first = await importIntel(t.ctx.db, [VULN, path.join(dir, 'epss.csv')]);
  }, 300_000);
  afterAll(async () => t?.close());

  const get = async (id: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `/v2/vulnerability/${id}${query}` });
    return { status: res.statusCode, body: res.json() };
  };

  it('imports every CVE record and reports skipped rows with reasons', () => {
    const byFeed = Object.fromEntries(first.feeds.map((f) => [f.feed, f]));
    expect(byFeed.cve5!.read).toBe(manifest.length);
    expect(byFeed.kev!.read).toBe(kevCatalog.length);
    expect(byFeed.vulncheck_kev!.read).toBe(vulncheck.length);
    expect(byFeed.cwe!.read).toBe(Object.keys(cweNames).length);
    expect(byFeed.epss!.read).toBe(2);
    expect(byFeed.epss!.skipped).toBe(2);
    expect(byFeed.epss!.skipped_examples.map((s) => s.reason).join(' | ')).toMatch(
      /not a probability.*not a CVE id|not a CVE id.*not a probability/,
    );
    // the 1,488 CVE JSON 5 records plus the NVD 2.0 one (a CVE not among them)
    expect(first.records_total).toBe(manifest.length + 1);
  });

  it('serves a CVE in both KEV lists with PoCs and a template, field by field', async () => {
    const id = BOTH_KEV_TEMPLATE;
    const src = cve5(id);
    const { status, body } = await get(id.toLowerCase());
    expect(status).toBe(200);
    const v = body.data;
    // CVE group
    expect(v.cve_id).toBe(id);
    expect(v.assignee).toBe(src.cveMetadata.assignerShortName);
    expect(v.cve_created_at).toBe(iso(src.cveMetadata.datePublished));
    expect(v.cve_updated_at).toBe(iso(src.cveMetadata.dateUpdated));
    const cvss = src.containers.cna.metrics[0].cvssV3_1;
    expect(v.cvss_metrics).toBe(cvss.vectorString);
    expect(v.cvss_score).toBe(cvss.baseScore);
    expect(v.severity).toBe(cvss.baseSeverity.toLowerCase());
    expect(v.is_remote).toBe(cvss.attackVector === 'NETWORK');
    expect(v.is_auth).toBe(cvss.privilegesRequired !== 'NONE');
    expect(v.age_in_days).toBe(Math.floor((Date.now() - Date.parse(iso(src.cveMetadata.datePublished))) / 86_400_000));
    expect([v.epss_score, v.epss_percentile]).toEqual(EPSS[id]);
    // KEV: one entry per source
    const cisa = kevCatalog.find((k) => k.cveID === id)!;
    const vc = vulncheck.find((k) => k.cve.includes(id))!;
    expect(v.is_kev).toBe(true);
    expect(v.is_vkev).toBe(true);
    expect(v.is_exploit_seen).toBe(true);
    expect(v.kev).toEqual([
      {
        source: 'cisa',
        added_date: iso(cisa.dateAdded),
        due_date: iso(cisa.dueDate),
        known_ransomware_campaign_use: cisa.knownRansomwareCampaignUse === 'Known',
      },
      {
        source: 'vulncheck',
        added_date: iso(vc.date_added),
        ...(vc.dueDate ? { due_date: iso(vc.dueDate) } : {}),
        known_ransomware_campaign_use: vc.knownRansomwareCampaignUse === 'Known',
      },
    ]);
    // PoCs: every distinct link of the merged openpoc list
    const pocSrc = readJson(`pocs/2018/${id}.json`);
    const urls = new Set<string>(pocSrc.openpoc.map((p: { url: string }) => p.url));
    expect(v.poc_count).toBe(urls.size);
    expect(new Set(v.pocs.map((p: { url: string }) => p.url))).toEqual(urls);
    expect(v.is_poc).toBe(true);
    const dates = v.pocs
      .map((p: { added_at?: string }) => p.added_at)
      .filter(Boolean)
      .sort();
    expect(v.poc_first_seen).toBe(dates[0]);
    const openpocValid = pocSrc.openpoc
      .map((p: { added_at: string }) => iso(p.added_at))
      .filter((d: string) => d >= '1995')
      .sort();
    expect(v.poc_first_seen <= openpocValid[0]).toBe(true);
    // description group
    expect(v.description).toBe(src.containers.cna.descriptions[0].value);
    expect(v.cwe).toEqual(['CWE-22']);
    expect(v.weaknesses).toEqual([{ cwe_id: 'CWE-22', cwe_name: cweNames['CWE-22']!.name }]);
    const refUrls = new Set(containers(src).flatMap((c) => (c.references ?? []).map((r: { url: string }) => r.url)));
    expect(new Set(v.citations.map((c: { url: string }) => c.url))).toEqual(refUrls);
    const refTags = containers(src).flatMap((c) =>
      (c.references ?? []).flatMap((r: { tags?: string[] }) => r.tags ?? []),
    );
    expect(v.is_patch_available).toBe(refTags.some((t: string) => t === 'patch' || t === 'vendor-advisory'));
    const adpCpes = containers(src).flatMap((c) =>
      (c.affected ?? []).flatMap((a: { cpes?: string[] }) => a.cpes ?? []),
    );
    expect(v.affected_products.flatMap((p: { cpe: string[] }) => p.cpe).sort()).toEqual([...new Set(adpCpes)].sort());
    expect(
      v.affected_products.some((p: { vendor: string }) => p.vendor === src.containers.cna.affected[0].vendor),
    ).toBe(true);
    // template group: the template store's copy of the corpus file that cves.json names for the CVE
    const tplPath = linkedTo(id)!;
    const raw = readFileSync(path.join(CORPUS, tplPath), 'utf8');
    const yaml = YAML.parse(raw);
    const list = (x: string) => x.split(',').map((s) => s.trim());
    const cls = yaml.info.classification;
    expect(v.is_template).toBe(true);
    expect(v.scanner_template).toBe(raw);
    expect(v.raw).toBe(raw);
    expect(v.digest).toBe(createHash('sha256').update(raw).digest('hex'));
    expect(v.uri).toBe(tplPath);
    expect(v.filename).toBe(path.posix.basename(tplPath));
    expect(v.directory).toBe(path.posix.dirname(tplPath));
    expect(v.id).toBe(yaml.id);
    expect(v.type).toBe('http');
    expect(v.author).toEqual(list(yaml.info.author));
    expect(v.tags).toEqual(list(yaml.info.tags));
    expect(v.metadata).toEqual(yaml.info.metadata);
    expect(v.classification).toEqual({
      'cve-id': [cls['cve-id']],
      'cwe-id': [cls['cwe-id']],
      'cvss-metrics': cls['cvss-metrics'],
      'cvss-score': cls['cvss-score'],
      'epss-score': cls['epss-score'],
      'epss-percentile': cls['epss-percentile'],
      cpe: cls.cpe,
    });
    expect(v).toMatchObject({
      template_type: 'public',
      is_draft: false,
      is_early: false,
      is_github: false,
      is_new: true,
      is_svcteam: true,
    });
    expect(v.template_coverage).toBe(yaml.info.metadata.verified === true ? 'verified' : 'unverified');
    expect(v).not.toHaveProperty('user_id'); // a catalogue template belongs to no user
    const nucleiPoc = v.pocs.find(
      (p: { source: string; url: string }) => p.source === 'nuclei' && p.url.endsWith(`/${tplPath}`),
    );
    if (nucleiPoc) expect(v.template_created_at).toBe(nucleiPoc.added_at);
    else expect(Date.parse(v.template_created_at)).toBeGreaterThan(Date.now() - 3_600_000);
    // own fields
    expect(v.doc_type).toBe('cve');
    expect(v.ntps).toBe(
      Math.round(cvss.baseScore * 3 + EPSS[id]![0] * 25 + 20 + 10 + (v.template_coverage === 'verified' ? 15 : 10)),
    );
    // the doc_id finds the same record
    const byDoc = await get(v.doc_id);
    expect(byDoc.status).toBe(200);
    expect(byDoc.body.data.cve_id).toBe(id);
  });

  it('serves a CVE without CVSS: no score, vector-derived flags absent', async () => {
    const src = cve5(NO_CVSS);
    const { status, body } = await get(NO_CVSS);
    expect(status).toBe(200);
    const v = body.data;
    for (const f of ['cvss_score', 'cvss_metrics', 'is_remote', 'is_auth']) expect(v).not.toHaveProperty(f);
    expect(v.description).toBe(src.containers.cna.descriptions[0].value);
    const cwe = src.containers.cna.problemTypes[0].descriptions.find((d: { cweId?: string }) => d.cweId).cweId;
    expect(v.cwe).toContain(cwe);
    expect(v.weaknesses.find((w: { cwe_id: string }) => w.cwe_id === cwe).cwe_name).toBe(cweNames[cwe]!.name);
    expect(v.is_kev).toBe(kevCatalog.some((k) => k.cveID === NO_CVSS));
    expect(v.is_template).toBe(!!linkedTo(NO_CVSS));
    expect(v.ntps).toBe(
      Math.round(
        EPSS[NO_CVSS]![0] * 25 +
          (v.is_kev ? 20 : 0) +
          (v.is_poc ? 10 : 0) +
          (v.is_template ? (v.template_coverage === 'verified' ? 15 : 10) : 0),
      ),
    );
  });

  it('reads NVD API 2.0 records', async () => {
    const nvd = readJson('nvd2/CVE-2024-21887.nvd2.TRUNCATED.json');
    const { body } = await get('CVE-2024-21887');
    const v = body.data;
    expect(v.cvss_metrics).toBe(nvd.metrics.cvssMetricV31[0].cvssData.vectorString);
    expect(v.cvss_score).toBe(nvd.metrics.cvssMetricV31[0].cvssData.baseScore);
    expect(v.is_auth).toBe(true); // PR:H
    expect(v.vuln_status).toBe(nvd.vulnStatus.toLowerCase());
    expect(v.kev.find((k: { source: string }) => k.source === 'cisa').added_date).toBe(
      iso(kevCatalog.find((k) => k.cveID === 'CVE-2024-21887')!.dateAdded),
    );
    expect(v.affected_products[0].cpe).toEqual(
      nvd.configurations[0].nodes[0].cpeMatch.map((m: { criteria: string }) => m.criteria),
    );
  });

  it('returns only the requested fields and names an unknown one', async () => {
    const ok = await get(BOTH_KEV_TEMPLATE, '?fields=cve_id,is_kev,age_in_days');
    expect(Object.keys(ok.body.data).sort()).toEqual(['age_in_days', 'cve_id', 'is_kev']);
    const bad = await get(BOTH_KEV_TEMPLATE, '?fields=cve_id,nope');
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('fields');
    expect(bad.body.message).toContain('nope');
    const missing = await get('CVE-1999-99999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('CVE-1999-99999');
  });

  it('links each record to the template that the catalogue index names for its CVE', async () => {
    const rows = (
      await t.ctx.db.query<{ cve_id: string; uri: string | null; is_template: boolean }>(
        "SELECT cve_id, doc::jsonb->>'uri' AS uri, is_template FROM intel_vulns",
      )
    ).rows;
    expect(rows.length).toBe(first.records_total);
    for (const r of rows)
      expect({ id: r.cve_id, uri: r.uri ?? undefined }).toEqual({ id: r.cve_id, uri: linkedTo(r.cve_id) });
    expect(first.templates_linked).toBe(rows.filter((r) => r.is_template).length);
    expect(first.templates_linked).toBe(templateIndex.filter((r) => dataCves.has(r.ID)).length - 1);
    // several templates name these CVEs; the CVE's own template wins
    const links = await chooseLinks(t.ctx.db);
    for (const id of ['CVE-2021-22205', 'CVE-2022-22965']) expect(links.get(id)?.uri).toBe(linkedTo(id));
  });

  it('answers every record as JSON of the closed Vulnerability schema (the lookup sends stored text as is)', async () => {
    const ids = (await t.ctx.db.query<{ cve_id: string }>('SELECT cve_id FROM intel_vulns')).rows.map((r) => r.cve_id);
    expect(ids.length).toBe(first.records_total);
    for (const id of ids) {
      const answer = await lookup(t.ctx.db, id);
      const body = JSON.parse((answer as { bytes: Buffer }).bytes.toString());
      expect(Object.keys(body)).toEqual(['data']);
      const errors = [...Value.Errors(Vulnerability, body.data)].map((e) => `${e.path}: ${e.message}`);
      expect({ id, errors }).toEqual({ id, errors: [] });
      expect(body.data.cve_id).toBe(id);
      for (const f of ['created_at', 'updated_at']) expect(body.data).toHaveProperty(f);
      expect('age_in_days' in body.data).toBe('cve_created_at' in body.data); // a record may have no publication date
    }
    const res = await t.request({ method: 'GET', url: `/v2/vulnerability/${ids[0]}` });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(JSON.parse(((await lookup(t.ctx.db, ids[0]!)) as { bytes: Buffer }).bytes.toString()));
  });

  it('is idempotent: a second import changes nothing', async () => {
    const before = (await get(BOTH_KEV_TEMPLATE)).body.data.updated_at;
    const again = await importIntel(
      t.ctx.db,
      [path.join(VULN, 'kev'), path.join(VULN, 'pocs/2018'), path.join(dir, 'epss.csv')],
      {},
    );
    expect(again.records_changed).toBe(0);
    expect(again.feeds.every((f) => f.changed === 0)).toBe(true);
    expect((await get(BOTH_KEV_TEMPLATE)).body.data.updated_at).toBe(before);
  });

  it('keeps the previous day of bounty counts for deltas', async () => {
    writeFileSync(
      path.join(dir, 'bounty-2025-05-01.csv'),
      `cve,rank,reports\n${BOTH_KEV_TEMPLATE},12,40\nCVE-BAD,1,1\n`,
    );
    writeFileSync(path.join(dir, 'bounty-2025-05-02.csv'), `cve,rank,reports\n${BOTH_KEV_TEMPLATE},9,46\n`);
    const day1 = await importIntel(t.ctx.db, [path.join(dir, 'bounty-2025-05-01.csv')]);
    expect(day1.feeds[0]!.skipped).toBe(1);
    expect((await get(BOTH_KEV_TEMPLATE)).body.data.bounty).toEqual({ rank: 12, reports: 40 });
    await importIntel(t.ctx.db, [path.join(dir, 'bounty-2025-05-02.csv')]);
    await importIntel(t.ctx.db, [path.join(dir, 'bounty-2025-05-02.csv')]); // same day again: no change
    expect((await get(BOTH_KEV_TEMPLATE)).body.data.bounty).toEqual({
      rank: 9,
      reports: 46,
      delta_rank: -3,
      delta_reports: 6,
    });
  });

  it('keeps the previous day of EPSS values; an older or repeated day changes nothing', async () => {
    const epssFile = (day: string, score: number, pct: number) => {
      const file = path.join(dir, `epss-${day}.csv`);
      writeFileSync(
        file,
        `#model_version:v2025.03.14,score_date:${day}T00:00:00+0000\ncve,epss,percentile\n${BOTH_KEV_TEMPLATE},${score},${pct}\n`,
      );
      return file;
    };
    const day2 = await importIntel(t.ctx.db, [epssFile('2025-05-02', 0.9, 0.998)]);
    expect(day2.records_changed).toBe(1);
    const v = (await get(BOTH_KEV_TEMPLATE)).body.data;
    expect([v.epss_score, v.epss_percentile]).toEqual([0.9, 0.998]);
    const fact = async () =>
      (
        await t.ctx.db.query<{ data: { score: number; prev?: unknown } }>(
          "SELECT data FROM intel_facts WHERE feed = 'epss' AND cve_id = $1",
          [BOTH_KEV_TEMPLATE],
        )
      ).rows[0]!.data;
    const [s1, p1] = EPSS[BOTH_KEV_TEMPLATE]!;
    expect((await fact()).prev).toEqual({ score: s1, percentile: p1, date: '2025-05-01T00:00:00.000Z' });
    for (const again of [epssFile('2025-05-02', 0.9, 0.998), epssFile('2025-04-30', 0.1, 0.2)]) {
      const r = await importIntel(t.ctx.db, [again]);
      expect([r.records_changed, r.feeds[0]!.changed]).toEqual([0, 0]);
    }
    expect((await fact()).score).toBe(0.9);
  });

  const search = async (query: Record<string, string>) => {
    const res = await t.request({ method: 'GET', url: `/v2/vulnerability/search?${new URLSearchParams(query)}` });
    return { status: res.statusCode, body: res.json() };
  };

  it('searches with field:value, ranges, &&, ||, NOT and free text', async () => {
    const all = await search({ q: 'cvss_score:>=0 || NOT cvss_score:>=0', limit: '1' });
    expect(all.body.total).toBe(first.records_total);
    const kevHigh = await search({
      q: 'is_kev:true && cvss_score:>9',
      limit: '1000',
      fields: 'cve_id,is_kev,cvss_score',
    });
    expect(kevHigh.status).toBe(200);
    expect(kevHigh.body.total).toBeGreaterThan(0);
    for (const r of kevHigh.body.results) expect(r.is_kev && r.cvss_score > 9).toBe(true);
    const notKev = await search({ q: 'NOT is_kev:true && cvss_score:>9', limit: '1' });
    const high = await search({ q: 'cvss_score:>9', limit: '1' });
    expect(kevHigh.body.total + notKev.body.total).toBe(high.body.total);
    const text = await search({ q: 'fortios "ssl vpn"', fields: 'cve_id' });
    expect(text.body.results.map((r: { cve_id: string }) => r.cve_id)).toContain(BOTH_KEV_TEMPLATE);
    const cwe = await search({ q: 'cwe:cwe-22 && vendor:fortinet', fields: 'cve_id,cwe' });
    expect(cwe.body.results.map((r: { cve_id: string }) => r.cve_id)).toContain(BOTH_KEV_TEMPLATE);
    const young = await search({ q: 'age_in_days:<30' });
    expect(young.body.total).toBe(0); // the data is from 2024 and before
    const sorted = await search({ q: 'is_template:true', sort_desc: 'cvss_score', limit: '5', fields: 'cvss_score' });
    const scores = sorted.body.results.map((r: { cvss_score: number }) => r.cvss_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const facets = await search({ q: 'is_kev:true', term_facets: 'severity', range_facets: 'cvss_score', limit: '1' });
    const buckets = facets.body.facets.severity.buckets as Record<string, number>;
    expect(
      Object.values(buckets).reduce((a, n) => a + n, 0) +
        facets.body.facets.severity.missing +
        facets.body.facets.severity.other,
    ).toBe(facets.body.total);
  });

  it('rejects bad queries with 400 naming the parameter, and treats values as data', async () => {
    for (const [q, param] of [
      [{ q: 'nofield:1' }, 'q'],
      [{ q: 'cvss_score:>high' }, 'q'],
      [{ q: '(is_kev:true' }, 'q'],
      [{ sort_asc: 'raw' }, 'sort_asc'],
      [{ fields: 'bogus' }, 'fields'],
    ] as const) {
      const res = await search(q as Record<string, string>);
      expect(res.status).toBe(400);
      expect(res.body.param).toBe(param);
    }
    for (const q of [`vendor:"x' OR 1=1 --"`, "'; DROP TABLE intel_vulns; --", 'description:zz%_qq']) {
      const injection = await search({ q });
      expect(injection.status).toBe(200);
      expect(injection.body.total).toBe(0);
    }
    expect((await search({ q: '', limit: '1' })).body.total).toBe(first.records_total);
  });
  it('answers a looked-up record from memory and sees every change of it: by the store at once, by plain SQL on another connection', async () => {
    const id = NO_CVSS;
    const summary = async () => (await get(id)).body.data.description as string;
    const original = await summary();
    const stored = (await t.ctx.db.query<{ doc: string }>('SELECT doc FROM intel_vulns WHERE cve_id = $1', [id]))
      .rows[0]!.doc;
    // Stored only once the process hears of changes (its listening connection is up).
    await waitFor(async () => {
      await summary();
      return recordCache(t.ctx.db).size > 0;
    });
    const setDescription = (text: string) =>
      `UPDATE intel_vulns SET doc = jsonb_set(doc::jsonb, '{description}', to_jsonb('${text}'::text))::text WHERE cve_id = '${id}'`;
    if (kind === 'pglite') {
      // One process per PGlite data folder: a change bypassing the store is seen before the statement returns.
      await t.ctx.db.query(setDescription('changed by SQL'));
      expect(await summary()).toBe('changed by SQL');
    } else {
      const other = await connect({ databaseUrl: t.testDb.url!, schema: t.testDb.schema!, poolSize: 1 });
      try {
        await other.query(setDescription('changed by SQL'));
      } finally {
        await other.close();
      }
      // Delivered over the listening connection right after the commit.
      await waitFor(async () => (await summary()) === 'changed by SQL', 5_000, 20);
    }
    // Put back as it was (the same way), for the tests after this one.
    await t.ctx.db.query('UPDATE intel_vulns SET doc = $1 WHERE cve_id = $2', [stored, id]);
    await waitFor(async () => (await summary()) === original, 5_000, 20);

    // The store's own write is seen by the very next request of this process (a record no other test reads).
    const spare = manifest
      .map((m) => m.cve)
      .find((c) => ![NO_CVSS, BOTH_KEV_TEMPLATE, LATE.ID].includes(c) && !linkedTo(c))!;
    await waitFor(async () => {
      expect((await get(spare)).status).toBe(200);
      return recordCache(t.ctx.db).size > 1;
    });
    await deleteRecords(t.ctx.db, [spare]);
    expect((await get(spare)).status).toBe(404);
    expect((await get(id, '?fields=description')).body.data.description).toBe(original);
  });

  it('re-links records when the template catalogue changes', async () => {
    const get1 = async () => (await get(LATE.ID)).body.data;
    expect((await get1()).is_template).toBe(false);
    expect(await relinkTemplates(t.ctx.db)).toEqual({ links_changed: 0, records_changed: 0 });

    copyTemplate(catalogue, LATE.file_path); // a template for the CVE is added to the catalogue
    await importCatalogue(t.ctx.db, catalogue);
    // the new template is linked; the templates of the first import are no longer is_new
    expect((await relinkTemplates(t.ctx.db)).records_changed).toBe(first.templates_linked + 1);
    const raw = readFileSync(path.join(CORPUS, LATE.file_path), 'utf8');
    let v = await get1();
    expect([v.is_template, v.uri, v.raw, v.scanner_template, v.is_new]).toEqual([true, LATE.file_path, raw, raw, true]);
    expect((await get(BOTH_KEV_TEMPLATE)).body.data.is_new).toBe(false);

    writeFileSync(path.join(catalogue, LATE.file_path), `${raw}\n# changed locally\n`); // the template changes
    await importCatalogue(t.ctx.db, catalogue);
    expect((await relinkTemplates(t.ctx.db)).records_changed).toBe(1);
    v = await get1();
    expect(v.raw).toBe(`${raw}\n# changed locally\n`);
    expect(v.digest).toBe(createHash('sha256').update(v.raw).digest('hex'));

    rmSync(path.join(catalogue, LATE.file_path)); // and leaves the catalogue
    await importCatalogue(t.ctx.db, catalogue);
    expect((await relinkTemplates(t.ctx.db)).records_changed).toBe(1);
    v = await get1();
    expect(v.is_template).toBe(false);
    expect(v.template_coverage).toBe('none');
    for (const f of ['uri', 'raw', 'scanner_template', 'digest', 'classification', 'template_type'])
      expect(v).not.toHaveProperty(f);
  });
});
