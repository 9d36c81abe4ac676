// Real processes: `vigil serve --no-worker` (so only agents run scans) on PostgreSQL and `vigil agent`
// processes on 127.0.0.1, against a slow HTTP target. Routing by tag, distribute, mirror (each agent's
// results with its agent_id), kill -9 of an agent mid-scan, a server restart mid-scan, and an agent of
// another team that sees none of this team's work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/wait.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('vigil agent processes against vigil serve --no-worker', () => {
  let t: TestApp;
  let target: TestServer;
  let serve: VigilProcess;
  let base: string;
  let team2: string;
  const agents: Record<string, VigilProcess> = {};
  const ids: Record<string, string> = {};
  let serveEnv: Record<string, string>;

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'x-api-key': t.owner.key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : {} };
  };

  const startAgent = async (name: string, tags: string, team?: string) => {
    const args = ['agent', '--server', base, '--key', t.owner.key, '--name', name, '--tags', tags];
    if (team) args.push('--team', team);
    const p = spawnVigil([...args, '--concurrency', '2']);
    agents[name] = p;
    const m = await p.waitFor(/agent \S+ \((agt_[0-9a-f]+)\) of team/, 120_000);
    ids[name] = m[1]!;
    await p.waitFor(/agent ready/);
    return p;
  };

  const scan = async (targets: string[], routing: Record<string, unknown>) => {
    const res = await api('POST', '/v1/scans', {
      targets,
      private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
      ...routing,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json.id as string;
  };

  const finished = (id: string, ms = 120_000) =>
    waitFor(
      async () => {
        const s = (await api('GET', `/v1/scans/${id}`)).json;
        return ['finished', 'failed'].includes(s.status) && s;
      },
      ms,
      300,
    );

  const byAgent = async (id: string) => {
    const { rows } = await t.ctx.db.query<{ agent_id: string | null; n: number; hosts: number }>(
      `SELECT agent_id, count(*)::int AS n, count(DISTINCT host)::int AS hosts FROM scan_results WHERE scan_id = $1
        GROUP BY agent_id ORDER BY agent_id`,
      [id],
    );
    return rows;
  };

  beforeAll(async () => {
    t = await createTestApp('postgres');
    target = await startHttpServer(async (req, res) => {
      await new Promise((r) => setTimeout(r, 150));
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
    serveEnv = {
      DATABASE_URL: url!,
      VIGIL_DB_SCHEMA: t.testDb.schema!,
      VIGIL_AGENT_LEASE_SECONDS: '6',
      VIGIL_SCAN_CHUNK_TARGETS: '3',
      VIGIL_SHUTDOWN_TIMEOUT: '2',
    };
    serve = spawnVigil(['serve', '--port', '0', '--no-worker'], serveEnv);
    base = await serve.listening(150_000);
    team2 = (await api('POST', '/v1/user/team', { name: 'other team' })).json.team_id;
    expect(team2).toBeTruthy();
    await Promise.all([startAgent('red-agent', 'red,lab'), startAgent('blue-agent', 'blue,lab')]);
    await startAgent('other-team-agent', 'red,blue,lab', team2);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(Object.values(agents).map((a) => a.kill('SIGKILL')));
    await serve?.kill('SIGKILL');
    await t?.close();
    await target?.close();
  });

  const targets = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${target.url}/${tag}${i}`);

  it('lists the agents online with their tags, version and last seen; the other team sees only its own', async () => {
    const list = (await api('GET', '/v1/agents')).json.agents as { name: string; online: boolean; tags: string[] }[];
    expect(list.map((a) => a.name).sort()).toEqual(['blue-agent', 'red-agent']);
    expect(list.every((a) => a.online)).toBe(true);
    expect(list.find((a) => a.name === 'red-agent')!.tags).toEqual(['red', 'lab']);
    const other = (await api('GET', '/v1/agents', undefined, { 'x-team-id': team2 })).json.agents;
    expect(other.map((a: { name: string }) => a.name)).toEqual(['other-team-agent']);
  });

  it('a scan by tag runs only on the agent having the tag', async () => {
    const id = await scan(targets(6, 'tag'), { agent_tags: ['blue'] });
    expect(await finished(id)).toMatchObject({ status: 'finished', total_result: 6 });
    expect(await byAgent(id)).toEqual([{ agent_id: ids['blue-agent'], n: 6, hosts: 6 }]);
  });

  it('distribute splits the targets across the matching agents; logs carry agent_id', async () => {
    const id = await scan(targets(24, 'dist'), { agent_tags: ['lab'], agent_behavior: 'distribute' });
    expect(await finished(id)).toMatchObject({ status: 'finished', total_result: 24 });
    const rows = await byAgent(id);
    expect(rows.map((r) => r.agent_id).sort()).toEqual([ids['blue-agent'], ids['red-agent']].sort());
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(24);
    const logs = await t.ctx.db.query<{ n: number; agents: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT agent_id)::int AS agents FROM scan_log_records WHERE scan_id = $1 AND agent_id IS NOT NULL',
      [id],
    );
    expect(logs.rows[0]).toEqual({ n: 24, agents: 2 });
  });

  it('mirror runs the whole scan on each matching agent, each result with its agent_id', async () => {
    const id = await scan(targets(6, 'mirror'), { agent_tags: ['lab'], agent_behavior: 'mirror' });
    expect((await finished(id)).status).toBe('finished');
    const rows = await byAgent(id);
    expect(rows).toEqual(
      [
        { agent_id: ids['blue-agent'], n: 6, hosts: 6 },
        { agent_id: ids['red-agent'], n: 6, hosts: 6 },
      ].sort((a, b) => a.agent_id!.localeCompare(b.agent_id!)),
    );
    // The API shows which agent found each copy.
    const listed = (await api('GET', `/v1/scans/results?scan_id=${id}&limit=100`)).json.data as { agent_id?: string }[];
    expect(listed).toHaveLength(12);
    expect(new Set(listed.map((r) => r.agent_id))).toEqual(new Set([ids['blue-agent'], ids['red-agent']]));
  });

  it('a scan addressed to an agent that does not exist says so in its status', async () => {
    const id = await scan(targets(2, 'none'), { agent_id: 'no-such-agent' });
    const s = await finished(id, 20_000);
    expect(s.status).toBe('failed');
    expect(s.failure_reason).toMatch(/no agent of this team matches.*agent_id no-such-agent/);
  });

  it('kill -9 of one agent mid-scan loses and doubles nothing: the other agent finishes', async () => {
    const N = 36;
    const id = await scan(targets(N, 'kill'), { agent_tags: ['lab'] });
    const victim = agents['red-agent']!;
    await waitFor(
      async () => {
        const { rows } = await t.ctx.db.query(
          `SELECT 1 FROM scan_chunks WHERE scan_id = $1 AND status = 'running' AND agent_id = $2`,
          [id, ids['red-agent']],
        );
        return rows.length > 0;
      },
      60_000,
      50,
    );
    victim.proc.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    expect(await finished(id, 150_000)).toMatchObject({ status: 'finished', total_result: N });
    const r = await t.ctx.db.query<{ n: number; hashes: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT vuln_hash)::int AS hashes FROM scan_results WHERE scan_id = $1',
      [id],
    );
    expect(r.rows[0]).toEqual({ n: N, hashes: N });
    const logs = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM scan_log_records WHERE scan_id = $1',
      [id],
    );
    expect(logs.rows[0]!.n).toBe(N);
    const retried = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scan_chunks WHERE scan_id = $1 AND attempts > 1 AND agent_id = $2`,
      [id, ids['blue-agent']],
    );
    expect(retried.rows[0]!.n).toBeGreaterThan(0);
  }, 240_000);

  it('a server restart mid-scan loses nothing: the agent reconnects and the scan finishes', async () => {
    const N = 30;
    const id = await scan(targets(N, 'restart'), { agent_tags: ['lab'] });
    await waitFor(
      async () => {
        const { rows } = await t.ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM scan_log_records WHERE scan_id = $1',
          [id],
        );
        return rows[0]!.n > 0;
      },
      60_000,
      50,
    );
    const port = new URL(base).port;
    await serve.kill('SIGKILL');
    serve = spawnVigil(['serve', '--port', port, '--no-worker'], serveEnv);
    await serve.listening(150_000);
    expect(await finished(id, 150_000)).toMatchObject({ status: 'finished', total_result: N });
    const r = await t.ctx.db.query<{ n: number; hashes: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT vuln_hash)::int AS hashes FROM scan_results WHERE scan_id = $1',
      [id],
    );
    expect(r.rows[0]).toEqual({ n: N, hashes: N });
  }, 240_000);

  it("the other team's agent never ran a chunk of this team", async () => {
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scan_chunks c JOIN scans s ON s.id = c.scan_id
        WHERE c.agent_id = $1 OR $1 = ANY(c.agent_ids)`,
      [ids['other-team-agent']],
    );
    expect(rows[0]!.n).toBe(0);
    expect(agents['other-team-agent']!.stderr + agents['other-team-agent']!.stdout).not.toMatch(/chunk \d+ of scan/);
  });
});
