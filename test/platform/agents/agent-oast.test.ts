// Real processes: `vigil serve --no-worker` whose scans use an OAST server (VIGIL_OAST_URL with a token)
// and a `vigil agent` process. An agent-run scan of the corpus's header-based out-of-band template against
// a target that resolves the name it is given (through the OAST DNS listener) gets its callback through
// the platform's relay, and the stored finding shows the interaction and the agent.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOast, type OastServer } from '../../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../../src/oast/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/wait.ts';
import { corpusDir } from '../../helpers/templates.ts';
import { hasShared } from '../../helpers/shared.ts';

const url = process.env.TEST_DATABASE_URL;
const DOMAIN = 'agent.oast.test';
const TOKEN = 'agent-test-oast-token';

describe.skipIf(!url || !hasShared('corpus/nuclei-templates'))('vigil agent with the platform OAST server', () => {
  let t: TestApp;
  let oast: OastServer;
  let target: http.Server;
  let serve: VigilProcess;
  let agent: VigilProcess;
  let agentId: string;
  let base: string;

  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'x-api-key': t.owner.key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : {} };
  };

  beforeAll(async () => {
    t = await createTestApp('postgres');
    oast = await startOast(
      oastConfigFromEnv({
        VIGIL_OAST_DOMAIN: DOMAIN,
        VIGIL_OAST_IP: '127.0.0.1',
        VIGIL_OAST_HTTP: '127.0.0.1:0',
        VIGIL_OAST_DNS: '127.0.0.1:0',
        VIGIL_OAST_TOKEN: TOKEN,
      })!,
    );
    target = http.createServer(async (req, res) => {
      const r = new Resolver();
      r.setServers([`127.0.0.1:${oast.ports.dns}`]);
      await r
        .resolve4(
          String(req.headers['x-forwarded-for'] ?? 'none')
            .split(',')[0]!
            .trim(),
        )
        .catch(() => []);
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    serve = spawnVigil(['serve', '--port', '0', '--no-worker'], {
      DATABASE_URL: url!,
      VIGIL_DB_SCHEMA: t.testDb.schema!,
      VIGIL_OAST_DOMAIN: DOMAIN,
      VIGIL_OAST_URL: oast.localUrl,
      VIGIL_OAST_TOKEN: TOKEN,
    });
    base = await serve.listening(150_000);
    // The agent gets no OAST setting of its own: the server's heartbeat names the domain.
    agent = spawnVigil(['agent', '--server', base, '--key', t.owner.key, '--name', 'oast-agent', '--tags', 'oob'], {
      VIGIL_OAST_DOMAIN: undefined,
      VIGIL_OAST_URL: undefined,
      VIGIL_OAST_TOKEN: undefined,
    });
    agentId = (await agent.waitFor(/agent \S+ \((agt_[0-9a-f]+)\) of team/, 120_000))[1]!;
    await agent.waitFor(/out-of-band checks through the server's OAST domain agent\.oast\.test/);
    await agent.waitFor(/agent ready/);
  }, 300_000);

  afterAll(async () => {
    await agent?.kill('SIGKILL');
    await serve?.kill('SIGKILL');
    await t?.close();
    await new Promise((r) => target?.close(r));
    await oast?.close();
  });

  it('an agent-run scan of an interactsh template gets its callback; the finding shows the interaction', async () => {
    const contents = readFileSync(
      path.join(corpusDir, 'http/vulnerabilities/generic/oob-header-based-interaction.yaml'),
      'utf8',
    );
    const res = await api('POST', '/v1/scans', {
      targets: [`http://127.0.0.1:${(target.address() as AddressInfo).port}`],
      private_templates: [{ name: 'oob.yaml', contents }],
      agent_tags: ['oob'],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const id = res.json.id as string;
    const scan = await waitFor(
      async () => {
        const s = (await api('GET', `/v1/scans/${id}`)).json;
        return ['finished', 'failed'].includes(s.status) && s;
      },
      120_000,
      300,
    );
    expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
    const results = (await api('GET', `/v1/scans/results?scan_id=${id}`)).json;
    const row = results.data[0];
    expect(row.agent_id).toBe(agentId);
    expect(row.event[0]['template-id']).toBe('oob-header-based-interaction');
    expect(row.event[0].interaction).toMatchObject({ protocol: 'dns', 'q-type': 'A', 'remote-address': '127.0.0.1' });
    expect(row.event[0].interaction['raw-request']).toContain(DOMAIN);
    // The agent never saw the OAST server's token or address.
    expect(agent.stdout + agent.stderr).not.toContain(TOKEN);
  }, 180_000);
});
