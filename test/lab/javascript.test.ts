// The lab for the javascript protocol: Debian's openssh-server, redis-server, rsync, xrdp, dovecot
// (POP3 and IMAP) and postfix started on 127.0.0.1 (installed with apt-get when missing), scanned by
// `vigil scan` with the corpus's javascript templates. Every (template, server) pair was checked by hand against the server's configuration:
// hits must match (with their extracted values where the template extracts), misses must not. Run with
// `npm run test:lab`.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installMissing, startAll, type LabServer } from './servers.ts';
import { dovecotCommand, postfixCommand } from '../helpers/mail.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const corpus = path.resolve(root, '../shared/corpus/nuclei-templates/javascript');
const guard = path.join(root, 'test/helpers/loopback-guard.mjs');

const keygen = (dir: string, type: string, bits: string[], file: string) => {
  if (!existsSync(path.join(dir, file)))
    spawnSync('ssh-keygen', ['-q', '-t', type, ...bits, '-N', '', '-C', 'vigil-lab', '-f', path.join(dir, file)]);
};

function sshd(dir: string, port: number, lines: string[]): string[] {
  mkdirSync('/run/sshd', { recursive: true });
  writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      'UsePAM no',
      'StrictModes no',
      `PidFile ${dir}/sshd.pid`,
      ...lines.map((l) => l.replaceAll('{dir}', dir)),
    ].join('\n') + '\n',
  );
  return ['/usr/sbin/sshd', '-D', '-e', '-f', path.join(dir, 'sshd_config')];
}

const redis = (port: number, extra: string[]) => [
  '/usr/bin/redis-server',
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  ...extra,
];

const SPECS = [
  {
    name: 'sshd-password',
    packages: ['openssh-server'],
    binary: '/usr/sbin/sshd',
    prepare(dir: string, port: number) {
      keygen(dir, 'rsa', ['-b', '1024'], 'rsa');
      return sshd(dir, port, [
        'HostKey {dir}/rsa',
        'PasswordAuthentication yes',
        'KbdInteractiveAuthentication no',
        'Ciphers +aes128-cbc',
      ]);
    },
  },
  {
    name: 'sshd-keys',
    packages: ['openssh-server'],
    binary: '/usr/sbin/sshd',
    prepare(dir: string, port: number) {
      keygen(dir, 'ed25519', [], 'ed');
      return sshd(dir, port, ['HostKey {dir}/ed', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no']);
    },
  },
  {
    name: 'redis-open',
    packages: ['redis-server'],
    binary: '/usr/bin/redis-server',
    prepare: (_dir: string, port: number) => redis(port, ['--protected-mode', 'no']),
  },
  {
    name: 'redis-password',
    packages: ['redis-server'],
    binary: '/usr/bin/redis-server',
    prepare: (_dir: string, port: number) => redis(port, ['--requirepass', 'lab-not-a-default-7c1e']),
  },
  {
    name: 'rsyncd',
    packages: ['rsync'],
    binary: '/usr/bin/rsync',
    prepare(dir: string, port: number) {
      mkdirSync(path.join(dir, 'share'), { recursive: true });
      writeFileSync(
        path.join(dir, 'rsyncd.conf'),
        `use chroot = no\npid file = ${dir}/rsyncd.pid\n[labshare]\n  path = ${dir}/share\n  comment = lab share\n  read only = yes\n`,
      );
      return [
        '/usr/bin/rsync',
        '--daemon',
        '--no-detach',
        '--address=127.0.0.1',
        `--port=${port}`,
        `--config=${dir}/rsyncd.conf`,
      ];
    },
  },
  {
    name: 'xrdp',
    packages: ['xrdp'],
    binary: '/usr/sbin/xrdp',
    prepare(dir: string, port: number) {
      spawnSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=lab'].concat([
          '-keyout',
          `${dir}/key.pem`,
          '-out',
          `${dir}/cert.pem`,
        ]),
      );
      writeFileSync(
        path.join(dir, 'xrdp.ini'),
        `[Globals]\nini_version=1\nfork=false\nport=tcp://127.0.0.1:${port}\nsecurity_layer=negotiate\n` +
          `certificate=${dir}/cert.pem\nkey_file=${dir}/key.pem\n[Logging]\nLogFile=${dir}/xrdp.log\nEnableSyslog=false\n`,
      );
      return ['/usr/sbin/xrdp', '--nodaemon', '--config', path.join(dir, 'xrdp.ini')];
    },
  },
  {
    name: 'dovecot-pop3',
    packages: ['dovecot-pop3d'],
    binary: '/usr/lib/dovecot/pop3-login',
    prepare: (dir: string, port: number) => dovecotCommand(dir, 'pop3', port),
  },
  {
    name: 'dovecot-imap',
    packages: ['dovecot-imapd'],
    binary: '/usr/lib/dovecot/imap-login',
    prepare: (dir: string, port: number) => dovecotCommand(dir, 'imap', port),
  },
  {
    name: 'postfix',
    packages: ['postfix'],
    binary: '/usr/sbin/postfix',
    prepare: (dir: string, port: number) => postfixCommand(dir, port),
  },
];

