// Finding statuses since migration 032: no index of scan_results reads what a status change writes (so the
// change is a HOT update that leaves the table's sixteen indexes alone), and the status filter takes its ids
// from scan_result_statuses, which statement triggers keep equal to the findings' own status through every
// kind of write: imports (insert and upsert), status changes by ids and by filter, deletes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'];

/** nuclei JSON lines: 10 hosts x 6 templates. */
function lines(from: number, count: number): string {
  let out = '';
  for (let i = from; i < from + count; i++) {
    const host = `http://s${i % 10}.example.com`;
    const t = i % 6;
    out +=
      JSON.stringify({
        'template-id': `st-${t}`,
        info: { name: `Status ${t}`, severity: SEVERITIES[t % 5] },
        type: 'http',
        host,
        'matched-at': `${host}/p/${i}`,
        'matcher-status': true,
      }) + '\n';
  }
  return out;
}

describe.each(dbKinds())('finding statuses and the status filter on %s', (kind) => {
  let t: TestApp;
  let scanId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=statuses',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(0, 120),
    });
    expect(res.statusCode, res.body).toBe(200);
    scanId = res.json().id;
  }, 120_000);
  afterAll(() => t.close());

  type Row = { vuln_id: string; vuln_status: string; template_id: string; severity: string };
  const list = async (q: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/results?limit=1000&${q}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { total_results: number; data: Row[] };
    return { total: body.total_results, ids: body.data.map((r) => r.vuln_id).sort() };
  };
  const patch = async (payload: object) => {
    const res = await t.request({ method: 'PATCH', url: '/v1/scans/vulns', payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { message: string };
  };

  /** Every status filter (alone, several at once, with another filter) gives what reading each finding gives. */
  const expectFiltersAgree = async () => {
    const all = (await t.request({ method: 'GET', url: '/v1/scans/results?limit=1000' })).json().data as Row[];
    const want = (keep: (r: Row) => boolean) =>
      all
        .filter(keep)
        .map((r) => r.vuln_id)
        .sort();
    for (const st of ['open', 'fixed', 'triaged', 'accepted_risk', 'false_positive']) {
      const ids = want((r) => r.vuln_status === st);
      expect(await list(`vuln_status=${st}`), st).toEqual({ total: ids.length, ids });
      const high = want((r) => r.vuln_status === st && r.severity === 'high');
      expect(await list(`vuln_status=${st}&severity=high`), `${st} high`).toEqual({ total: high.length, ids: high });
    }
    const two = want((r) => r.vuln_status === 'open' || r.vuln_status === 'accepted_risk');
    expect(await list('vuln_status=open,accepted_risk')).toEqual({ total: two.length, ids: two });
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scan_results r FULL JOIN scan_result_statuses s ON s.result_id = r.id
        WHERE r.id IS NULL OR s.result_id IS NULL OR s.vuln_status <> r.vuln_status OR s.team_id <> r.team_id`,
    );
    expect(rows[0]!.n).toBe(0);
  };

  it('no index of the findings table reads a column a status change writes', async () => {
    // A column in any index (key, expression or predicate) makes PostgreSQL write a new entry into every
    // index for each changed row instead of updating the row in place (HOT).
    const { rows } = await t.ctx.db.query<{ index: string }>(
      `SELECT i.indexrelid::regclass::text AS index FROM pg_index i
        WHERE i.indrelid = 'scan_results'::regclass AND EXISTS (
          SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid
             AND a.attname IN ('vuln_status', 'is_regression', 'updated_at')
             AND (a.attnum = ANY(i.indkey::int2[])
                  OR pg_get_expr(i.indexprs, i.indrelid) LIKE '%' || a.attname || '%'
                  OR pg_get_expr(i.indpred, i.indrelid) LIKE '%' || a.attname || '%'))`,
    );
    expect(rows).toEqual([]);
  });

  it('a status change by filter writes one changelog row per finding with its actor, and one audit entry', async () => {
    const before = (await list('templates=st-2')).ids;
    expect(before).toHaveLength(20);
    expect(await patch({ template: ['st-2'], vuln_status: 'accepted_risk' })).toEqual({
      message: '20 findings set to accepted_risk',
    });
    // Findings that already have the status are left alone: no change, no changelog row.
    expect(await patch({ template: ['st-2'], vuln_status: 'accepted_risk' })).toEqual({
      message: '0 findings set to accepted_risk',
    });
    const logs = (await t.request({ method: 'GET', url: '/v1/scans/vuln/changelogs?limit=1000' })).json().data as {
      vuln_id: string;
      vuln_status: string;
      changed_by: string;
      source: string;
      event_type: string;
      change_event: unknown;
    }[];
    expect(logs.map((l) => l.vuln_id).sort()).toEqual(before);
    for (const l of logs)
      expect(l).toMatchObject({
        vuln_status: 'accepted_risk',
        changed_by: 'owner@localhost',
        source: 'api',
        event_type: 'vuln_status',
        change_event: [{ name: 'vuln_status', from: 'open', to: 'accepted_risk' }],
      });
    const audit = (await t.request({ method: 'GET', url: '/v1/team/audit_log' })).json().data as {
      action: string;
      email: string;
    }[];
    expect(audit.filter((a) => a.action === 'PATCH /v1/scans/vulns')).toHaveLength(2);
    expect(audit[0]).toMatchObject({ action: 'PATCH /v1/scans/vulns', email: 'owner@localhost' });
    await expectFiltersAgree();
  });

  it('the status filter agrees with every finding through status changes, re-imports and deletes', async () => {
    const some = (await list('templates=st-0')).ids.slice(0, 7);
    await patch({ vuln_ids: some, vuln_status: 'triaged' });
    await patch({ severity: ['high'], vuln_status: 'false_positive' });
    await patch({ host: ['http://s3.example.com'], vuln_status: 'fixed' });
    await expectFiltersAgree();
    // The same lines again (an upsert: the findings' rows are updated, not added) and 30 new ones.
    const res = await t.request({
      method: 'PATCH',
      url: `/v1/scans/${scanId}/import`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(90, 60),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list('')).total).toBe(150);
    await expectFiltersAgree();
    const del = await t.request({
      method: 'DELETE',
      url: '/v1/scans/vulns',
      payload: { vuln_status: ['fixed'], template: ['st-1'] },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((await list('vuln_status=fixed&templates=st-1')).total).toBe(0);
    await expectFiltersAgree();
    // A whole scan deleted: its findings go through the foreign key's cascade, and their statuses with them.
    const kept = (await list('')).total;
    const other = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=gone',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(500, 40),
    });
    expect(other.statusCode, other.body).toBe(200);
    await patch({ scan_id: other.json().id, vuln_status: 'triaged' });
    expect((await list('vuln_status=triaged')).total).toBeGreaterThanOrEqual(40);
    await expectFiltersAgree();
    const gone = await t.request({ method: 'DELETE', url: `/v1/scans/${other.json().id}` });
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await list('')).total).toBe(kept);
    await expectFiltersAgree();
    // Back to open, by filter: the statuses a person set are the findings' own again.
    await patch({ severity: ['high'], vuln_status: 'open' });
    expect((await list('vuln_status=false_positive')).total).toBe(0);
    await expectFiltersAgree();
  });
});
