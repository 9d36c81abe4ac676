// A new finding takes the team's triage of the same finding (same hash) in other scans: the status and
// labels of the latest changed copy that is triaged or labelled. Since migration 036 that look-up reads
// scan_result_triaged (only such copies, kept by statement triggers) instead of every earlier copy. Here
// the table is checked against its definition after every kind of write (imports, status changes by ids
// and by filter, labels set and cleared, deletes of findings and of a scan), and each new scan's findings
// are checked against the look-up as it was before 036: the latest triaged copy, read from scan_results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';

/** nuclei JSON lines: the same 12 findings (4 hosts x 3 templates) every time. */
function lines(): string {
  let out = '';
  for (let i = 0; i < 12; i++) {
    const host = `http://c${i % 4}.example.com`;
    out +=
      JSON.stringify({
        'template-id': `carry-${i % 3}`,
        info: { name: `Carry ${i % 3}`, severity: 'high' },
        type: 'http',
        host,
        'matched-at': `${host}/x`,
        'matcher-status': true,
      }) + '\n';
  }
  return out;
}

describe.each(dbKinds())('the triage a new finding takes from earlier scans on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t.close());

  type Row = { vuln_id: string; vuln_hash: string; vuln_status: string; labels: string[] | null };
  const importScan = async (name: string) => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/scans/import?name=${name}`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const findings = async (scanId: string): Promise<Row[]> => {
    const { rows } = await t.ctx.db.query<Row>(
      `SELECT id::text AS vuln_id, vuln_hash, vuln_status, labels FROM scan_results WHERE scan_id = $1 ORDER BY id`,
      [scanId],
    );
    expect(rows).toHaveLength(12);
    return rows;
  };
  const patch = async (url: string, payload: object, method = 'PATCH') => {
    const res = await t.request({ method, url, payload });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** scan_result_triaged holds exactly the triaged or labelled findings, with their team and hash. */
  const expectTableExact = async () => {
    const { rows } = await t.ctx.db.query<{ n: number; total: number }>(
      `SELECT count(*) FILTER (WHERE r.id IS NULL OR c.result_id IS NULL OR r.team_id <> c.team_id
                                 OR r.vuln_hash <> c.vuln_hash)::int AS n, count(*)::int AS total
         FROM (SELECT * FROM scan_results
                WHERE vuln_status IN ('false_positive', 'accepted_risk', 'duplicate', 'triaged', 'fix_in_progress')
                   OR labels <> '{}') r
         FULL JOIN scan_result_triaged c ON c.result_id = r.id`,
    );
    expect(rows[0]!.n).toBe(0);
    return rows[0]!.total;
  };

  /** What each hash takes, by the look-up of before 036: every copy read from scan_results. */
  const expectedCarry = async () => {
    const { rows } = await t.ctx.db.query<{ vuln_hash: string; vuln_status: string; labels: string[] }>(
      `SELECT DISTINCT ON (vuln_hash) vuln_hash,
              CASE WHEN vuln_status IN ('false_positive', 'accepted_risk', 'duplicate', 'triaged', 'fix_in_progress')
                   THEN vuln_status ELSE 'open' END AS vuln_status, labels
         FROM scan_results
        WHERE vuln_status IN ('false_positive', 'accepted_risk', 'duplicate', 'triaged', 'fix_in_progress') OR labels <> '{}'
        ORDER BY vuln_hash, updated_at DESC, id DESC`,
    );
    return new Map(rows.map((r) => [r.vuln_hash, r]));
  };
  const expectNewScanTakes = async (name: string) => {
    const want = await expectedCarry();
    const rows = await findings(await importScan(name));
    for (const r of rows) {
      const w = want.get(r.vuln_hash);
      expect({ status: r.vuln_status, labels: r.labels ?? [] }, r.vuln_hash).toEqual({
        status: w?.vuln_status ?? 'open',
        labels: w?.labels ?? [],
      });
    }
    return rows;
  };

  it('is exact through every kind of write, and new scans take what the full look-up takes', async () => {
    const a = await findings(await importScan('a'));
    expect(await expectTableExact()).toBe(0);
    const b = await expectNewScanTakes('b');
    expect(b.every((r) => r.vuln_status === 'open')).toBe(true);

    // Statuses by ids and by filter, on different copies; fixed and open are not carried.
    await patch('/v1/scans/vulns', { vuln_ids: [a[0]!.vuln_id, a[1]!.vuln_id], vuln_status: 'false_positive' });
    await patch('/v1/scans/vulns', { vuln_ids: [b[1]!.vuln_id], vuln_status: 'accepted_risk' });
    await patch('/v1/scans/vulns', { vuln_ids: [a[2]!.vuln_id], vuln_status: 'fixed' });
    await patch('/v1/scans/vulns', { host: ['http://c3.example.com'], vuln_status: 'triaged' });
    expect(await expectTableExact()).toBeGreaterThan(3);
    // Labels alone carry; cleared labels no longer do.
    await patch('/v1/scans/vulns/labels', { ids: [a[4]!.vuln_id, b[5]!.vuln_id], labels: ['wontfix'] });
    await patch('/v1/scans/vulns/labels', { ids: [b[5]!.vuln_id], labels: [] });
    // A copy set back to open while another stays triaged.
    await patch('/v1/scans/vulns', { vuln_ids: [a[1]!.vuln_id], vuln_status: 'open' });
    await expectTableExact();
    const c = await expectNewScanTakes('c');
    expect(c.filter((r) => r.vuln_status !== 'open').length).toBeGreaterThan(2);
    expect(c.some((r) => (r.labels ?? []).includes('wontfix'))).toBe(true);

    // The same lines into scan a again: an upsert of its rows (the update trigger), not new ones.
    const again = await t.request({
      method: 'PATCH',
      url: `/v1/scans/${await scanOf(a[0]!.vuln_id)}/import`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(),
    });
    expect(again.statusCode, again.body).toBe(200);
    await expectTableExact();
    // Deleting findings, and a whole scan, takes their rows out.
    await patch('/v1/scans/vulns', { ids: [a[0]!.vuln_id, a[4]!.vuln_id] }, 'DELETE');
    await expectTableExact();
    const del = await t.request({ method: 'DELETE', url: `/v1/scans/${await scanOf(c[0]!.vuln_id)}` });
    expect(del.statusCode, del.body).toBe(200);
    await expectTableExact();
    await expectNewScanTakes('d');
    await expectTableExact();
  });

  const scanOf = async (vulnId: string) =>
    (await t.ctx.db.query<{ scan_id: string }>('SELECT scan_id FROM scan_results WHERE id = $1::bigint', [vulnId]))
      .rows[0]!.scan_id;
});
