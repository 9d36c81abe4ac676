// Agents say in their heartbeat whether they found Chromium; a scan with headless templates goes only to
// the matching agents that did (they alone lease its chunks), and to all of them with a scan-log line
// when none did. Real API, real leasing, PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';
import { AGENT_NO_BROWSER_NOTICE } from '../../../src/platform/scans/dispatch.ts';
import { startAgent } from '../../../src/cli/agent/run.ts';

const HEADLESS_TEMPLATE = `id: test-headless
info:
  name: Headless page
  author: vigil
  severity: info
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}" }
    matchers:
      - type: word
        words: ["x"]
`;

describe('headless templates go to agents with Chromium', () => {
  let t: TestApp;
  const agents: Record<string, { id: string; key: string }> = {};

  const asAgent = (name: string, url: string, payload: object = {}) =>
    t.request({ method: 'POST', url, key: null, headers: { 'x-agent-key': agents[name]!.key }, payload });
  const scan = async (templates: string[]) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'],
        private_templates: templates.map((contents, i) => ({ name: `t${i}.yaml`, contents })),
        agent_tags: ['hl'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const chunks = await t.ctx.db.query<{ agent_ids: string[] }>(
      'SELECT agent_ids FROM scan_chunks WHERE scan_id = $1 ORDER BY idx',
      [id],
    );
    const notes = await t.ctx.db.query<{ error: string }>(
      `SELECT error FROM scan_log_records WHERE scan_id = $1 AND template_id = 'headless'`,
      [id],
    );
    return {
      id,
      routes: [...new Set(chunks.rows.map((r) => [...r.agent_ids].sort().join(',')))],
      notes: notes.rows.map((r) => r.error),
    };
  };
  const cancel = (id: string) => t.request({ method: 'DELETE', url: `/v1/scans/${id}` });

  beforeAll(async () => {
    t = await createTestApp('pglite');
    for (const name of ['with-chromium', 'without']) {
      const res = await t.request({ method: 'POST', url: '/v1/agents', payload: { name, tags: ['hl'] } });
      expect(res.statusCode, res.body).toBe(200);
      agents[name] = { id: res.json().agent.id, key: res.json().key };
    }
    expect((await asAgent('with-chromium', '/v1/agents/me/heartbeat', { headless: true })).statusCode).toBe(200);
    expect((await asAgent('without', '/v1/agents/me/heartbeat', { headless: false })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('the agent list shows what each agent said', async () => {
    const list = (await t.request({ method: 'GET', url: '/v1/agents' })).json().agents as {
      name: string;
      headless: boolean;
    }[];
    expect(Object.fromEntries(list.map((a) => [a.name, a.headless]))).toEqual({
      'with-chromium': true,
      without: false,
    });
  });

  it('routes a scan with a headless template only to the agent that has Chromium', async () => {
    const s = await scan([MARKER_TEMPLATE, HEADLESS_TEMPLATE]);
    expect(s.routes).toEqual([agents['with-chromium']!.id]);
    expect(s.notes).toEqual([]);
    // Only that agent leases its chunks.
    const none = await asAgent('without', '/v1/agents/me/lease', {});
    expect(none.json().work).toBeNull();
    const work = await asAgent('with-chromium', '/v1/agents/me/lease', {});
    expect(work.json().work.scan_id).toBe(s.id);
    await cancel(s.id);
  });

  it('routes a scan without headless templates to every matching agent', async () => {
    const s = await scan([MARKER_TEMPLATE]);
    expect(s.routes).toEqual([[agents['with-chromium']!.id, agents.without!.id].sort().join(',')]);
    expect(s.notes).toEqual([]);
    await cancel(s.id);
  });

  it('with no matching agent that has Chromium, every one gets the chunks and the scan log says so', async () => {
    expect((await asAgent('with-chromium', '/v1/agents/me/heartbeat', { headless: false })).statusCode).toBe(200);
    const s = await scan([MARKER_TEMPLATE, HEADLESS_TEMPLATE]);
    expect(s.routes).toEqual([[agents['with-chromium']!.id, agents.without!.id].sort().join(',')]);
    expect(s.notes).toEqual([AGENT_NO_BROWSER_NOTICE]);
    await cancel(s.id);
  });

  it('vigil agent says whether it found Chromium (VIGIL_CHROMIUM naming a missing file: no)', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const lines: string[] = [];
    const start = (name: string) =>
      startAgent({
        server: base,
        key: t.owner.key,
        name,
        tags: ['cli'],
        networks: [],
        concurrency: 1,
        secretFiles: [],
        say: (l) => lines.push(l),
      });
    const saved = process.env.VIGIL_CHROMIUM;
    let missing, found;
    try {
      process.env.VIGIL_CHROMIUM = '/nonexistent/chromium';
      missing = await start('cli-missing');
      // A file that exists stands for the browser here: the agent only looks for it at start.
      process.env.VIGIL_CHROMIUM = process.execPath;
      found = await start('cli-found');
    } finally {
      if (saved === undefined) delete process.env.VIGIL_CHROMIUM;
      else process.env.VIGIL_CHROMIUM = saved;
    }
    try {
      const list = (await t.request({ method: 'GET', url: '/v1/agents' })).json().agents as {
        name: string;
        headless: boolean;
      }[];
      expect(list.find((a) => a.name === 'cli-missing')?.headless).toBe(false);
      expect(list.find((a) => a.name === 'cli-found')?.headless).toBe(true);
      expect(lines.some((l) => l.includes('/nonexistent/chromium is missing'))).toBe(true);
    } finally {
      await Promise.all([missing?.stop(), found?.stop()]);
    }
  }, 60_000);
});
