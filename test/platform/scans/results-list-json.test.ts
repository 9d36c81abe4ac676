// GET /v1/scans/results is written as JSON text with each finding's event spliced in as PostgreSQL's text of
// it (results.ts listResultsJson), not parsed and serialized again: the answer must stay valid JSON, each
// event equal to the stored one (awkward characters included), every other field as its schema says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';

const AWKWARD = 'quote " backslash \\ newline \n tab \t control \u0001 unicode é ✓ 𝄞 </script> \u2028';

function lines(): string {
  const out: object[] = [];
  for (let i = 0; i < 25; i++)
    out.push({
      'template-id': `lj-${i % 5}`,
      'template-path': `http/lj-${i % 5}.yaml`,
      info: {
        name: `List JSON ${i}`,
        severity: ['info', 'low', 'medium', 'high', 'critical'][i % 5],
        tags: ['a', 'b'],
        description: i % 2 ? AWKWARD : undefined,
        reference: i % 3 ? ['https://example.com/a', 'https://example.com/b'] : undefined,
        remediation: i === 4 ? 'upgrade' : undefined,
      },
      type: 'http',
      host: `http://lj${i}.example.com`,
      'matched-at': `http://lj${i}.example.com/x?q=${encodeURIComponent(AWKWARD)}`,
      'extracted-results': [AWKWARD, `value ${i}`],
      'curl-command': `curl -H 'X: "${i}"' http://lj${i}.example.com`,
      meta: { nested: { deep: [1, 2.5, -3e-7, true, null, { k: AWKWARD }] } },
      request: `GET /x HTTP/1.1\r\nHost: lj${i}\r\n\r\n`,
      response: `HTTP/1.1 200 OK\r\n\r\n${AWKWARD}`,
      'matcher-status': true,
    });
  return out.map((o) => JSON.stringify(o)).join('\n') + '\n';
}

describe.each(dbKinds())('the results list as spliced JSON on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=list-json',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines(),
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 120_000);
  afterAll(() => t.close());

  it("answers valid JSON whose events equal the stored ones and whose fields follow the finding's", async () => {
    const res = await t.request({ method: 'GET', url: '/v1/scans/results?limit=20&offset=2&sort_desc=created_at' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body) as {
      message: string;
      current_page: number;
      result_count: number;
      total_results: number;
      total_pages: number;
      stats: { total: number };
      data: Record<string, unknown>[];
    };
    expect(body).toMatchObject({
      message: 'ok',
      current_page: 1,
      result_count: 20,
      total_results: 25,
      total_pages: 2,
      stats: { total: 25 },
    });
    const { rows } = await t.ctx.db.query<{ id: number; event: Record<string, any>; created_at: Date }>(
      'SELECT id, event, created_at FROM scan_results ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 2',
    );
    expect(body.data.map((d) => d.vuln_id)).toEqual(rows.map((r) => String(r.id)));
    rows.forEach((r, i) => {
      const item = body.data[i]!;
      expect(item.event).toEqual([r.event]);
      const info = r.event.info as Record<string, unknown>;
      // The fields the list takes from the event's info are those of the stored event.
      expect(item.description).toBe(info.description);
      expect(item.reference).toEqual(info.reference);
      expect(item.remediation).toBe(info.remediation);
      expect(item.created_at).toBe(new Date(r.created_at).toISOString());
    });
    expect(body.data.some((d) => d.description === AWKWARD)).toBe(true);
    expect(body.data.find((d) => d.description === undefined)).not.toHaveProperty('description');
    if (hasPdcpOpenApi()) assertPdcpAnswer('GET', '/v1/scans/results', 200, body);
  });

  it('gives the same findings as the single-finding route, and an empty page as valid JSON', async () => {
    const page = JSON.parse(
      (await t.request({ method: 'GET', url: '/v1/scans/results?limit=5&severity=high' })).body,
    ) as { data: Record<string, unknown>[] };
    expect(page.data).toHaveLength(5);
    for (const item of page.data) {
      const one = (await t.request({ method: 'GET', url: `/v1/scans/results/${item.vuln_id as string}` })).json();
      expect(item).toEqual(one);
    }
    const empty = await t.request({ method: 'GET', url: '/v1/scans/results?search=no-such-finding' });
    expect(JSON.parse(empty.body)).toEqual({
      message: 'ok',
      current_page: 1,
      result_count: 0,
      total_results: 0,
      total_pages: 0,
      data: [],
      stats: { total: 0 },
    });
    const bad = await t.request({ method: 'GET', url: '/v1/scans/results?severity=huge' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ param: 'severity' });
  });
});
