// Imports read the body as a stream and store it in batches: bad lines are a 400 naming them and leave
// nothing behind, later chunks append to the uploaded scan (nuclei's uploader), and a large import does
// not stop the server from answering other requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/wait.ts';

const line = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    'template-id': `check-${i % 7}`,
    info: { name: 'Imported', severity: i % 2 ? 'high' : 'low', tags: ['t'] },
    type: 'http',
    host: `https://h${i % 50}.example.com`,
    'matched-at': `https://h${i % 50}.example.com/p${i}`,
    timestamp: '2024-01-02T03:04:05Z',
    'matcher-status': true,
    ...extra,
  });
const octet = { 'content-type': 'application/octet-stream' };

describe.each(dbKinds())('scan imports on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const scanCount = async () =>
    Number((await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scans')).rows[0]!.n);

  it('refuses lines the database cannot store, naming the line, and stores nothing', async () => {
    const before = await scanCount();
    const cases: [string, RegExp][] = [
      [line(1, { port: 99999999999 }), /line 2: port .* out of range/],
      [line(1, { port: -1 }), /line 2: port/],
      [line(1, { timestamp: '-271821-04-20T00:00:00Z' }), /line 2: timestamp/],
      [line(1, { timestamp: 'yesterday' }), /line 2: timestamp/],
      [line(1, { host: 'x\u0000y' }), /line 2 contains a NUL/],
      [line(1, { host: 'x\ud800y' }), /line 2 contains a NUL character or an unpaired surrogate/],
      ['[1,2]', /line 2 has no template-id/],
    ];
    for (const [bad, why] of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans/import',
        payload: `${line(0)}\n${bad}\n`,
        headers: octet,
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(why);
      expect(res.json().param).toBe('body');
    }
    // A bad line after several stored batches still leaves no scan behind.
    const many = Array.from({ length: 1200 }, (_, i) => line(i)).join('\n') + '\nnot json\n';
    const late = await t.request({ method: 'POST', url: '/v1/scans/import', payload: many, headers: octet });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toContain('line 1201');
    expect(await scanCount()).toBe(before);
    expect(
      Number((await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scan_results')).rows[0]!.n),
    ).toBe(0);
  });

  it("appends later chunks with PATCH /v1/scans/{id}/import, as nuclei's uploader does", async () => {
    const chunk = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => line(from + i)).join('\n') + '\n';
    const first = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=nuclei-run',
      payload: chunk(0, 30),
      headers: octet,
    });
    expect(first.statusCode, first.body).toBe(200);
    const id = first.json().id;
    for (const [a, b] of [
      [30, 60],
      [60, 90],
    ]) {
      const more = await t.request({
        method: 'PATCH',
        url: `/v1/scans/${id}/import`,
        payload: chunk(a!, b!),
        headers: octet,
      });
      expect(more.statusCode, more.body).toBe(200);
      expect(more.json()).toEqual({ id, message: 'imported 30 results' });
    }
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(scan).toMatchObject({
      name: 'nuclei-run',
      status: 'uploaded',
      total_result: 90,
      total_target: 50,
      total_template: 7,
    });
    expect(
      (await t.request({ method: 'PATCH', url: '/v1/scans/nope/import', payload: chunk(0, 1), headers: octet }))
        .statusCode,
    ).toBe(404);
    const viewer = await t.addUser(`viewer-${kind}@example.com`, 'viewer');
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `/v1/scans/${id}/import`,
          payload: chunk(0, 1),
          headers: octet,
          key: viewer.key,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('answers other requests while a large import is stored', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => line(i, { response: 'x'.repeat(400) })).join('\n');
    const scans = async () => (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scans')).rows[0]!.n;
    const scansBefore = await scans();
    let importDone = 0;
    const importing = t.request({ method: 'POST', url: '/v1/scans/import', payload: big, headers: octet }).then((r) => {
      importDone = Date.now();
      return r;
    });
    // The import is being stored: its scan row is written with its first batch of results.
    await waitFor(async () => importDone || (await scans()) > scansBefore, 60_000, 10);
    const health = await t.request({ method: 'GET', url: '/healthz', key: null });
    const healthAt = Date.now();
    expect(health.statusCode).toBe(200);
    const res = await importing;
    expect(res.statusCode, res.body).toBe(200);
    expect(healthAt).toBeLessThan(importDone); // answered while the import was still being stored
  }, 120_000);
});
