// Attacks on headless routing: an agent's `headless` declaration takes only a boolean, changes only its
// own row, and an agent of another team that claims Chromium gets none of this team's headless work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const HEADLESS_TEMPLATE = `id: test-headless
info:
  name: Headless page
  author: vigil
  severity: info
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}" }
`;

describe('headless routing: declarations and teams', () => {
  let t: TestApp;
  let team2: string;
  const keys: Record<string, string> = {};

  const asAgent = (name: string, url: string, payload: object = {}) =>
    t.request({ method: 'POST', url, key: null, headers: { 'x-agent-key': keys[name]! }, payload });
  const headlessOf = async (name: string, team?: string) => {
    const res = await t.request({ method: 'GET', url: '/v1/agents', headers: team ? { 'x-team-id': team } : {} });
    return (res.json().agents as { name: string; headless: boolean }[]).find((a) => a.name === name)?.headless;
  };

  beforeAll(async () => {
    t = await createTestApp('pglite');
    team2 = (await t.request({ method: 'POST', url: '/v1/user/team', payload: { name: 'second' } })).json().team_id;
    for (const [name, team] of [
      ['mine', undefined],
      ['theirs', team2],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/agents',
        headers: team ? { 'x-team-id': team } : {},
        payload: { name, tags: ['hl'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      keys[name] = res.json().key;
    }
  });
  afterAll(async () => t?.close());

  it('refuses a headless declaration that is not a boolean, changing nothing', async () => {
    for (const bad of ['yes', { on: true }, 2, 'true; DROP TABLE agents']) {
      const res = await asAgent('mine', '/v1/agents/me/heartbeat', { headless: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().message).toMatch(/headless/);
    }
    expect(await headlessOf('mine')).toBe(false);
  });

  it("an agent's declaration changes only its own row", async () => {
    expect((await asAgent('theirs', '/v1/agents/me/heartbeat', { headless: true })).statusCode).toBe(200);
    expect(await headlessOf('theirs', team2)).toBe(true);
    expect(await headlessOf('mine')).toBe(false);
  });

  it("another team's agent claiming Chromium gets none of this team's headless chunks", async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['http://127.0.0.1:9/a'],
        private_templates: [{ name: 'h.yaml', contents: HEADLESS_TEMPLATE }],
        agent_tags: ['hl'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const theirs = await asAgent('theirs', '/v1/agents/me/lease', {});
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().work).toBeNull();
    // This team's own agent (no Chromium) gets it, with the scan log saying headless templates are skipped.
    const mine = await asAgent('mine', '/v1/agents/me/lease', {});
    expect(mine.json().work?.scan_id).toBe(id);
    const notes = await t.ctx.db.query(
      `SELECT 1 FROM scan_log_records WHERE scan_id = $1 AND template_id = 'headless'`,
      [id],
    );
    expect(notes.rows).toHaveLength(1);
  });
});
