// GET /v1/scans/results/{vuln_id}: one finding by its id (the console's deep link to a finding), with the
// list's rules: any role of the team may read it, other teams and unknown ids get the spec's 404 body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';

const line = (i: number) =>
  JSON.stringify({
    'template-id': `check-${i}`,
    info: { name: `Imported ${i}`, severity: i % 2 ? 'high' : 'low', tags: ['t'] },
    type: 'http',
    host: `https://h${i}.example.com`,
    'matched-at': `https://h${i}.example.com/p${i}`,
    timestamp: '2024-01-02T03:04:05Z',
    'matcher-status': true,
    request: `GET /p${i} HTTP/1.1`,
  });

describe.each(dbKinds())('one finding by id on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const payload = Array.from({ length: 5 }, (_, i) => line(i)).join('\n') + '\n';
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      payload,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t?.close());

  it.skipIf(!hasPdcpOpenApi())(
    "the list answers the hosted platform's schema: event is a list of events (VulnerabilityResults)",
    async () => {
      const list = (await t.request({ method: 'GET', url: '/v1/scans/results?limit=100' })).json();
      expect(assertPdcpAnswer('GET', '/v1/scans/results', 200, list)).toBe('/v1/scans/results');
      // The same answer with event as a bare object is refused by that schema: the check can fail.
      const asObject = { ...list, data: list.data.map((r: { event: unknown[] }) => ({ ...r, event: r.event[0] })) };
      expect(() => assertPdcpAnswer('GET', '/v1/scans/results', 200, asObject)).toThrow(/event must be array/);
      for (const r of list.data) expect(r.event).toHaveLength(1);
    },
  );

  it('answers the same record as the list, for every finding and to a Guest too', async () => {
    const list = (await t.request({ method: 'GET', url: '/v1/scans/results?limit=100' })).json();
    expect(list.data).toHaveLength(5);
    const guest = await t.addUser(`guest-${kind}@localhost`, 'guest');
    for (const item of list.data) {
      const one = await t.request({ method: 'GET', url: `/v1/scans/results/${item.vuln_id}`, key: guest.key });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toEqual(item);
    }
    const first = list.data.find((r: { template_id: string }) => r.template_id === 'check-3');
    expect(first.event).toHaveLength(1);
    expect(first.event[0].request).toBe('GET /p3 HTTP/1.1');
  });

  it("unknown ids, ids that are not numbers and other teams' findings are a 404 naming vuln_id", async () => {
    const list = (await t.request({ method: 'GET', url: '/v1/scans/results?limit=1' })).json();
    const id = list.data[0].vuln_id as string;
    const teamId = `rid-other-${kind}`;
    await authStore.insertTeam(t.ctx.db, teamId, 'Other');
    const u = await authStore.insertUser(t.ctx.db, `rid-other-${kind}@localhost`, teamId);
    await authStore.insertMember(t.ctx.db, teamId, u.id, 'OWNER', true);
    const other = await issueKey(t.ctx.db, u.id);
    const cases: [string, string | undefined][] = [
      [id, other],
      ['999999999', undefined],
      ['abc', undefined],
      ['0', undefined],
      ['99999999999999999999999', undefined],
      ['1;DROP', undefined],
    ];
    for (const [vid, key] of cases) {
      const res = await t.request({ method: 'GET', url: `/v1/scans/results/${encodeURIComponent(vid)}`, key });
      expect(res.statusCode, vid).toBe(404);
      expect(res.json()).toEqual({
        message: `finding ${vid} not found`,
        code: 'not_found',
        status: 404,
        param: 'vuln_id',
      });
    }
    // Without a key: 401, as the list.
    expect((await t.request({ method: 'GET', url: `/v1/scans/results/${id}`, key: null })).statusCode).toBe(401);
  });
});