interface Pair {
  server: string;
  file: string;
  id: string;
  why: string;
  /** Each extracted value must match one of these. */
  extracted?: (v: Versions) => RegExp[];
}
interface Versions {
  openssh: string;
  redis: string;
  rsyncProtocol: string;
}

function versions(): Versions {
  const out = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    return `${r.stdout ?? ''}${r.stderr ?? ''}`;
  };
  return {
    openssh: /OpenSSH_[\d.]+/.exec(out('/usr/sbin/sshd', ['-V']))![0],
    redis: /v=([\d.]+)/.exec(out('/usr/bin/redis-server', ['--version']))![1]!,
    rsyncProtocol: /protocol version (\d+)/.exec(out('/usr/bin/rsync', ['--version']))![1]!,
  };
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const HITS: Pair[] = [
  {
    server: 'sshd-password',
    file: 'enumeration/ssh/ssh-password-auth.yaml',
    id: 'ssh-password-auth',
    why: 'PasswordAuthentication yes: "password" among the methods after "none"',
  },
  {
    server: 'sshd-password',
    file: 'detection/ssh-auth-methods.yaml',
    id: 'ssh-auth-methods',
    why: 'publickey and password offered',
    extracted: () => [/"publickey"/],
  },
  {
    server: 'sshd-password',
    file: 'enumeration/ssh/ssh-server-enumeration.yaml',
    id: 'ssh-server-enumeration',
    why: 'the identification line',
    extracted: (v) => [new RegExp(`^SSH-2\\.0-${esc(v.openssh)}`)],
  },
  {
    server: 'sshd-password',
    file: 'misconfiguration/ssh/ssh-weak-public-key.yaml',
    id: 'ssh-weak-public-key',
    why: 'a 1024-bit RSA host key (< 2048)',
  },
  {
    server: 'sshd-password',
    file: 'misconfiguration/ssh/ssh-cbc-mode-ciphers.yaml',
    id: 'ssh-cbc-mode-ciphers',
    why: 'Ciphers +aes128-cbc',
  },
  {
    server: 'sshd-password',
    file: 'enumeration/ssh/ssh-sha1-hmac-algo.yaml',
    id: 'ssh-sha1-hmac-algo',
    why: "OpenSSH's default MACs include hmac-sha1",
  },
  {
    server: 'sshd-keys',
    file: 'detection/ssh-auth-methods.yaml',
    id: 'ssh-auth-methods',
    why: 'publickey only',
    extracted: () => [/"publickey"/],
  },
  {
    server: 'redis-open',
    file: 'enumeration/redis/redis-info.yaml',
    id: 'redis-info',
    why: 'INFO without a password',
    extracted: (v) => [new RegExp(`^redis_version:${esc(v.redis)}$`), /^role:master$/, /^\w+:[\w.]+$/],
  },
  {
    server: 'redis-open',
    file: 'default-logins/redis-default-logins.yaml',
    id: 'redis-default-logins',
    why: 'the empty password, first in the list, gets INFO',
  },
  {
    server: 'redis-open',
    file: 'enumeration/redis/redis-require-auth.yaml',
    id: 'redis-require-auth',
    why: 'answers PING (nuclei: true for any Redis)',
  },
  {
    server: 'redis-password',
    file: 'enumeration/redis/redis-require-auth.yaml',
    id: 'redis-require-auth',
    why: 'answers PING with NOAUTH (still true, as nuclei)',
  },
  {
    server: 'rsyncd',
    file: 'enumeration/rsync/rsync-version.yaml',
    id: 'rsync-version',
    why: 'the @RSYNCD greeting',
    extracted: (v) => [new RegExp(`^${v.rsyncProtocol}\\.\\d+( |$)`)],
  },
  {
    server: 'rsyncd',
    file: 'enumeration/rsync/rsync-list-modules.yaml',
    id: 'rsync-list-modules',
    why: 'the module list',
    extracted: () => [/labshare/],
  },
  {
    server: 'xrdp',
    file: 'detection/rdp-detect.yaml',
    id: 'rdp-detect',
    why: "xrdp's connection confirm (no Windows signature)",
  },
  {
    server: 'dovecot-pop3',
    file: 'enumeration/pop3/pop3-capabilities-enum.yaml',
    id: 'pop3-capabilities-enum',
    why: "dovecot's +OK greeting; one read holds the greeting or the greeting and CAPA's answer",
    extracted: () => [/Dovecot \(Debian\) ready|^CAPA .*USER/],
  },
];

