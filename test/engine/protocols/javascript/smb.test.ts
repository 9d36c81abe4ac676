// nuclei/smb and the corpus's SMB templates against Debian's smbd on 127.0.0.1, started by the test with
// its own configuration in a temporary folder: a default server (SMB2+, guests for unknown users), one
// with SMB1 on, one speaking SMB1 only, and one that requires signing and refuses guests (with one real
// user). Skipped with a message when samba is not installed (apt-get install samba) or the test is not root.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { freePort, installed, waitForPort, type Service, FORKING_DAEMON_TIMEOUT_S } from '../../../helpers/services.ts';

const SMBD = '/usr/sbin/smbd';
const DCERPCD = '/usr/libexec/samba/samba-dcerpcd';
const root = process.getuid?.() === 0;
const have = root && installed(SMBD) && installed(DCERPCD) && installed('pdbedit');
if (!have)
  console.warn(
    root
      ? 'skipping the smb module tests: samba is not installed (apt-get install samba)'
      : 'skipping the smb module tests: smbd needs root (it switches to the guest account)',
  );
const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const USER_PW = 'vigil-smb-pass-1';

/** smb.conf for a server in `dir` with `lines` added to [global]; its port is filled in when it starts. */
function smbConf(dir: string, lines: string[]): string {
  for (const d of ['share', 'private', 'state', 'cache', 'lock', 'pid', 'ncalrpc'])
    mkdirSync(path.join(dir, d), { recursive: true });
  const conf = path.join(dir, 'smb.conf');
  writeFileSync(
    conf,
    [
      '[global]',
      '  workgroup = VIGILLAB',
      '  netbios name = VIGILSMB',
      '  server role = standalone server',
      '  smb ports = 445',
      '  interfaces = 127.0.0.1',
      '  bind interfaces only = yes',
      '  disable netbios = yes',
      '  load printers = no',
      '  printing = bsd',
      '  printcap name = /dev/null',
      '  disable spoolss = yes',
      '  rpc start on demand helpers = no',
      ...['pid', 'lock', 'state', 'cache', 'ncalrpc'].map(
        (d) => `  ${d === 'ncalrpc' ? 'ncalrpc dir' : `${d} directory`} = ${dir}/${d}`,
      ),
      `  private dir = ${dir}/private`,
      `  passdb backend = tdbsam:${dir}/private/passdb.tdb`,
      `  log file = ${dir}/log.%m`,
      ...lines.map((l) => `  ${l}`),
      '[labshare]',
      `  path = ${dir}/share`,
      '  comment = lab share',
      '  guest ok = yes',
      '  read only = yes',
      '',
    ].join('\n'),
  );
  return conf;
}

/**
 * Starts smbd on a free port in a process group of its own: smbd starts samba-dcerpcd and its RPC workers
 * on demand (the share list needs them), and stopping the group stops them all.
 */
