// `vigil scan` with out-of-band checks: nuclei's flags against an OAST server started here (-iserver,
// -interactions-poll-duration, -interactions-cooldown-period), and the default, an OAST server embedded in
// the scan process where VIGIL_OAST_* says. The target resolves the template's name through the OAST DNS
// listener; the finding (JSON lines) carries the interaction.
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { corpusDir } from '../helpers/templates.ts';
import { hasShared } from '../helpers/shared.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const template = path.join(corpusDir, 'http/vulnerabilities/generic/oob-header-based-interaction.yaml');
// -iserver names the server by its domain, as users do; here that domain is localhost.
const DOMAIN = 'localhost';

/** A target that resolves its X-Forwarded-For name through the DNS server at `dnsPort()`. */
function resolvingTarget(dnsPort: () => number): Promise<http.Server> {
  const s = http.createServer(async (req, res) => {
    const r = new Resolver();
    r.setServers([`127.0.0.1:${dnsPort()}`]);
    await r.resolve4(String(req.headers['x-forwarded-for'] ?? 'none')).catch(() => []);
    res.end('ok');
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

function vigilScan(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/vigil.mjs'), 'scan', '-t', template, '-j', '-rl', '0', ...args],
      { cwd: root, timeout: 90_000, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function freeUdpAndTcpPort(): Promise<number> {
  for (;;) {
    const u = dgram.createSocket('udp4');
    const port = await new Promise<number>((r) => u.bind(0, '127.0.0.1', () => r(u.address().port)));
    const t = net.createServer();
    const ok = await new Promise<boolean>((r) => {
      t.once('error', () => r(false));
      t.listen(port, '127.0.0.1', () => r(true));
    });
    u.close();
    await new Promise((r) => (ok ? t.close(r) : r(undefined)));
    if (ok) return port;
  }
}

describe.skipIf(!hasShared('corpus/nuclei-templates'))('vigil scan with out-of-band checks', () => {
  let oast: OastServer;
  let target: http.Server;
  let embeddedDns = 0;
  beforeAll(async () => {
    oast = await startOast(
      oastConfigFromEnv({
        VIGIL_OAST_DOMAIN: DOMAIN,
        VIGIL_OAST_IP: '127.0.0.1',
        VIGIL_OAST_HTTP: '127.0.0.1:0',
        VIGIL_OAST_DNS: '127.0.0.1:0',
        VIGIL_OAST_TOKEN: 'cli-token-123',
      })!,
    );
    let useEmbedded = false;
    target = await resolvingTarget(() => (useEmbedded ? embeddedDns : oast.ports.dns!));
    embeddedDns = await freeUdpAndTcpPort();
    setEmbedded = (v) => (useEmbedded = v);
  });
  let setEmbedded: (v: boolean) => void = () => {};
  afterAll(async () => {
    await new Promise((r) => target?.close(r));
    await oast?.close();
  });
  const url = () => `http://127.0.0.1:${(target.address() as AddressInfo).port}`;

  it('-iserver and -itoken use a given server; the finding shows the DNS interaction', async () => {
    setEmbedded(false);
    const r = await vigilScan([
      '-u',
      url(),
      '-iserver',
      `http://localhost:${oast.ports.http}`,
      '-itoken',
      'cli-token-123',
      '-interactions-poll-duration',
      '1',
      '-interactions-cooldown-period',
      '2',
    ]);
    expect(r.stderr).not.toMatch(/could not register/);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events).toHaveLength(1);
    expect(events[0].interaction.protocol).toBe('dns');
    expect(events[0].interaction['full-id']).toMatch(/^spoofed\.[a-z0-9]{33}$/);
  });

  it('-iserver without the token is refused, and the scan says so', async () => {
    const r = await vigilScan(['-u', url(), '-iserver', `http://localhost:${oast.ports.http}`]);
    expect(r.stderr).toMatch(/interactsh: could not register with http:\/\/localhost:\d+: \/register: 401/);
    expect(r.stdout).toBe('');
  });

  it('by default starts an embedded OAST server from VIGIL_OAST_* and finds the callback', async () => {
    setEmbedded(true);
    const r = await vigilScan(['-u', url(), '-interactions-poll-duration', '1', '-interactions-cooldown-period', '2'], {
      VIGIL_OAST_DOMAIN: 'embedded.oast.test',
      VIGIL_OAST_IP: '127.0.0.1',
      VIGIL_OAST_HTTP: '127.0.0.1:0',
      VIGIL_OAST_DNS: `127.0.0.1:${embeddedDns}`,
    });
    expect(r.stderr).toContain('embedded OAST server for embedded.oast.test');
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events).toHaveLength(1);
    expect(events[0]['template-id']).toBe('oob-header-based-interaction');
    expect(events[0].interaction.protocol).toBe('dns');
    expect(events[0].interaction['full-id']).toMatch(/^spoofed\.[a-z0-9]{33}$/);
  });

  it('-ni turns out-of-band checks off', async () => {
    const r = await vigilScan(['-u', url(), '-ni', '-ms']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('unresolved variables: interactsh-url');
  });
});
