// Agents' security model: only a team's Owner and Admins register agents; an agent's credential opens
// nothing but the agent endpoints, and through them only its own leases; another team's agent sees none
// of this team's work; batches are stored once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';

describe('agents: credentials, roles and teams', () => {
  let t: TestApp;
  let team2: string;

  const register = async (name: string, opts: { key?: string; team?: string; tags?: string[] } = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/agents',
      key: opts.key,
      headers: opts.team ? { 'x-team-id': opts.team } : {},
      payload: { name, tags: opts.tags ?? [] },
    });
    return res;
  };
  const asAgent = (key: string, url: string, payload: unknown = {}) =>
    t.request({ method: 'POST', url, key: null, headers: { 'x-agent-key': key }, payload: payload as object });
  const scan = async (routing: Record<string, unknown>, team?: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      headers: team ? { 'x-team-id': team } : {},
      payload: {
        targets: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        ...routing,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  beforeAll(async () => {
    t = await createTestApp('pglite');
    team2 = (await t.request({ method: 'POST', url: '/v1/user/team', payload: { name: 'second' } })).json().team_id;
  });
  afterAll(async () => t?.close());

  it("a Member's or Viewer's key cannot register or remove an agent; an Admin's can", async () => {
    const member = await t.addUser('member-agents@example.com', 'MEMBER');
    const viewer = await t.addUser('viewer-agents@example.com', 'VIEWER');
    const admin = await t.addUser('admin-agents@example.com', 'ADMIN');
    expect((await register('m1', { key: member.key })).statusCode).toBe(403);
    expect((await register('v1', { key: viewer.key })).statusCode).toBe(403);
    const ok = await register('a1', { key: admin.key });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().key).toMatch(/^vga_/);
    const del = await t.request({ method: 'DELETE', url: `/v1/agents/${ok.json().agent.id}`, key: member.key });
    expect(del.statusCode).toBe(403);
    // Members see the list (without any credential).
    const list = await t.request({ method: 'GET', url: '/v1/agents', key: member.key });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(ok.json().key);
  });

  it("an agent's credential opens no other route, as X-API-Key or as X-Agent-Key", async () => {
    const key = (await register('locked')).json().key as string;
    const routes = t.app.routeTable.filter(
      (r) => !r.public && !r.url.startsWith('/v1/agents/me/') && !r.url.startsWith('/docs') && r.url !== '*',
    );
    expect(routes.length).toBeGreaterThan(50);
    const opened: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:([a-z_]+)/g, 'x');
      const payload = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method) ? {} : undefined;
      for (const headers of [{ 'x-api-key': key }, { 'x-agent-key': key }, { 'x-pdcp-key': key }]) {
        const res = await t.request({ method: r.method as 'GET', url, payload, key: null, headers });
        if (res.statusCode !== 401) opened.push(`${r.method} ${r.url} -> ${res.statusCode}`);
      }
    }
    expect(opened).toEqual([]);
    // ...and it works where it belongs.
    expect((await asAgent(key, '/v1/agents/me/heartbeat', {})).statusCode).toBe(200);
  }, 120_000);

  it('user keys, no key and made-up agent keys are refused by the agent endpoints', async () => {
    for (const path of ['heartbeat', 'lease', 'results', 'complete', 'release']) {
      const url = `/v1/agents/me/${path}`;
      expect((await t.request({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
      expect((await asAgent('vga_madeup', url)).statusCode).toBe(401);
      expect((await asAgent(t.owner.key, url)).statusCode).toBe(401);
    }
  });

  it("another team's agent sees none of this team's work, and cannot use its leases", async () => {
    const mine = (await register('mine', { tags: ['x'] })).json().key as string;
    const theirs = (await register('theirs', { team: team2, tags: ['x'] })).json().key as string;
    await asAgent(theirs, '/v1/agents/me/heartbeat');
    const id = await scan({ agent_tags: ['x'] });
    const none = await asAgent(theirs, '/v1/agents/me/lease', { wait: 0 });
    expect(none.json()).toEqual({ work: null });
    const got = await asAgent(mine, '/v1/agents/me/lease', { wait: 0 });
    const work = got.json().work;
    expect(work.scan_id).toBe(id);
    // Their agent holding the lease token still gets nothing in: 409 on results, complete; no release.
    const forged = await asAgent(theirs, '/v1/agents/me/results', {
      lease: work.lease,
      seq: 1,
      results: [{ 'template-id': 'forged', host: 'h', 'matched-at': 'h', info: { severity: 'high' } }],
      logs: [],
    });
    expect(forged.statusCode).toBe(409);
    expect((await asAgent(theirs, '/v1/agents/me/complete', { lease: work.lease, seq: 0 })).statusCode).toBe(409);
    expect((await asAgent(theirs, '/v1/agents/me/release', { lease: work.lease })).json()).toEqual({ released: false });
    const stored = await t.ctx.db.query('SELECT 1 FROM scan_results WHERE scan_id = $1', [id]);
    expect(stored.rowCount).toBe(0);
    // The team-2 agent's heartbeat cannot renew (or learn about) the other team's lease.
    const hb = await asAgent(theirs, '/v1/agents/me/heartbeat', { leases: [work.lease] });
    expect(hb.json().lost).toEqual([work.lease]);
    // Team 2's list does not show team 1's agents.
    const list = await t.request({ method: 'GET', url: '/v1/agents', headers: { 'x-team-id': team2 } });
    expect(list.json().agents.map((a: { name: string }) => a.name)).toEqual(['theirs']);
  });

  it('a result batch sent twice is stored once; a gap is refused; completion needs every batch', async () => {
    const key = (await register('batcher', { tags: ['batch'] })).json().key as string;
    await asAgent(key, '/v1/agents/me/heartbeat');
    const id = await scan({ agent_tags: ['batch'] });
    const work = (await asAgent(key, '/v1/agents/me/lease', { wait: 0 })).json().work;
    const ev = {
      'template-id': 'test-marker',
      host: 'http://127.0.0.1:9',
      'matched-at': 'http://127.0.0.1:9/a/vuln',
      info: { severity: 'high', name: 'm' },
    };
    const batch = {
      lease: work.lease,
      seq: 1,
      results: [ev],
      logs: [{ target: work.targets[0], template_id: 'test-marker', matched: true }],
    };
    expect((await asAgent(key, '/v1/agents/me/results', batch)).json()).toEqual({ stored: true });
    expect((await asAgent(key, '/v1/agents/me/results', batch)).json()).toEqual({ stored: false });
    expect((await asAgent(key, '/v1/agents/me/results', { ...batch, seq: 3 })).statusCode).toBe(409);
    expect((await asAgent(key, '/v1/agents/me/complete', { lease: work.lease, seq: 2 })).statusCode).toBe(400);
    const rows = await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scan_results WHERE scan_id = $1', [
      id,
    ]);
    expect(rows.rows[0]!.n).toBe(1);
    const logs = await t.ctx.db.query<{ n: number; hashed: number }>(
      'SELECT count(*)::int AS n, count(vuln_hash)::int AS hashed FROM scan_log_records WHERE scan_id = $1',
      [id],
    );
    expect(logs.rows[0]).toEqual({ n: 1, hashed: 1 });
    expect((await asAgent(key, '/v1/agents/me/complete', { lease: work.lease, seq: 1 })).statusCode).toBe(200);
  });

  it('removing an agent stops its key and fails the scans only it could run, saying so', async () => {
    const reg = (await register('doomed')).json();
    await asAgent(reg.key, '/v1/agents/me/heartbeat');
    const id = await scan({ agent_id: reg.agent.id });
    const del = await t.request({ method: 'DELETE', url: `/v1/agents/${reg.agent.id}` });
    expect(del.statusCode).toBe(200);
    expect((await asAgent(reg.key, '/v1/agents/me/heartbeat')).statusCode).toBe(401);
    const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(s.status).toBe('failed');
    expect(s.failure_reason).toContain('doomed');
  });

  it('re-registering an agent of the same name rotates its key; an offline pinned agent shows why the scan waits', async () => {
    const first = (await register('rotating')).json();
    const second = (await register('rotating')).json();
    expect(second.agent.id).toBe(first.agent.id);
    expect((await asAgent(first.key, '/v1/agents/me/heartbeat')).statusCode).toBe(401);
    // Never seen: offline. The scan waits, its status saying why.
    const id = await scan({ agent_id: 'rotating' });
    const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(s.status).toBe('queued');
    expect(s.failure_reason).toMatch(/waiting for an agent: rotating is offline/);
  });

  it('rejects tags and networks it does not understand', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/v1/agents',
      payload: { name: 'n', networks: ['10.0.0.0/33'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().param).toBe('networks');
    const tag = await t.request({ method: 'POST', url: '/v1/agents', payload: { name: 'n', tags: ['a b'] } });
    expect(tag.statusCode).toBe(400);
    const name = await t.request({ method: 'POST', url: '/v1/agents', payload: { name: '../etc' } });
    expect(name.statusCode).toBe(400);
  });
});
