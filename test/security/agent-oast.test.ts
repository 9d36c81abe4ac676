// Agents' out-of-band checks go through the platform's API (/v1/agents/me/oast/*) to its OAST server:
// only an agent credential opens them; an agent cannot poll or drop another agent's interactsh client
// (another team's or its own team's), with or without the secret; the OAST server's token never reaches an
// agent; the interactions come back sealed for the agent's key alone; a platform without an OAST server
// says so; garbage is a 400, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resolver } from 'node:dns/promises';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { TestInteractshClient } from '../oast/interactsh-client.ts';
import { waitFor } from '../helpers/wait.ts';

const DOMAIN = 'agents.oast.test';
const TOKEN = 'platform-oast-token-7f3a';

describe('agents: out-of-band checks through the platform', () => {
  let t: TestApp;
  let bare: TestApp;
  let oast: OastServer;
  let team2: string;
  const keys: Record<string, string> = {};

  const asAgent = (key: string | undefined, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url,
      key: null,
      headers: key ? { 'x-agent-key': key, ...headers } : headers,
      payload: payload as object,
    });
  const registerFields = (c: TestInteractshClient) => ({
    'public-key': c.publicKeyField(),
    'secret-key': c.secret,
    'correlation-id': c.correlationId,
  });

  beforeAll(async () => {
    oast = await startOast(
      oastConfigFromEnv({
        VIGIL_OAST_DOMAIN: DOMAIN,
        VIGIL_OAST_IP: '127.0.0.1',
        VIGIL_OAST_HTTP: '127.0.0.1:0',
        VIGIL_OAST_DNS: '127.0.0.1:0',
        VIGIL_OAST_TOKEN: TOKEN,
      })!,
    );
    t = await createTestApp('pglite', { interactsh: { server: oast.localUrl, domain: DOMAIN, token: TOKEN } });
    team2 = (await t.request({ method: 'POST', url: '/v1/user/team', payload: { name: 'second' } })).json().team_id;
    for (const [name, team] of [
      ['a1', undefined],
      ['a2', undefined],
      ['b1', team2],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/agents',
        headers: team ? { 'x-team-id': team } : {},
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(200);
      keys[name] = res.json().key;
    }
    bare = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
    await bare?.close();
    await oast?.close();
  });

  it("the heartbeat names the OAST domain, never the server's address or token", async () => {
    const res = await asAgent(keys.a1, '/v1/agents/me/heartbeat', {});
    expect(res.statusCode).toBe(200);
    expect(res.json().oast_domain).toBe(DOMAIN);
    expect(res.body).not.toContain(TOKEN);
    expect(res.body).not.toContain(oast.localUrl);
  });

  it('an agent registers and polls its own client; another agent, of this team or another, cannot touch it', async () => {
    const c = new TestInteractshClient('unused', DOMAIN);
    const reg = await asAgent(keys.a1, '/v1/agents/me/oast/register', registerFields(c));
    expect(reg.statusCode, reg.body).toBe(200);
    // A callback for the client's name (DNS through the OAST listener).
    const r = new Resolver();
    r.setServers([`127.0.0.1:${oast.ports.dns}`]);
    const name = c.name();
    await r.resolve4(name);

    // Other agents: with the right secret even, the id answers as unknown; the interaction stays.
    for (const other of [keys.a2, keys.b1]) {
      const poll = await asAgent(other, '/v1/agents/me/oast/poll', { id: c.correlationId, secret: c.secret });
      expect(poll.statusCode, poll.body).toBe(400);
      expect(poll.json().message).toMatch(/could not get correlation-id/);
      const dereg = await asAgent(other, '/v1/agents/me/oast/deregister', {
        'correlation-id': c.correlationId,
        'secret-key': c.secret,
      });
      expect(dereg.statusCode).toBe(400);
      // Nor can it take the id over by registering it again.
      const again = await asAgent(other, '/v1/agents/me/oast/register', registerFields(c));
      expect(again.statusCode).toBe(400);
    }
    // The owner with a wrong secret: refused by the OAST server.
    const wrong = await asAgent(keys.a1, '/v1/agents/me/oast/poll', { id: c.correlationId, secret: 'not-the-secret' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).not.toContain(TOKEN);

    // The owner gets the interaction, sealed for its key (decrypted here with the client's private key).
    const got = await waitFor(async () => {
      const res = await asAgent(keys.a1, '/v1/agents/me/oast/poll', { id: c.correlationId, secret: c.secret });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: string[]; aes_key: string };
      if (!body.data.length) return undefined;
      expect(body.data[0]).not.toContain(name.split('.')[0]); // sealed, not readable on the way
      return c.decrypt(body);
    });
    expect(got[0]).toMatchObject({ protocol: 'dns', 'unique-id': name.split('.')[0] });
    const done = await asAgent(keys.a1, '/v1/agents/me/oast/deregister', {
      'correlation-id': c.correlationId,
      'secret-key': c.secret,
    });
    expect(done.statusCode).toBe(200);
  });

  it('only an agent credential opens the relay: a user API key or none is a 401', async () => {
    const c = new TestInteractshClient('unused', DOMAIN);
    for (const url of ['/v1/agents/me/oast/register', '/v1/agents/me/oast/poll', '/v1/agents/me/oast/deregister']) {
      expect((await asAgent(undefined, url, registerFields(c))).statusCode).toBe(401);
      expect((await asAgent(t.owner.key, url, registerFields(c))).statusCode).toBe(401);
      const asUser = await t.request({ method: 'POST', url, payload: registerFields(c) });
      expect(asUser.statusCode).toBe(401);
    }
  });

  it('garbage is a 400 naming the field, never a 5xx or a request to the OAST server', async () => {
    const bad = [
      { url: '/v1/agents/me/oast/register', body: { 'public-key': 'x', 'secret-key': 'short', 'correlation-id': 'a' } },
      {
        url: '/v1/agents/me/oast/register',
        body: {
          'public-key': 'bm90IGEga2V5',
          'secret-key': 'long-enough-secret',
          'correlation-id': 'abcdefghij0123456789',
        },
      },
      { url: '/v1/agents/me/oast/poll', body: { id: '../../etc/passwd', secret: 'long-enough-secret' } },
      { url: '/v1/agents/me/oast/poll', body: { id: 'abcdefghij0123456789&x=1', secret: 'long-enough-secret' } },
      { url: '/v1/agents/me/oast/poll', body: { id: 'abcdefghij0123456789', secret: 'x'.repeat(5000) } },
      { url: '/v1/agents/me/oast/deregister', body: { 'correlation-id': 42, 'secret-key': null } },
    ];
    for (const b of bad) {
      const res = await asAgent(keys.a1, b.url, b.body);
      expect(res.statusCode, `${b.url} ${JSON.stringify(b.body).slice(0, 80)}: ${res.body}`).toBe(400);
    }
  });

  it('a platform without an OAST server says so (404), and the heartbeat names no domain', async () => {
    const reg = await bare.request({ method: 'POST', url: '/v1/agents', payload: { name: 'lonely' } });
    const key = reg.json().key as string;
    const hb = await bare.request({
      method: 'POST',
      url: '/v1/agents/me/heartbeat',
      key: null,
      headers: { 'x-agent-key': key },
      payload: {},
    });
    expect(hb.json().oast_domain).toBeUndefined();
    const c = new TestInteractshClient('unused', DOMAIN);
    const res = await bare.request({
      method: 'POST',
      url: '/v1/agents/me/oast/register',
      key: null,
      headers: { 'x-agent-key': key },
      payload: registerFields(c),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('oast_not_configured');
  });
});
