// A target reachable only from inside a network namespace this test creates: the server runs outside,
// the agent inside (joined to the server by a veth pair), and only the agent can reach the target. A
// scan addressed by agent_networks runs there and its findings come back through the API.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/wait.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';

function canNetns(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('ip', ['netns', 'list'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' }).toString();

describe.skipIf(!canNetns())('an agent inside a network namespace reaches what the server cannot', () => {
  const tag = randomBytes(3).toString('hex');
  const ns = `vgl-${tag}`;
  const hostIf = `vh${tag}`;
  const nsIf = `vn${tag}`;
  // Link addresses (server side .1, agent side .2) and the private address the target listens on.
  const octet = 16 + (parseInt(tag.slice(0, 2), 16) % 200);
  const link = `10.213.${octet}`;
  const hidden = `172.31.${octet}.10`;
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-netns-'));
  const procs: VigilProcess[] = [];
  let base: string;
  let key: string;

  beforeAll(async () => {
    ip('netns', 'add', ns);
    ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
    ip('link', 'set', nsIf, 'netns', ns);
    ip('addr', 'add', `${link}.1/30`, 'dev', hostIf);
    ip('link', 'set', hostIf, 'up');
    ip('-n', ns, 'addr', 'add', `${link}.2/30`, 'dev', nsIf);
    ip('-n', ns, 'link', 'set', nsIf, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'addr', 'add', `${hidden}/32`, 'dev', 'lo');
    // Outside the namespace the hidden range goes nowhere (no packet leaves this machine for it).
    ip('route', 'add', 'blackhole', `172.31.${octet}.0/24`);
    const serve = spawnVigil(['serve', '--host', `${link}.1`, '--port', '0', '--no-worker', '--data-dir', dir]);
    procs.push(serve);
    base = await serve.listening(150_000);
    key = readFileSync(path.join(dir, 'owner-api-key'), 'utf8').trim();
  }, 200_000);

  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    try {
      ip('route', 'del', 'blackhole', `172.31.${octet}.0/24`);
    } catch {
      // not added
    }
    try {
      ip('link', 'del', hostIf);
    } catch {
      // gone with the namespace
    }
    try {
      ip('netns', 'del', ns);
    } catch {
      // already removed
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the scan on the agent inside the namespace and stores its findings', async () => {
    // The target: an HTTP server inside the namespace, on an address only the namespace has.
    const script = `require('http').createServer((q, s) => s.end(q.url.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain'))
      .listen(8080, '${hidden}', () => console.log('target up'))`;
    const { spawn } = await import('node:child_process');
    const targetProc = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: 'pipe' });
    let out = '';
    targetProc.stdout.on('data', (d) => (out += d));
    await waitFor(async () => out.includes('target up'), 20_000, 50);
    try {
      // The server's side cannot reach it.
      const fromServer = await fetch(`http://${hidden}:8080/`, { signal: AbortSignal.timeout(1500) }).then(
        () => 'reached',
        () => 'unreachable',
      );
      expect(fromServer).toBe('unreachable');

      const agent = spawnVigil(
        ['agent', '--server', base, '--key', key, '--name', 'inside', '--networks', `172.31.${octet}.0/24`],
        {},
        ['ip', 'netns', 'exec', ns],
      );
      procs.push(agent);
      await agent.waitFor(/agent ready/, 120_000);

      const headers = { 'x-api-key': key, 'content-type': 'application/json' };
      const created = await fetch(`${base}/v1/scans`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          targets: [`http://${hidden}:8080`],
          private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
          agent_networks: [`172.31.${octet}.0/24`],
        }),
      });
      expect(created.status).toBe(200);
      const id = (await created.json()).id;
      const scan = await waitFor(
        async () => {
          const s = await (await fetch(`${base}/v1/scans/${id}`, { headers })).json();
          return ['finished', 'failed'].includes(s.status) && s;
        },
        120_000,
        300,
      );
      expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
      const results = await (await fetch(`${base}/v1/scans/results?scan_id=${id}`, { headers })).json();
      expect(results.data).toHaveLength(1);
      expect(results.data[0].matched_at).toBe(`http://${hidden}:8080/vuln`);
      expect(results.data[0].agent_id).toMatch(/^agt_/);
    } finally {
      targetProc.kill('SIGKILL');
    }
  }, 240_000);
});