async function smbd(dir: string, lines: string[]): Promise<Service> {
  const conf = smbConf(dir, lines);
  const port = await freePort();
  writeFileSync(conf, readFileSync(conf, 'utf8').replace(/^ {2}smb ports = .*$/m, `  smb ports = ${port}`));
  // samba-dcerpcd serves the RPC pipes (the share list): started here beside smbd rather than by smbd on
  // demand, which would make it a daemon of its own that outlives the test.
  const proc = spawn(
    'sh',
    [
      '-c',
      `${DCERPCD} --libexec-rpcds --foreground --no-process-group -s "$0" & exec ${SMBD} --foreground --no-process-group -s "$0"`,
      conf,
    ],
    { detached: true, stdio: 'ignore' },
  );
  const stop = () => {
    try {
      process.kill(-proc.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    await waitForPort(port, 15_000);
  } catch (err) {
    stop();
    throw err;
  }
  return { port, proc, stop };
}

const run = (code: string, port: number) =>
  runTemplateScript(code, {
    args: { Host: '127.0.0.1', Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: FORKING_DAEMON_TIMEOUT_S * 1000,
    timeoutMs: 25_000,
  });

async function corpus(...files: string[]): Promise<Template[]> {
  const { templates } = await loadTemplates(files.map((f) => path.join(CORPUS, f)));
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  return templates;
}

async function scan(templates: Template[], port: number): Promise<Map<string, ResultEvent>> {
  const events: ResultEvent[] = [];
  await runScan({
    targets: [`127.0.0.1:${port}`],
    templates,
    rateLimit: 0,
    timeout: FORKING_DAEMON_TIMEOUT_S,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return new Map(events.map((e) => [e['template-id'], e]));
}

describe.skipIf(!have)('nuclei/smb', () => {
  let dir: string;
  let plain: Service;
  let v1: Service;
  let only1: Service;
  let strict: Service;
  let other: net.Server;
  let otherPort = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-smbd-'));
    [plain, v1, only1] = await Promise.all([
      smbd(path.join(dir, 'plain'), ['map to guest = bad user']),
      smbd(path.join(dir, 'v1'), ['map to guest = bad user', 'server min protocol = NT1']),
      smbd(path.join(dir, 'only1'), [
        'map to guest = bad user',
        'server min protocol = NT1',
        'server max protocol = NT1',
      ]),
    ]);
    const strictConf = smbConf(path.join(dir, 'strict'), ['map to guest = never', 'server signing = mandatory']);
    const add = spawnSync('pdbedit', ['-s', strictConf, '-a', '-u', 'nobody', '-t'], {
      input: `${USER_PW}\n${USER_PW}\n`,
      encoding: 'utf8',
    });
    if (add.status !== 0) throw new Error(`pdbedit failed: ${add.stderr}`);
    strict = await smbd(path.join(dir, 'strict'), ['map to guest = never', 'server signing = mandatory']);
    other = net.createServer((s) => {
      s.on('error', () => {});
      s.end('220 not smb\r\n');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    otherPort = (other.address() as net.AddressInfo).port;
  }, 60_000);
  afterAll(() => {
    for (const s of [plain, v1, only1, strict]) s?.stop();
    other?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ConnectSMBInfoMode: dialect 2.1, capabilities, NTLM offered, times; SMB1 only when the server accepts it', async () => {
    const info = async (port: number) => {
      const out = await run(`to_json(require('nuclei/smb').SMBClient().ConnectSMBInfoMode(Host, Port))`, port);
      expect(out.error).toBeUndefined();
      return JSON.parse(String(out.response));
    };
    const a = await info(plain.port);
    expect(a.Version.VerString).toBe('SMB 2.1');
    expect(a.SupportV1).toBe(false);
    expect(a.HasNTLM).toBe(true);
    expect(a.NegotiationLog.AuthenticationTypes).toContain('1.3.6.1.4.1.311.2.2.10');
    expect(Math.abs(a.NegotiationLog.SystemTime - Date.now() / 1000)).toBeLessThan(60);
    expect(a.SessionSetupLog.TargetName).toBe('VIGILSMB');
    expect(a.Capabilities).toMatchObject({ DFSSupport: true, Leasing: true, LargeMTU: true });
    expect((await info(v1.port)).SupportV1).toBe(true);
    const b = await info(only1.port);
    expect(b).toMatchObject({ SupportV1: true, Version: { VerString: 'SMB 1.0' }, GroupName: 'VIGILLAB' });
    expect(b.NTLM).toMatch(/^Samba \d/);
    expect(b.NegotiationLog).toBeNull();
    const none = await run(`require('nuclei/smb').SMBClient().ConnectSMBInfoMode(Host, Port)`, otherPort);
    expect(none.response).toBeNull();
  });

  it('ListSMBv2Metadata: signing and the names from the NTLM challenge', async () => {
    const meta = async (port: number) =>
      JSON.parse(
        String((await run(`to_json(require('nuclei/smb').SMBClient().ListSMBv2Metadata(Host, Port))`, port)).response),
      );
    expect(await meta(plain.port)).toMatchObject({
      SigningEnabled: true,
      SigningRequired: false,
      OSVersion: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      NetBIOSComputerName: 'VIGILSMB',
    });
    expect((await meta(strict.port)).SigningRequired).toBe(true);
    const smb1 = await run(`require('nuclei/smb').SMBClient().ListSMBv2Metadata(Host, Port)`, only1.port);
    expect(smb1.success).toBe(false);
  });

  it('ListShares: guests where the server maps them, a real user with signing required, refused logins throw', async () => {
    const list = (port: number, user: string, pw: string) =>
      run(`Export(require('nuclei/smb').SMBClient().ListShares(Host, Port, '${user}', '${pw}'))`, port);
    expect((await list(plain.port, ' ', ' ')).response).toBe('[labshare IPC$]');
    expect((await list(strict.port, 'nobody', USER_PW)).response).toBe('[labshare IPC$]');
    expect((await list(strict.port, 'nobody', 'wrong')).error).toMatch(/LOGON_FAILURE/);
    expect((await list(strict.port, 'admin', 'admin')).error).toMatch(/LOGON_FAILURE/);
    expect((await list(otherPort, 'a', 'b')).success).toBe(false);
  });

  describe.skipIf(!hasShared('corpus/nuclei-templates'))('corpus templates', () => {
    const FILES = [
      'enumeration/smb/smb-version-detect.yaml',
      'enumeration/smb/smb-v1-supported.yaml',
      'enumeration/smb/smb2-capabilities.yaml',
      'enumeration/smb/smb2-server-time.yaml',
      'enumeration/smb/smb-os-detect.yaml',
      'enumeration/smb/smb-enum.yaml',
      'enumeration/smb/ntlm-info.yaml',
      'enumeration/smb/smb-default-creds.yaml',
      'misconfiguration/smb/smb-signing.yaml',
      'misconfiguration/smb/smb-anonymous-access.yaml',
      'misconfiguration/smb/smb-shares.yaml',
      'detection/samba-detect.yaml',
    ];

    it('a default Samba: version, capabilities, time, signing not required, guest shares; no SMB1', async () => {
      const by = await scan(await corpus(...FILES), plain.port);
      expect([...by.keys()].sort()).toEqual(
        [
          'smb-anonymous-access',
          'smb-default-creds',
          'smb-enum',
          'smb-os-detect',
          'smb-shares',
          'smb-signing',
          'smb-version-detect',
          'smb2-capabilities',
          'smb2-server-time',
        ].sort(),
      );
      expect(by.get('smb-version-detect')!['extracted-results']).toEqual(['SMB 2.1']);
      expect(String(by.get('smb2-capabilities')!['extracted-results'])).toMatch(/DFSSupport.*LargeMTU.*Leasing/s);
      expect(by.get('smb2-server-time')!['extracted-results']![0]).toMatch(
        /^SystemTime: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z ServerStartTime: /,
      );
      expect(by.get('smb-anonymous-access')!['extracted-results'] ?? []).toEqual([]);
    });

    it('SMB1 only: samba-detect and ntlm-info name Samba; SMB2 templates do not match', async () => {
      const by = await scan(await corpus(...FILES), only1.port);
      expect(by.get('samba-detect')?.['extracted-results']?.[0]).toMatch(/^Samba \d/);
      expect(by.get('ntlm-info')?.['extracted-results']?.[0]).toMatch(/^NTLM: Samba \d/);
      expect(by.has('smb-v1-supported')).toBe(true);
      for (const id of ['smb-signing', 'smb2-server-time', 'smb-enum']) expect(by.has(id)).toBe(false);
    });

    it('signing required, no guests: neither the signing check nor any share listing matches', async () => {
      const by = await scan(await corpus(...FILES), strict.port);
      for (const id of ['smb-signing', 'smb-anonymous-access', 'smb-shares', 'smb-default-creds', 'smb-v1-supported'])
        expect(by.has(id), id).toBe(false);
      expect(by.has('smb-version-detect')).toBe(true);
    });
  });
});
