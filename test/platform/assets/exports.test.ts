// Inventory exports (all enumerations, one, its input domains) and a scan's asset export: raw, JSON and CSV,
// filtered like the contents list, streamed page by page, with spreadsheet formulas neutralised in CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { dbKinds } from '../../helpers/db.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, type AssetTestApp } from './fixtures.ts';

describe.each(dbKinds())('asset exports on %s', (kind) => {
  let t: AssetTestApp;
  let evil: TestServer;
  let plain: TestServer;
  let enumId = '';
  const get = (url: string) => t.request({ method: 'GET', url });

  beforeAll(async () => {
    t = await createAssetApp(kind, { worker: false });
    // A page title an attacker controls, written as a spreadsheet formula.
    evil = await startHttpServer((_req, res) => res.end('<title>=HYPERLINK("http://x.test","a")</title>'), {
      host: '127.0.0.11',
    });
    plain = await startHttpServer((_req, res) => res.end('<title>Plain</title>'), { host: '127.0.0.12' });
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        root_domains: ['127.0.0.11', '127.0.0.12'],
        enumeration_ports: `${evil.port},${plain.port}`,
        steps: ['port_scan', 'http_probe'],
        enumeration_config: { technology_templates: [] },
      },
    });
    enumId = made.json().id;
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: 'j', name: ENUMERATE_JOB, data: { enumerationId: enumId, run: 1 }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([evil?.close(), plain?.close()]);
  });

  it('exports the inventory as JSON (contents records), raw lines and CSV, filtered', async () => {
    const json = await get('/v1/asset/enumerate/export');
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers['content-disposition']).toBe('attachment; filename="assets.json"');
    const records = json.json();
    expect(records.map((r: any) => r.title).sort()).toEqual(['=HYPERLINK("http://x.test","a")', 'Plain']);
    const contents = (await get('/v1/asset/enumerate/contents')).json().data;
    expect(records).toEqual(contents);

    const raw = await get(`/v1/asset/enumerate/${enumId}/export?format=raw&title=Plain`);
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toBe(`http://127.0.0.12:${plain.port}/\n`);

    const csv = await get(`/v1/asset/enumerate/${enumId}/export?format=csv`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    const bad = rows.find((r) => r.host === '127.0.0.11')!;
    // The formula is kept as text: a leading quote stops a spreadsheet from running it.
    expect(bad.title).toBe(`'=HYPERLINK("http://x.test","a")`);
    expect(rows.every((r) => !/^[=+\-@]/.test(Object.values(r).join('')))).toBe(true);
    expect(Object.keys(rows[0]!)).toContain('labels');

    const empty = await get(`/v1/asset/enumerate/export?labels=none-such`);
    expect(empty.body.trim()).toBe('[]');
    const domains = await get(`/v1/asset/enumerate/${enumId}/domains/export?format=csv`);
    expect(parse(domains.body, { columns: true })).toEqual([{ domain: '127.0.0.11' }, { domain: '127.0.0.12' }]);
    expect((await get(`/v1/asset/enumerate/${enumId}/domains/export?search=.12`)).json()).toEqual([
      { domain: '127.0.0.12' },
    ]);
  });

  it('streams an export larger than a page in id order, complete', async () => {
    const n = 2_345;
    await t.ctx.db.query(
      `INSERT INTO assets (team_id, enumeration_id, asset_key, host, first_seen_run, last_seen_run, last_changed_run)
       SELECT $1, $2, 'bulk-' || g, 'h' || g || '.bulk.test', 1, 1, 1 FROM generate_series(1, $3::int) g`,
      [t.owner.teamId, enumId, n],
    );
    const raw = await get(`/v1/asset/enumerate/${enumId}/export?format=raw&domain=bulk.test`);
    const lines = raw.body.trim().split('\n');
    expect(lines).toHaveLength(n);
    expect(new Set(lines).size).toBe(n);
    const json = (await get(`/v1/asset/enumerate/export?format=json&search=bulk.test`)).json();
    expect(json).toHaveLength(n);
    expect(json.map((r: any) => r.id)).toEqual([...json.map((r: any) => r.id)].sort((a: number, b: number) => a - b));
  });

  it("exports a scan's unique assets with their result counts", async () => {
    const created = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [
          `http://127.0.0.12:${plain.port}`,
          `http://127.0.0.11:${evil.port}`,
          `http://127.0.0.12:${plain.port}`,
        ],
        private_templates: [
          {
            name: 'x.yaml',
            contents:
              'id: x\ninfo: {name: x, severity: info, author: t}\nhttp:\n  - path: ["{{BaseURL}}/"]\n    matchers: [{type: word, words: [zzz]}]\n',
          },
        ],
        schedule_only: true,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    const json = (await get(`/v1/scans/${id}/asset/export`)).json();
    expect(json).toEqual([
      { asset: `http://127.0.0.12:${plain.port}`, host: '127.0.0.12', port: plain.port, total_results: 0 },
      { asset: `http://127.0.0.11:${evil.port}`, host: '127.0.0.11', port: evil.port, total_results: 0 },
    ]);
    const csv = await get(`/v1/scans/${id}/asset/export?format=csv&search=127.0.0.11`);
    expect(parse(csv.body, { columns: true })).toEqual([
      { asset: `http://127.0.0.11:${evil.port}`, host: '127.0.0.11', port: String(evil.port), total_results: '0' },
    ]);
    expect((await get(`/v1/scans/nope/asset/export`)).statusCode).toBe(404);
    expect((await get(`/v1/scans/${id}/asset/export?format=xml`)).statusCode).toBe(400);
  });
});
