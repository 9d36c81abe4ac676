// nuclei/rdp and the corpus's rdp-detect against Debian's xrdp on 127.0.0.1: one xrdp negotiating
// standard RDP security or TLS, one that offers only TLS. xrdp has no network level authentication (it
// refuses CredSSP: CheckRDPAuth answers { Auth: false }); Debian's FreeRDP shadow server, sharing an Xvfb
// display with `/sec:nla`, has it: CheckRDPAuth reads its NTLM challenge and CheckRDPEncryption reports
// CredSSP alone. A server that is not RDP matches nothing. Each part is skipped with a message when its
// server is not installed (xrdp; freerdp2-shadow-x11 and xvfb).
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { freePort, installed, waitForPort, FORKING_DAEMON_TIMEOUT_S } from '../../../helpers/services.ts';
import { once } from 'node:events';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const have = installed('/usr/sbin/xrdp') && installed('openssl');
if (!have) console.warn('skipping the rdp module tests: xrdp is not installed (apt-get install xrdp)');

interface Xrdp {
  port: number;
  proc: ChildProcess;
}

async function xrdp(dir: string, name: string, securityLayer: string): Promise<Xrdp> {
  const port = await freePort();
  const ini = path.join(dir, `${name}.ini`);
  writeFileSync(
    ini,
    [
      '[Globals]',
      'ini_version=1',
      'fork=false',
      `port=tcp://127.0.0.1:${port}`,
      `security_layer=${securityLayer}`,
      'crypt_level=high',
      `certificate=${dir}/cert.pem`,
      `key_file=${dir}/key.pem`,
      'ssl_protocols=TLSv1.2, TLSv1.3',
      '[Logging]',
      `LogFile=${dir}/${name}.log`,
      'LogLevel=WARNING',
      'EnableSyslog=false',
      '',
    ].join('\n'),
  );
  const proc = spawn('/usr/sbin/xrdp', ['--nodaemon', '--config', ini], { stdio: 'ignore' });
  await waitForPort(port);
  return { port, proc };
}

