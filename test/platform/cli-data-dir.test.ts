// Every command that opens the data folder takes --data-dir. While `vigil serve` holds the embedded
// database, the operator commands run inside it through the admin socket (no "stop the server" dance);
// errors are one line, never a stack trace. `vigil serve --tls-cert --tls-key` serves HTTPS.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { runVigil, spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const TEMPLATE = `id: cli-socket-probe
info:
  name: CLI socket probe
  author: vigil
  severity: low
  tags: probe
http:
  - method: GET
    path: ["{{BaseURL}}/probe"]
    matchers:
      - type: status
        status: [200]
`;

describe('CLI commands, --data-dir and a running server', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-datadir-'));
  const procs: VigilProcess[] = [];
  let mirror: TestServer | undefined;
  afterAll(async () => {
    await mirror?.close();
    for (const p of procs) await p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('users, templates and intel commands work through the running server; afterwards on the folder itself', async () => {
    const data = path.join(dir, 'data');
    // A mirror answering like GitHub's releases API and CISA's KEV file, for the update commands.
    const zip = zipSync({
      'pd-templates-1/http/mirror.yaml': strToU8(TEMPLATE.replace('cli-socket-probe', 'mirror-probe')),
    });
    mirror = await startHttpServer((req, res) => {
      if (req.url === '/latest') return res.end(JSON.stringify({ tag_name: 'v9.9.9', zipball_url: '/t.zip' }));
      if (req.url === '/t.zip') return res.end(Buffer.from(zip));
      if (req.url === '/kev.json')
        return res.end(
          JSON.stringify({
            catalogVersion: '1',
            vulnerabilities: [{ cveID: 'CVE-2026-1111', dateAdded: '2026-11-01' }],
          }),
        );
      res.writeHead(404).end();
    });
    const serve = spawnVigil(['serve', '--port', '0', '--data-dir', data, '--no-worker'], {
      VIGIL_TEMPLATES_RELEASE_URL: `${mirror.url}/latest`,
      VIGIL_INTEL_FEEDS: 'kev',
      VIGIL_FEED_KEV_URL: `${mirror.url}/kev.json`,
    });
    procs.push(serve);
    const url = await serve.listening(150_000);
    const ownerKey = readFileSync(path.join(data, 'owner-api-key'), 'utf8').trim();
    // Only the server's account may use the socket.
    expect(statSync(path.join(data, 'admin.sock')).mode & 0o777).toBe(0o600);

    const list = await runVigil(['users', 'list', '--data-dir', data]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^owner@localhost\tOWNER\t/m);

    // A new key, issued by the running server: it works at once, the old one stops.
    const key = await runVigil(['users', 'key', 'owner@localhost', '--data-dir', data]);
    expect(key.code, key.stderr).toBe(0);
    const newKey = key.stdout.trim();
    expect(newKey).toMatch(/^vgl_/);
    const who = async (k: string) => (await request(`${url}/v1/user`, { headers: { 'x-api-key': k } })).statusCode;
    expect(await who(newKey)).toBe(200);
    expect(await who(ownerKey)).toBe(401);
    expect(serve.stdout + serve.stderr).not.toContain(newKey);

    // A template folder given relative to the caller's directory is imported by the server.
    const tpl = path.join(dir, 'templates');
    mkdirSync(path.join(tpl, 'http'), { recursive: true });
    writeFileSync(path.join(tpl, 'http', 'probe.yaml'), TEMPLATE);
    const imp = await runVigil(['templates', 'import', path.relative(process.cwd(), tpl), '--data-dir', data]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/imported 1 templates .* 1 added/);
    const found = await request(`${url}/v2/template/search?q=cli-socket-probe`, { headers: { 'x-api-key': newKey } });
    expect(await found.body.text()).toContain('cli-socket-probe');

    const update = await runVigil(['templates', 'update', '--data-dir', data]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/templates: v9\.9\.9 imported: 1 templates, 1 added/);
    const intelUpdate = await runVigil(['intel', 'update', '--data-dir', data]);
    expect(intelUpdate.code, intelUpdate.stderr).toBe(0);
    expect(intelUpdate.stdout).toMatch(/^kev: 1 read, 1 changed/m);
    const runs = await runVigil(['updates', '--data-dir', data]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/\tintel:kev\tdone\t/);
    expect(runs.stdout).toMatch(/\ttemplates\tdone\tv9\.9\.9\t/);

    const rebuild = await runVigil(['intel', 'rebuild', '--data-dir', data]);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    expect(rebuild.stdout).toMatch(/^records changed: \d+/m);

    // A failing task: one line from the server's answer, exit 1, no stack trace.
    const bad = await runVigil(['intel', 'import', '--feed', 'kev', '--data-dir', data, '/nonexistent.json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr + bad.stdout).not.toMatch(/\n\s+at /);
    const missing = await runVigil(['users', 'key', 'nobody@example.com', '--data-dir', data]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no user with email nobody@example.com/);
    // Team creation grants from the machine, through the running server too.
    const allow = await runVigil(['users', 'allow-teams', 'owner@localhost', '--data-dir', data]);
    expect(allow.code, allow.stderr).toBe(0);
    expect(allow.stdout).toMatch(/owner@localhost may create teams/);
    const unknown = await runVigil(['users', 'deny-teams', 'nobody@example.com', '--data-dir', data]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user has the email nobody@example.com/);

    expect(await serve.kill('SIGTERM')).toBe(0);
    // Stopped: the same commands open the folder themselves (the socket file is gone or refused).
    const after = await runVigil(['users', 'list', '--data-dir', data]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/^owner@localhost\tOWNER\t.*\tinstance-owner$/m);
  }, 240_000);

  it('a killed server leaves a socket file that the next command and the next serve step over', async () => {
    const data = path.join(dir, 'killed');
    const serve = spawnVigil(['serve', '--port', '0', '--data-dir', data, '--no-worker']);
    procs.push(serve);
    await serve.listening(150_000);
    await serve.kill('SIGKILL');
    const list = await runVigil(['users', 'list', '--data-dir', data]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^owner@localhost/m);
    const again = spawnVigil(['serve', '--port', '0', '--data-dir', data, '--no-worker']);
    procs.push(again);
    await again.listening(150_000);
    const viaSocket = await runVigil(['users', 'list', '--data-dir', data]);
    expect(viaSocket.code, viaSocket.stderr).toBe(0);
    expect(await again.kill('SIGTERM')).toBe(0);
  }, 240_000);

  it('serves HTTPS with --tls-cert and --tls-key; half a setting is a clear start-up error', async () => {
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const data = path.join(dir, 'tls');
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
    const url = await serve.listening(150_000);
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ownerKey = readFileSync(path.join(data, 'owner-api-key'), 'utf8').trim();
    const dispatcher = new Agent({ connect: { ca: readFileSync(cert) } });
    const res = await request(`${url}/v1/user`, { headers: { 'x-api-key': ownerKey }, dispatcher });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(await res.body.json()).toMatchObject({ email: 'owner@localhost' });
    await dispatcher.close();
    expect(await serve.kill('SIGTERM')).toBe(0);

    const half = await runVigil(['serve', '--port', '0', '--data-dir', path.join(dir, 'half'), '--tls-cert', cert]);
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(/HTTPS needs both a certificate and a key/);
  }, 240_000);
});
