// `vigil agent` over HTTPS: the server's certificate is verified. An agent that does not trust it stops
// with a clear message instead of sending its key; with --ca (the private CA) it connects and runs scans.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { waitFor } from '../helpers/wait.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';

describe('vigil agent over HTTPS', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-agent-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const procs: VigilProcess[] = [];
  let base: string;
  let ownerKey: string;
  let target: TestServer;

  beforeAll(async () => {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    const data = path.join(dir, 'data');
    const serve = spawnVigil([
      'serve',
      '--port',
      '0',
      '--data-dir',
      data,
      '--no-worker',
      '--tls-cert',
      cert,
      '--tls-key',
      key,
    ]);
    procs.push(serve);
    base = await serve.listening(150_000);
    ownerKey = readFileSync(path.join(data, 'owner-api-key'), 'utf8').trim();
    target = await startHttpServer((req, res) => res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain'));
  }, 200_000);

  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a server certificate it cannot verify, and never registers', async () => {
    const agent = spawnVigil(['agent', '--server', base, '--key', ownerKey, '--name', 'untrusting']);
    procs.push(agent);
    expect(await agent.exited).toBe(1);
    expect(agent.stderr).toMatch(/certificate is not trusted: DEPTH_ZERO_SELF_SIGNED_CERT.*--ca/);
    const dispatcher = new Agent({ connect: { ca: readFileSync(cert) } });
    const res = await request(`${base}/v1/agents`, { headers: { 'x-api-key': ownerKey }, dispatcher });
    expect(((await res.body.json()) as { agents: unknown[] }).agents).toEqual([]);
    await dispatcher.close();
  });

  it('with --ca it connects and runs a scan addressed to it', async () => {
    const agent = spawnVigil(['agent', '--server', base, '--key', ownerKey, '--name', 'trusting', '--ca', cert]);
    procs.push(agent);
    await agent.waitFor(/agent ready/, 120_000);
    const dispatcher = new Agent({ connect: { ca: readFileSync(cert) } });
    const headers = { 'x-api-key': ownerKey, 'content-type': 'application/json' };
    const created = await request(`${base}/v1/scans`, {
      method: 'POST',
      headers,
      dispatcher,
      body: JSON.stringify({
        targets: [target.url],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        agent_id: 'trusting',
      }),
    });
    const id = ((await created.body.json()) as { id: string }).id;
    const scan = await waitFor(
      async () => {
        const r = await request(`${base}/v1/scans/${id}`, { headers, dispatcher });
        const s = (await r.body.json()) as { status: string; total_result: number };
        return ['finished', 'failed'].includes(s.status) && s;
      },
      60_000,
      300,
    );
    expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
    await dispatcher.close();
  }, 120_000);
});
