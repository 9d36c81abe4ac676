// GET /v1/scans/results: text search (a trigram index per searched field, asked as an OR),
// the filters that have their own indexes since migration 026, and paging deep into the list (ids from an
// index-only scan, the rank only when sorting by severity): the same answers as reading every row.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { resultWhere } from '../../../src/platform/scans/result-filter.ts';

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'];

/** nuclei JSON lines: 30 hosts x 12 templates, one with a name holding LIKE's special characters. */
function lines(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    const host = `http://h${i % 30}.example.com:8080`;
    const t = i % 12;
    out +=
      JSON.stringify({
        'template-id': `tpl-${t}`,
        'template-path': `http/x/tpl-${t}.yaml`,
        info: {
          name: t === 11 ? 'Odd 100%_done' : `Finding Name ${t}`,
          severity: SEVERITIES[t % 5],
          tags: [`tag${t % 3}`],
        },
        type: 'http',
        host,
        'matched-at': `${host}/p/${i}`,
        port: '8080',
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        'matcher-status': true,
      }) + '\n';
  }
  return out;
}

describe.each(dbKinds())('findings list search and paging on %s', (kind) => {
  let t: TestApp;
  const N = 360;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=search',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(N),
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 120_000);
  afterAll(() => t.close());

  const list = async (q: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/results?${q}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total_results: number; data: { vuln_id: string; severity: string; template_id: string }[] };
  };

  it('finds a word in each searched field, in any letter case', async () => {
    expect((await list('search=TPL-7&limit=1')).total_results).toBe(30); // template id
    expect((await list('search=finding%20name%203&limit=1')).total_results).toBe(30); // name
    expect((await list('search=h7.example.com&limit=1')).total_results).toBe(12); // host
    expect((await list('search=/p/123&limit=1')).total_results).toBe(1); // matched-at
    expect((await list('search=no-such-thing&limit=1')).total_results).toBe(0);
  });

  it('never matches across two fields, and % and _ are plain characters', async () => {
    // "tpl-1 Finding" occurs only where the template id would meet the name if the fields were joined.
    expect((await list('search=tpl-1%20Finding&limit=1')).total_results).toBe(0);
    expect((await list(`search=${encodeURIComponent('100%_done')}&limit=1`)).total_results).toBe(30);
    expect((await list(`search=${encodeURIComponent('100%')}&limit=1`)).total_results).toBe(30);
    expect((await list(`search=${encodeURIComponent('1_0')}&limit=1`)).total_results).toBe(0);
  });

  it("answers the text search from the four fields' own trigram indexes (031)", async () => {
    // The filter's own condition, its team test replaced by one no index answers (one team's 360 rows are
    // cheaper to read from the team's index) and sequential scans priced out: the plan must be able to use
    // each field's index, so a change to the condition or to an index that breaks the match shows here.
    const where = resultWhere(t.owner.teamId, { search: 'tpl-7' });
    const sql = where.sql.replace('r.team_id = $1', 'r.team_id || $1 IS NOT NULL');
    expect(sql).not.toBe(where.sql);
    const plan = await t.ctx.db.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<Record<string, string>>(
        `EXPLAIN SELECT count(*) FROM scan_results r WHERE ${sql}`,
        where.params,
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    for (const index of ['template_id', 'name', 'host', 'matched_at'])
      expect(plan).toContain(`Bitmap Index Scan on scan_results_${index}_trgm`);
  });

  it('filters by tags, severity, host or matched-at, template id or path', async () => {
    expect((await list('tags=tag1&limit=1')).total_results).toBe(120);
    expect((await list('severity=high&limit=1')).total_results).toBe(60);
    expect((await list('host=http://h3.example.com:8080&limit=1')).total_results).toBe(12);
    expect((await list(`host=${encodeURIComponent('http://h3.example.com:8080/p/3')}&limit=1`)).total_results).toBe(1);
    expect((await list('templates=tpl-4&limit=1')).total_results).toBe(30);
    expect((await list('templates=http/x/tpl-4.yaml&limit=1')).total_results).toBe(30);
  });

  it('pages deep into the list in the same order as one long page, also sorted by severity', async () => {
    for (const sort of ['sort_desc=created_at', 'sort_desc=severity', 'sort_asc=severity']) {
      const all = (await list(`${sort}&limit=${N}`)).data.map((r) => r.vuln_id);
      expect(all).toHaveLength(N);
      const paged: string[] = [];
      for (let offset = 0; offset < N; offset += 50)
        paged.push(...(await list(`${sort}&limit=50&offset=${offset}`)).data.map((r) => r.vuln_id));
      expect(paged).toEqual(all);
    }
    const bySeverity = (await list('sort_desc=severity&limit=100&offset=50')).data.map((r) => r.severity);
    const rank = (s: string) => SEVERITIES.indexOf(s);
    for (let i = 1; i < bySeverity.length; i++)
      expect(rank(bySeverity[i - 1]!)).toBeGreaterThanOrEqual(rank(bySeverity[i]!));
  });

  it('keeps a finding whose matched-at is far longer than an index entry may be, and finds it by it', async () => {
    // Random bytes do not compress: 3.5 kB (the list's filter takes up to 4,096 characters) is past a B-tree entry's 2.7 kB (a 500 before the hash indexes).
    const matchedAt = 'http://long.example.com/?q=' + randomBytes(2_600).toString('base64url');
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=long',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: JSON.stringify({ 'template-id': 'tpl-long', host: 'http://long.example.com', 'matched-at': matchedAt }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const found = await list(`host=${encodeURIComponent(matchedAt)}&limit=5`);
    expect(found.data.map((r) => r.template_id)).toEqual(['tpl-long']);
  });
});

// A large import measures the findings table at once (VACUUM (ANALYZE), store.refreshResultStats) instead of
// leaving the list to plan without statistics and to count through every row until autovacuum comes by.
describe.each(dbKinds())('findings table measured after a large import on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t.close());

  const measured = async () => {
    const { rows } = await t.ctx.db.query<{ n: number; visible: number }>(
      `SELECT reltuples::float8 AS n, relallvisible::int AS visible FROM pg_class WHERE oid = to_regclass('scan_results')`,
    );
    return { n: Number(rows[0]!.n), visible: Number(rows[0]!.visible) };
  };
  const importLines = async (payload: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=measured',
      headers: { 'content-type': 'application/x-ndjson' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('measures the table after an import of 1,000 findings or more, not after a small one', async () => {
    await importLines(lines(20));
    expect((await measured()).n).toBeLessThan(20); // never measured (-1), or 0 from the empty table
    await importLines(lines(1200));
    const after = await measured();
    expect(after.n).toBe(1220);
    expect(after.visible).toBeGreaterThan(0); // pages marked all-visible: counts can be index-only
    await importLines(lines(30)); // under a tenth of the table: left to autovacuum
    expect((await measured()).n).toBe(1220);
    const res = await t.request({ method: 'GET', url: '/v1/scans/results?limit=1&search=tpl-7' });
    expect(res.json().total_results).toBe(100 + 2 + 2);
  }, 120_000);
});