const MISSES: Pair[] = [
  {
    server: 'sshd-keys',
    file: 'enumeration/ssh/ssh-password-auth.yaml',
    id: 'ssh-password-auth',
    why: 'PasswordAuthentication no',
  },
  {
    server: 'sshd-keys',
    file: 'misconfiguration/ssh/ssh-weak-public-key.yaml',
    id: 'ssh-weak-public-key',
    why: 'an Ed25519 host key',
  },
  {
    server: 'sshd-keys',
    file: 'misconfiguration/ssh/ssh-cbc-mode-ciphers.yaml',
    id: 'ssh-cbc-mode-ciphers',
    why: 'default ciphers: no CBC',
  },
  {
    server: 'sshd-password',
    file: 'misconfiguration/ssh/ssh-weak-algo-supported.yaml',
    id: 'ssh-weak-algo-supported',
    why: 'no arcfour',
  },
  {
    server: 'redis-password',
    file: 'enumeration/redis/redis-info.yaml',
    id: 'redis-info',
    why: 'requirepass: INFO refused',
  },
  {
    server: 'redis-password',
    file: 'default-logins/redis-default-logins.yaml',
    id: 'redis-default-logins',
    why: 'the password is not in the list',
  },
  { server: 'redis-open', file: 'enumeration/rsync/rsync-version.yaml', id: 'rsync-version', why: 'not rsync' },
  { server: 'rsyncd', file: 'enumeration/redis/redis-info.yaml', id: 'redis-info', why: 'not Redis' },
  { server: 'rsyncd', file: 'enumeration/ssh/ssh-password-auth.yaml', id: 'ssh-password-auth', why: 'not SSH' },
  {
    server: 'redis-open',
    file: 'enumeration/ssh/ssh-server-enumeration.yaml',
    id: 'ssh-server-enumeration',
    why: 'not SSH',
  },
  {
    server: 'dovecot-imap',
    file: 'enumeration/pop3/pop3-capabilities-enum.yaml',
    id: 'pop3-capabilities-enum',
    why: 'IMAP greets with * OK',
  },
  {
    server: 'postfix',
    file: 'enumeration/pop3/pop3-capabilities-enum.yaml',
    id: 'pop3-capabilities-enum',
    why: 'SMTP: 220 and 502, no +OK',
  },
  { server: 'postfix', file: 'detection/rdp-detect.yaml', id: 'rdp-detect', why: 'not RDP' },
  { server: 'postfix', file: 'detection/mssql-detect.yaml', id: 'mssql-detect', why: 'not TDS' },
  { server: 'postfix', file: 'detection/oracle-detect.yaml', id: 'oracle-detect', why: 'not a TNS listener' },
  { server: 'xrdp', file: 'detection/mssql-detect.yaml', id: 'mssql-detect', why: 'RDP, not TDS' },
  { server: 'xrdp', file: 'detection/oracle-detect.yaml', id: 'oracle-detect', why: 'RDP, not TNS' },
  { server: 'dovecot-pop3', file: 'detection/rdp-detect.yaml', id: 'rdp-detect', why: 'not RDP' },
];

