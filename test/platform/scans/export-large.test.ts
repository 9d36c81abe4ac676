// A scan log larger than one read batch and one stored part: every record is exported once, in order,
// by the streaming sync download and by the async job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/queue.ts';
import { createScanApp, MARKER_TEMPLATE, type ScanTestApp } from './fixtures.ts';

const ROWS = 2_600;

describe.each(dbKinds())('large scan log export on %s', (kind) => {
  let t: ScanTestApp;
  let scanId: string;

  beforeAll(async () => {
    t = await createScanApp(kind);
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['http://127.0.0.1:9'],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        schedule_only: true,
      },
    });
    scanId = res.json().id;
    // Records straight in SQL: what is tested is the export, not the scan.
    await t.ctx.db.query(
      `INSERT INTO scan_logs (scan_id, team_id, run, target, template_id, matched, severity, error, created_at)
       SELECT $1, $2, 0, 'http://h' || g || '.test', 'tpl-' || (g % 7), g % 5 = 0, 'high',
              CASE WHEN g % 3 = 0 THEN 'timeout, "slow" ' || repeat('x', 700) END, now() + make_interval(secs => g)
       FROM generate_series(1, $3::int) AS g`,
      [scanId, t.owner.teamId, ROWS],
    );
  });
  afterAll(() => t?.close());

  const fetchFile = async (url: string) => {
    const u = new URL(url);
    const res = await t.request({ method: 'GET', url: u.pathname, key: null });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('streams every record once, in order, as json and csv', async () => {
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=json` })).json()
      .url;
    const records = JSON.parse(await fetchFile(link));
    expect(records).toHaveLength(ROWS);
    expect(records.map((r: any) => r.target)).toEqual(Array.from({ length: ROWS }, (_, i) => `http://h${i + 1}.test`));

    const csvLink = (
      await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=csv&severity=error` })
    ).json().url;
    const csv = await fetchFile(csvLink);
    // Error cells hold commas and quotes: quoted, with doubled quotes.
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(1 + Math.floor(ROWS / 3));
    expect(lines[1]).toContain('"timeout, ""slow"" xxx');
  });

  it('builds the same file in several stored parts with an async export', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=csv&async=true` });
    expect(res.statusCode).toBe(201);
    const id = res.json().export_id;
    const ready = await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/export/${id}` })).json();
      return s.status === 'ready' && s;
    }, 60_000);
    expect(ready.row_count).toBe(ROWS);
    const parts = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scan_export_parts WHERE export_id = $1',
      [id],
    );
    expect(parts.rows[0]!.n).toBeGreaterThan(1);
    const syncLink = (await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=csv` })).json()
      .url;
    expect(await fetchFile(ready.url)).toBe(await fetchFile(syncLink));
  });
});