async function scan(file: string, target: string): Promise<ResultEvent[]> {
  const { templates } = await loadTemplates([path.join(CORPUS, file)]);
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  const events: ResultEvent[] = [];
  await runScan({
    targets: [target],
    templates,
    rateLimit: 0,
    timeout: FORKING_DAEMON_TIMEOUT_S,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return events;
}

const script = (code: string, port: number) =>
  runTemplateScript(code, {
    args: { Host: '127.0.0.1', Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: FORKING_DAEMON_TIMEOUT_S * 1000,
    timeoutMs: 25_000,
  });

describe.skipIf(!have || !hasShared('corpus/nuclei-templates'))('nuclei/rdp', () => {
  let dir: string;
  let negotiate: Xrdp;
  let tlsOnly: Xrdp;
  let other: net.Server;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-xrdp-'));
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=vigil-lab',
      '-keyout',
      `${dir}/key.pem`,
      '-out',
      `${dir}/cert.pem`,
    ]);
    if (made.status !== 0) throw new Error(`openssl: ${String(made.stderr)}`);
    negotiate = await xrdp(dir, 'negotiate', 'negotiate');
    tlsOnly = await xrdp(dir, 'tls', 'tls');
    other = net.createServer((s) => {
      s.on('error', () => {});
      s.end('SSH-2.0-not-rdp\r\n');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(() => {
    negotiate?.proc.kill();
    tlsOnly?.proc.kill();
    other?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('rdp-detect matches xrdp (no Windows signature: OS is empty)', async () => {
    const events = await scan('detection/rdp-detect.yaml', `127.0.0.1:${negotiate.port}`);
    expect(events.map((e) => e['template-id'])).toEqual(['rdp-detect']);
    const out = await script(`to_json(require('nuclei/rdp').IsRDP(Host, Port))`, negotiate.port);
    expect(JSON.parse(String(out.response))).toEqual({ IsRDP: true, OS: '' });
  });

  it('rdp-detect does not match a server that is not RDP; IsRDP throws there, as nuclei', async () => {
    const port = (other.address() as net.AddressInfo).port;
    expect(await scan('detection/rdp-detect.yaml', `127.0.0.1:${port}`)).toEqual([]);
    const out = await script(`require('nuclei/rdp').IsRDP(Host, Port)`, port);
    expect(out.error).toMatch(/not an RDP server/);
  });

  it("CheckRDPEncryption reports the security layers each xrdp's configuration selects", async () => {
    const code = `to_json(require('nuclei/rdp').CheckRDPEncryption(Host, Port))`;
    const both = JSON.parse(String((await script(code, negotiate.port)).response));
    expect(both).toMatchObject({ NativeRDP: true, SSL: true, CredSSP: false, CredSSPWithEarlyUserAuth: false });
    const tlsOnlyAnswer = JSON.parse(String((await script(code, tlsOnly.port)).response));
    expect(tlsOnlyAnswer).toMatchObject({ NativeRDP: false, SSL: true, CredSSP: false });
  });

  it('CheckRDPAuth: xrdp refuses CredSSP, so there is no NTLM challenge to read', async () => {
    const out = await script(`to_json(require('nuclei/rdp').CheckRDPAuth(Host, Port))`, negotiate.port);
    expect(out.error).toBeUndefined();
    expect(JSON.parse(String(out.response))).toEqual({ PluginInfo: null, Auth: false });
  });
});

const haveShadow = installed('freerdp-shadow-cli') && installed('Xvfb');
if (!haveShadow)
  console.warn('skipping CheckRDPAuth with NLA: apt-get install freerdp2-shadow-x11 xvfb (FreeRDP shadow server)');

/** A process whose last 2,000 characters of output are kept, to show when it fails. */
interface Watched {
  proc: ChildProcess;
  output(): string;
  running(): boolean;
}
function watched(cmd: string, args: string[], opts: SpawnOptions): Watched {
  const proc = spawn(cmd, args, opts);
  let printed = '';
  const keep = (d: Buffer) => (printed = (printed + d.toString()).slice(-2000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return {
    proc,
    output: () => printed.trim().slice(-500),
    running: () => proc.exitCode === null && proc.signalCode === null,
  };
}

/** An X server on a free display: Xvfb picks one and writes its number on fd 3 once it accepts connections. */
async function startXvfb(): Promise<Watched & { display: string }> {
  const x = watched('Xvfb', ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const [number] = (await once(x.proc.stdio[3]!, 'data')) as [Buffer];
  return { ...x, display: number.toString().trim() };
}

describe.skipIf(!haveShadow)('nuclei/rdp against a server with network level authentication (FreeRDP shadow)', () => {
  let dir: string;
  let xvfb: (Watched & { display: string }) | undefined;
  let shadow: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-rdp-nla-'));
    // NLA needs a SAM file; no login happens (the probe stops at the server's NTLM challenge).
    writeFileSync(
      path.join(dir, 'SAM'),
      'vigil::aad3b435b51404eeaad3b435b51404ee:8846f7eaee8fb117ad06bdd830b7586c:::\n',
    );
    // Up to three tries. The free port can be taken by a parallel test before the shadow server binds it,
    // and on a busy machine it takes a while to listen. In the whole test run, it once found no display
    // to open (an X server gone), so each try checks that Xvfb is still there and starts a new one if not.
    // When it never listens, the error shows what both printed.
    const failures: string[] = [];
    for (let attempt = 0; attempt < 3 && !port; attempt++) {
      if (xvfb && !xvfb.running()) failures.push(`Xvfb :${xvfb.display} ended: ${xvfb.output()}`);
      if (!xvfb?.running()) xvfb = await startXvfb();
      const tryPort = await freePort();
      const rdp = watched(
        'freerdp-shadow-cli',
        [`/port:${tryPort}`, '/bind-address:127.0.0.1', '/sec:nla', '+auth', `/sam-file:${path.join(dir, 'SAM')}`],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DISPLAY: `:${xvfb.display}` } },
      );
      const outcome = await Promise.race([
        waitForPort(tryPort, 30_000).then(
          () => 'listening',
          (err: Error) => err.message,
        ),
        once(rdp.proc, 'exit').then(([code]) => `exited with ${code}`),
      ]);
      if (outcome === 'listening') {
        [shadow, port] = [rdp.proc, tryPort];
        break;
      }
      rdp.proc.kill();
      const x = xvfb.running() ? 'running' : 'gone';
      failures.push(`port ${tryPort}, display :${xvfb.display} (Xvfb ${x}): ${outcome}: ${rdp.output()}`);
      // A display it cannot open: the next try gets a new X server, not the same one again.
      if (/failed to open display/.test(rdp.output()) && xvfb.running()) {
        xvfb.proc.kill();
        await once(xvfb.proc, 'exit');
      }
    }
    if (!port) throw new Error(`the FreeRDP shadow server did not start:\n${failures.join('\n')}`);
    if (failures.length) console.warn(`the FreeRDP shadow server started after:\n${failures.join('\n')}`);
  }, 120_000);
  afterAll(() => {
    shadow?.kill();
    xvfb?.proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("CheckRDPAuth returns the NTLM challenge's version and names", async () => {
    const out = await script(`to_json(require('nuclei/rdp').CheckRDPAuth(Host, Port))`, port);
    expect(out.error).toBeUndefined();
    const r = JSON.parse(String(out.response));
    expect(r.Auth).toBe(true);
    const name = os.hostname().split('.')[0]!;
    expect(r.PluginInfo).toMatchObject({
      osVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      netBIOSComputerName: name.toUpperCase().slice(0, 15),
      dnsComputerName: expect.stringMatching(new RegExp(`^${name}`, 'i')),
    });
    // The script sees Go's field names.
    const fields = await script(
      `const a = require('nuclei/rdp').CheckRDPAuth(Host, Port); a.PluginInfo.NetBIOSComputerName`,
      port,
    );
    expect(fields.response).toBe(name.toUpperCase().slice(0, 15));
  });

  it('CheckRDPEncryption reports CredSSP alone; IsRDP does not take FreeRDP for RDP, as fingerprintx (so nuclei)', async () => {
    const enc = await script(`to_json(require('nuclei/rdp').CheckRDPEncryption(Host, Port))`, port);
    expect(JSON.parse(String(enc.response))).toMatchObject({
      NativeRDP: false,
      SSL: false,
      CredSSP: true,
      RDSTLS: false,
      CredSSPWithEarlyUserAuth: false,
    });
    // FreeRDP's connection confirm has source reference 0, not the 0x1234 of fingerprintx's signature.
    const is = await script(`require('nuclei/rdp').IsRDP(Host, Port)`, port);
    expect(is.error).toMatch(/not an RDP server/);
  });
});
