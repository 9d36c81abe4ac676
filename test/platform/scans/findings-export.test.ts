// Findings exports: every type (json, csv, pdf of the hosted platform; sarif and markdown), sync and async,
// one scan, a filter, the team across scans and one finding. The SARIF file is validated against the OASIS
// SARIF 2.1.0 JSON schema (test/fixtures/sarif), with one result per finding at its location.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';

const sarifSchema = JSON.parse(
  readFileSync(new URL('../../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
);

// ajv-draft-04 reads the schema's JSON Schema draft 4 (a CommonJS module: its class is the export).
const Ajv4 = createRequire(import.meta.url)('ajv-draft-04') as typeof Ajv;

export function sarifValidator() {
  const ajv = new Ajv4({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv.compile(sarifSchema);
}

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
const line = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    'template-id': `check-${i}`,
    'template-url': `https://templates.example.com/check-${i}`,
    info: { name: `Finding ${i}`, severity: SEVERITIES[i % 5], tags: ['t', `c${i % 2}`], description: `about ${i}` },
    type: i === 2 ? 'tcp' : 'http',
    host: i === 2 ? '10.9.8.7:6379' : `https://h${i}.example.com`,
    'matched-at': i === 2 ? '10.9.8.7:6379' : `https://h${i}.example.com/p${i}?q=${i}`,
    'matcher-name': `m${i}`,
    'extracted-results': [`v${i}`],
    timestamp: '2024-01-02T03:04:05Z',
    'matcher-status': true,
    request: `GET /p${i} HTTP/1.1\r\nAuthorization: Bearer sekret-token-${i}\r\n\r\n`,
    response: 'HTTP/1.1 200 OK\r\nSet-Cookie: session=sekret-cookie\r\n\r\n',
    ...extra,
  });

async function importScan(t: TestApp, lines: string[], name: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/v1/scans/import?name=${name}`,
    payload: lines.join('\n') + '\n',
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

describe.each(dbKinds())('findings exports on %s', (kind) => {
  let t: TestApp;
  let scanA: string;
  let scanB: string;
  const N = 7;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const lines = Array.from({ length: N }, (_, i) => line(i));
    // Text from scanned servers and templates that a spreadsheet would run, or that breaks a table.
    lines.push(
      line(90, {
        info: { name: '=HYPERLINK("http://evil.example","x")', severity: 'high', tags: ['t'] },
        'matcher-name': '+cmd|calc',
        'extracted-results': ['@SUM(1+1)', '-2+3'],
      }),
    );
    lines.push(line(91, { info: { name: 'pipe | and <b>html</b>\nnewline', severity: 'low', tags: ['t'] } }));
    scanA = await importScan(t, lines, 'a');
    scanB = await importScan(t, [line(50), line(51)], 'b');
  });
  afterAll(() => t?.close());

  const get = (url: string, key?: string) => t.request({ method: 'GET', url, key });
  const post = (url: string, payload: object, key?: string) => t.request({ method: 'POST', url, payload, key });

  it('exports a scan as json: every finding once, the API item without raw request and response', async () => {
    const res = await get(`/v1/scans/${scanA}/export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="scan-${scanA}.json"`);
    const items = res.json();
    expect(items).toHaveLength(N + 2);
    expect(new Set(items.map((i: any) => i.vuln_id)).size).toBe(N + 2);
    const one = items.find((i: any) => i.template_id === 'check-3');
    expect(one).toMatchObject({ severity: 'low', matched_at: 'https://h3.example.com/p3?q=3', vuln_status: 'open' });
    expect(one.event['matcher-name']).toBe('m3');
    expect(res.body).not.toContain('sekret');
  });

  it('csv: one row per finding, formula cells neutralised, no secrets', async () => {
    const res = await get(`/v1/scans/${scanA}/export?type=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const rows: string[][] = parse(res.body);
    expect(rows[0]!.slice(0, 5)).toEqual(['vuln_id', 'scan_id', 'template_id', 'template_name', 'severity']);
    expect(rows).toHaveLength(1 + N + 2);
    const evil = rows.find((r) => r[2] === 'check-90')!;
    expect(evil[3]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(evil[10]).toBe(`'+cmd|calc`);
    expect(evil[11]).toBe(`'@SUM(1+1); -2+3`);
    // No cell of the file starts with a formula character.
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(res.body).not.toContain('sekret');
  });

  it('sarif: valid SARIF 2.1.0 with one result per finding at its location', async () => {
    const res = await get(`/v1/scans/${scanA}/export?type=sarif`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/sarif\+json/);
    const log = res.json();
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    expect(run.results).toHaveLength(N + 2);
    const ids = (await get(`/v1/scans/${scanA}/export`)).json();
    for (const item of ids) {
      const r = run.results.find((x: any) => x.properties.vuln_id === item.vuln_id);
      expect(r.ruleId).toBe(item.template_id);
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(item.template_id);
      const uri = r.locations[0].physicalLocation.artifactLocation.uri;
      expect(uri).toBe(item.template_id === 'check-2' ? 'tcp://10.9.8.7:6379' : item.matched_at);
    }
    const crit = run.results.find((x: any) => x.ruleId === 'check-0');
    expect(crit.level).toBe('error');
    expect(run.results.find((x: any) => x.ruleId === 'check-2').level).toBe('warning');
    // A SARIF validator rejects a file without results' messages: the check can fail.
    const broken = structuredClone(log);
    delete broken.runs[0].results[0].message;
    expect(validate(broken)).toBe(false);
  });

  it('markdown: a table row per finding with table-breaking text escaped', async () => {
    const res = await get(`/v1/scans/${scanA}/export?type=markdown`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/markdown/);
    const rows = res.body.split('\n').filter((l) => /^\| \d+ \|/.test(l));
    expect(rows).toHaveLength(N + 2);
    const pipe = rows.find((l) => l.includes('check\\-91'))!;
    // Six cells: the pipe inside the name is escaped, and the HTML is not markup.
    expect(pipe.split(/(?<!\\)\|/).length - 2).toBe(6);
    expect(pipe).toContain('&lt;b\\>html&lt;/b\\>');
    expect(res.body).toContain(`${N + 2} findings`);
  });

  it('pdf: a real PDF document', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/scans/${scanA}/export?type=pdf`,
      headers: { 'x-api-key': t.owner.key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toMatch(/%%EOF/);
    expect((bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(1);
  });

  it('POST with a filter exports only the matching findings; a bad filter is a 400 naming it', async () => {
    const res = await post(`/v1/scans/${scanA}/export`, { severity: ['critical', 'high'] });
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(items.map((i: any) => i.severity).sort()).toEqual(['critical', 'critical', 'high', 'high', 'high']);
    const byHost = await post(`/v1/scans/${scanA}/export`, { domain: ['h3.example.com'], search: 'Finding' });
    expect(byHost.json().map((i: any) => i.template_id)).toEqual(['check-3']);
    const bad = await post(`/v1/scans/${scanA}/export`, { severity: ['nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ param: 'severity' });
    const badStatus = await post(`/v1/scans/${scanA}/export`, { vuln_status: 'whatever' });
    expect(badStatus.json()).toMatchObject({ param: 'vuln_status' });
    if (hasPdcpOpenApi()) {
      assertPdcpAnswer('POST', `/v1/scans/${scanA}/export`, 400, bad.json());
    }
  });

  it('POST /v1/scans/results/export spans scans, narrowed by scan_ids and ids', async () => {
    const all = await post('/v1/scans/results/export', {});
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveLength(N + 4);
    const onlyB = await post('/v1/scans/results/export?type=csv', { scan_ids: [scanB] });
    expect(parse(onlyB.body)).toHaveLength(3);
    const first = all.json()[0];
    const byId = await post('/v1/scans/results/export', { ids: [first.vuln_id], start_date: '2000-01-01' });
    expect(byId.json().map((i: any) => i.vuln_id)).toEqual([first.vuln_id]);
    const future = await post('/v1/scans/results/export', { start_date: '2999-01-01' });
    expect(future.json()).toEqual([]);
    const badDate = await post('/v1/scans/results/export', { end_date: '2024-13-45' });
    expect(badDate.statusCode).toBe(400);
  });

  it('GET /v1/scans/vuln/{vuln_id}/export: that finding alone; unknown ids are a 404', async () => {
    const item = (await get(`/v1/scans/${scanB}/export`)).json()[0];
    const res = await get(`/v1/scans/vuln/${item.vuln_id}/export?type=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="finding-${item.vuln_id}.csv"`);
    expect(parse(res.body)).toHaveLength(2);
    const json = (await get(`/v1/scans/vuln/${item.vuln_id}/export`)).json();
    expect(json).toEqual([item]);
    for (const id of ['999999999', 'abc', '0']) {
      const miss = await get(`/v1/scans/vuln/${id}/export`);
      expect(miss.statusCode).toBe(404);
      if (hasPdcpOpenApi()) assertPdcpAnswer('GET', `/v1/scans/vuln/${id}/export`, 404, miss.json());
    }
  });

  it('async=true answers 201 {export_id}; the job builds the same file the sync answer streams', async () => {
    for (const type of ['csv', 'sarif'] as const) {
      const res = await post(`/v1/scans/${scanA}/export?type=${type}&async=true`, { severity: ['low', 'info'] });
      expect(res.statusCode, res.body).toBe(201);
      if (hasPdcpOpenApi()) assertPdcpAnswer('POST', `/v1/scans/${scanA}/export`, 201, res.json());
      const id = res.json().export_id;
      const ready = await waitFor(async () => {
        const s = (await get(`/v1/export/${id}`)).json();
        return s.status === 'ready' && s;
      }, 30_000);
      expect(ready.row_count).toBe(3);
      const file = await t.request({ method: 'GET', url: new URL(ready.url).pathname, key: null });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toContain(`scan-${scanA}.${type}`);
      const sync = await post(`/v1/scans/${scanA}/export?type=${type}`, { severity: ['low', 'info'] });
      if (type === 'csv') expect(file.body).toBe(sync.body);
      else expect(file.json().runs[0].results).toEqual(sync.json().runs[0].results);
    }
    const all = await post('/v1/scans/results/export?async=true', {});
    expect(all.statusCode).toBe(201);
    if (hasPdcpOpenApi()) assertPdcpAnswer('POST', '/v1/scans/results/export', 201, all.json());
    const st = await waitFor(async () => {
      const s = (await get(`/v1/export/${all.json().export_id}`)).json();
      return s.status === 'ready' && s;
    }, 30_000);
    expect(st).toMatchObject({ scan_id: '', row_count: N + 4, format: 'json' });
  });

  it("another scan's id or an unknown scan is a 404", async () => {
    const res = await get('/v1/scans/nosuchscan/export');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ param: 'scan_id' });
  });
});