type Event = Record<string, unknown> & { 'template-id': string; 'matched-at'?: string };

describe.skipIf(!existsSync(corpus) || process.getuid?.() !== 0)(
  'lab: javascript templates against Debian-packaged servers',
  () => {
    let dir: string;
    let servers: Map<string, LabServer>;
    let events: Event[] = [];
    let stderr = '';

    beforeAll(async () => {
      installMissing(SPECS);
      dir = mkdtempSync(path.join(tmpdir(), 'vigil-lab-js-'));
      servers = await startAll(dir, SPECS);
      const files = [...new Set([...HITS, ...MISSES].map((p) => path.join(corpus, p.file)))];
      const targets = [...servers.values()].map((s) => `127.0.0.1:${new URL(s.url).port}`);
      const args = [
        path.join(root, 'bin/vigil.mjs'),
        'scan',
        '-j',
        '-rl',
        '0',
        '--timeout',
        '5',
        '--retries',
        '0',
        ...files.flatMap((f) => ['-t', f]),
        ...targets.flatMap((u) => ['-u', u]),
      ];
      const log = path.join(dir, 'guard.log');
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          args,
          {
            cwd: root,
            timeout: 240_000,
            maxBuffer: 64 * 1024 * 1024,
            env: { ...process.env, NODE_OPTIONS: `--import=${guard}`, VIGIL_GUARD_LOG: log },
          },
          (err, stdout, err2) =>
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: err2 }),
        );
      });
      stderr = out.stderr;
      if (out.code !== 0) throw new Error(`vigil scan failed (${out.code}): ${out.stderr.slice(-2000)}`);
      events = out.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Event);
      const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
      if (strays) throw new Error(`the scan reached beyond 127.0.0.1:\n${strays}`);
    }, 600_000);

    afterAll(async () => {
      await Promise.all([...(servers?.values() ?? [])].map((s) => s.stop()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const eventsFor = (p: Pair) => {
      const port = new URL(servers.get(p.server)!.url).port;
      return events.filter((e) => e['template-id'] === p.id && String(e['matched-at']).endsWith(`:${port}`));
    };

    it('finds every hand-verified hit, with its extracted values, and none of the misses', () => {
      const v = versions();
      const missing: string[] = [];
      for (const p of HITS) {
        const found = eventsFor(p);
        if (found.length === 0) {
          missing.push(`${p.id} on ${p.server} (${p.why})`);
          continue;
        }
        if (p.extracted) {
          const want = p.extracted(v);
          const got = found.flatMap((e) => (e['extracted-results'] as string[] | undefined) ?? []);
          const ok = got.length > 0 && want.every((re) => got.some((x) => re.test(x)));
          if (!ok) missing.push(`${p.id} on ${p.server}: extracted ${JSON.stringify(got)}, want ${want.join(', ')}`);
        }
      }
      const falsePositives = MISSES.filter((p) => eventsFor(p).length > 0).map(
        (p) => `${p.id} on ${p.server} (should not match: ${p.why})`,
      );
      console.log(
        `lab (javascript): ${HITS.length - missing.length}/${HITS.length} hits, ${falsePositives.length} false positives`,
      );
      expect({ missing, falsePositives }, stderr.slice(-1500)).toEqual({ missing: [], falsePositives: [] });
    });
  },
);
