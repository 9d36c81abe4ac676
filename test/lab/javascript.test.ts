// The lab for the javascript protocol: Debian's openssh-server, redis-server, rsync, samba, xrdp, dovecot
// (POP3 and IMAP) and postfix started on 127.0.0.1 (installed with apt-get when missing), scanned by
// `vigil scan` with the corpus's javascript templates. The corpus's LDAP templates dial port 389 whatever the
// input's port (their URL is "ldap://{{Host}}"), so each slapd runs on 127.0.0.1:389 inside a network namespace
// of its own, scanned by a `vigil scan` started in that namespace. Every (template, server) pair was checked by hand against the server's configuration:
// hits must match (with their extracted values where the template extracts), misses must not. Run with
// `npm run test:lab`.
import { execFile, spawn, spawnSync } from 'node:child_process';
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
  ...(
    [
      ['samba-guest', ['map to guest = bad user']],
      ['samba-smb1', ['map to guest = bad user', 'server min protocol = NT1', 'server max protocol = NT1']],
      ['samba-strict', ['map to guest = never', 'server signing = mandatory']],
    ] as const
  ).map(([name, lines]) => ({
    name,
    packages: ['samba'],
    binary: '/usr/sbin/smbd',
    prepare: (dir: string, port: number) => samba(dir, port, [...lines]),
  })),
];

/** smbd and samba-dcerpcd (the RPC pipes: the share list) in the foreground, configured in `dir`. */
function samba(dir: string, port: number, lines: string[]): string[] {
  for (const d of ['share', 'private', 'state', 'cache', 'lock', 'pid', 'ncalrpc'])
    mkdirSync(path.join(dir, d), { recursive: true });
  const conf = path.join(dir, 'smb.conf');
  writeFileSync(
    conf,
    [
      '[global]',
      'workgroup = VIGILLAB',
      'netbios name = VIGILSMB',
      'server role = standalone server',
      `smb ports = ${port}`,
      'interfaces = 127.0.0.1',
      'bind interfaces only = yes',
      'disable netbios = yes',
      'load printers = no',
      'printing = bsd',
      'printcap name = /dev/null',
      'disable spoolss = yes',
      'rpc start on demand helpers = no',
      `pid directory = ${dir}/pid`,
      `lock directory = ${dir}/lock`,
      `state directory = ${dir}/state`,
      `cache directory = ${dir}/cache`,
      `ncalrpc dir = ${dir}/ncalrpc`,
      `private dir = ${dir}/private`,
      `passdb backend = tdbsam:${dir}/private/passdb.tdb`,
      `log file = ${dir}/log.%m`,
      ...lines,
      '[labshare]',
      `path = ${dir}/share`,
      'comment = lab share',
      'guest ok = yes',
      'read only = yes',
    ].join('\n') + '\n',
  );
  return [
    'sh',
    '-c',
    '/usr/libexec/samba/samba-dcerpcd --libexec-rpcds --foreground --no-process-group -s "$0" & exec /usr/sbin/smbd --foreground --no-process-group -s "$0"',
    conf,
  ];
}

/** slapd configurations, each run on 127.0.0.1:389 in its own network namespace. */
const SLAPD: Record<string, string[]> = {
  'slapd-anonymous': [],
  'slapd-no-anonymous': ['disallow bind_anon'],
};

function slapdConf(dir: string, extra: string[]): string {
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const conf = path.join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      `pidfile ${dir}/slapd.pid`,
      `argsfile ${dir}/slapd.args`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      ...extra,
      'database mdb',
      'suffix "dc=vigil,dc=lab"',
      'rootdn "cn=admin,dc=vigil,dc=lab"',
      'rootpw lab-not-a-default-3f9a',
      `directory ${dir}/db`,
    ].join('\n') + '\n',
  );
  return conf;
}

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
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-version-detect.yaml',
    id: 'smb-version-detect',
    why: 'zgrab2 offers dialect 2.1 only, which Samba accepts',
    extracted: () => [/^SMB 2\.1$/],
  },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb2-capabilities.yaml',
    id: 'smb2-capabilities',
    why: 'DFS, leasing and multi-credit are the 2.1 capabilities Samba sets',
    extracted: () => [/DFSSupport/],
  },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb2-server-time.yaml',
    id: 'smb2-server-time',
    why: 'the negotiate response carries the system time (start time 0 reads as 2009, as in nuclei)',
    extracted: () => [/^SystemTime: 20\d\d-\d\d-\d\dT[\d:.]+Z ServerStartTime: /],
  },
  {
    server: 'samba-guest',
    file: 'misconfiguration/smb/smb-signing.yaml',
    id: 'smb-signing',
    why: 'signing enabled, not required (Samba standalone default)',
  },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-os-detect.yaml',
    id: 'smb-os-detect',
    why: "the NTLM challenge's version (Samba says 6.1.0, not in the template's table)",
    extracted: () => [/^\d+\.\d+\.\d+$/],
  },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-enum.yaml',
    id: 'smb-enum',
    why: 'OSVersion and the NetBIOS names from the challenge',
    extracted: () => [/^NetBIOSComputerName: VIGILSMB$/],
  },
  {
    server: 'samba-guest',
    file: 'misconfiguration/smb/smb-anonymous-access.yaml',
    id: 'smb-anonymous-access',
    why: 'user " " is unknown: map to guest = bad user lists the shares, IPC$ among them',
  },
  {
    server: 'samba-guest',
    file: 'misconfiguration/smb/smb-shares.yaml',
    id: 'smb-shares',
    why: 'the guest mapping again, on the first pair',
    extracted: () => [/labshare/],
  },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-default-creds.yaml',
    id: 'smb-default-creds',
    why: 'admin/admin is an unknown user, mapped to guest',
  },
  {
    server: 'samba-smb1',
    file: 'enumeration/smb/smb-v1-supported.yaml',
    id: 'smb-v1-supported',
    why: 'server max protocol = NT1',
  },
  {
    server: 'samba-smb1',
    file: 'detection/samba-detect.yaml',
    id: 'samba-detect',
    why: 'SMB 1.0 only; the session setup names the LAN manager',
    extracted: () => [/^Samba 4\.\d+/],
  },
  {
    server: 'samba-smb1',
    file: 'enumeration/smb/ntlm-info.yaml',
    id: 'ntlm-info',
    why: 'the SMB1 session setup LAN manager string',
    extracted: () => [/^NTLM: Samba 4\.\d+/],
  },
  {
    server: 'slapd-anonymous',
    file: 'misconfiguration/ldap/ldap-anonymous-login-detect.yaml',
    id: 'ldap-anonymous-login-detect',
    why: 'slapd accepts anonymous binds by default',
  },
  {
    server: 'slapd-anonymous',
    file: 'enumeration/ldap/ldap-metadata.yaml',
    id: 'ldap-metadata',
    why: 'the root DSE is readable; BaseDN is "dc=" + the realm, which the template fills with the port',
    extracted: () => [/^BaseDN: dc=389$/, /^DnsHostName: $/],
  },
  {
    server: 'slapd-no-anonymous',
    file: 'enumeration/ldap/ldap-metadata.yaml',
    id: 'ldap-metadata',
    why: 'disallow bind_anon refuses the bind, not an unbound search of the root DSE',
  },
];

const MISSES: Pair[] = [
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-v1-supported.yaml',
    id: 'smb-v1-supported',
    why: 'SMB1 off (Samba answers the SMB1 negotiate choosing no dialect)',
  },
  { server: 'samba-guest', file: 'detection/samba-detect.yaml', id: 'samba-detect', why: 'not SMB1' },
  { server: 'samba-guest', file: 'enumeration/smb/ntlm-info.yaml', id: 'ntlm-info', why: 'no SMB1 session setup' },
  {
    server: 'samba-guest',
    file: 'enumeration/smb/smb-enum-domains.yaml',
    id: 'smb-enum-domains',
    why: 'a standalone server names no DNS domain',
  },
  {
    server: 'samba-strict',
    file: 'misconfiguration/smb/smb-signing.yaml',
    id: 'smb-signing',
    why: 'server signing = mandatory',
  },
  {
    server: 'samba-strict',
    file: 'misconfiguration/smb/smb-anonymous-access.yaml',
    id: 'smb-anonymous-access',
    why: 'map to guest = never: the unknown user is refused',
  },
  {
    server: 'samba-strict',
    file: 'misconfiguration/smb/smb-shares.yaml',
    id: 'smb-shares',
    why: 'no guest, no listed pair is a user',
  },
  {
    server: 'samba-strict',
    file: 'enumeration/smb/smb-default-creds.yaml',
    id: 'smb-default-creds',
    why: 'no guest, no listed pair is a user',
  },
  { server: 'samba-smb1', file: 'misconfiguration/smb/smb-signing.yaml', id: 'smb-signing', why: 'no SMB2' },
  { server: 'redis-open', file: 'enumeration/smb/smb-version-detect.yaml', id: 'smb-version-detect', why: 'not SMB' },
  {
    server: 'slapd-no-anonymous',
    file: 'misconfiguration/ldap/ldap-anonymous-login-detect.yaml',
    id: 'ldap-anonymous-login-detect',
    why: 'disallow bind_anon',
  },
  {
    server: 'slapd-anonymous',
    file: 'default-logins/ldap-default-login.yaml',
    id: 'ldap-default-login',
    why: '"admin" is no DN: slapd refuses the bind',
  },
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

    /** `vigil scan -j` of `files` against `targets`, under the loopback guard; `prefix` runs it elsewhere (nsenter). */
    async function vigilScan(files: string[], targets: string[], prefix: string[] = []): Promise<Event[]> {
      const args = [
        process.execPath,
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
      const [cmd, ...rest] = [...prefix, ...args];
      const log = path.join(dir, `guard-${Math.random().toString(36).slice(2)}.log`);
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          cmd!,
          rest,
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
      stderr += out.stderr;
      if (out.code !== 0) throw new Error(`vigil scan failed (${out.code}): ${out.stderr.slice(-2000)}`);
      const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
      if (strays) throw new Error(`the scan reached beyond 127.0.0.1:\n${strays}`);
      return out.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Event);
    }

    /**
     * Each slapd on 127.0.0.1:389 in a network namespace of its own (held by a `sleep` started with
     * `unshare --net`), and a `vigil scan` of the LDAP templates run in it with nsenter.
     */
    async function ldapLab(): Promise<void> {
      const files = [...new Set([...HITS, ...MISSES].filter((p) => p.server in SLAPD).map((p) => p.file))];
      for (const [name, extra] of Object.entries(SLAPD)) {
        const holder = spawn('unshare', ['--net', 'sleep', '3600'], { stdio: 'ignore', detached: true });
        stops.push(() => holder.kill('SIGKILL'));
        const ns = ['nsenter', '-t', String(holder.pid), '-n'];
        await new Promise((r) => setTimeout(r, 100)); // the holder has entered its namespace
        const up = spawnSync(ns[0]!, [...ns.slice(1), 'ip', 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
        if (up.status !== 0) throw new Error(`network namespace: ${up.stderr}`);
        const conf = slapdConf(path.join(dir, name), extra);
        const slapd = spawn(
          ns[0]!,
          [...ns.slice(1), '/usr/sbin/slapd', '-d', '0', '-f', conf, '-h', 'ldap://127.0.0.1:389/'],
          {
            stdio: 'ignore',
            detached: true,
          },
        );
        stops.push(() => {
          try {
            process.kill(-slapd.pid!, 'SIGTERM');
          } catch {
            // already gone
          }
        });
        for (let i = 0; ; i++) {
          const probe = spawnSync(ns[0]!, [...ns.slice(1), 'bash', '-c', 'exec 3<>/dev/tcp/127.0.0.1/389'], {
            stdio: 'ignore',
          });
          if (probe.status === 0) break;
          if (i > 100) throw new Error(`${name} did not listen on 127.0.0.1:389 in its namespace`);
          await new Promise((r) => setTimeout(r, 100));
        }
        nsEvents.set(
          name,
          await vigilScan(
            files.map((f) => path.join(corpus, f)),
            ['127.0.0.1:389'],
            ns,
          ),
        );
      }
    }

    const nsEvents = new Map<string, Event[]>();
    const stops: (() => void)[] = [];

    beforeAll(async () => {
      installMissing([...SPECS, { name: 'slapd', packages: ['slapd'], binary: '/usr/sbin/slapd', prepare: () => [] }]);
      dir = mkdtempSync(path.join(tmpdir(), 'vigil-lab-js-'));
      servers = await startAll(dir, SPECS);
      const files = [
        ...new Set([...HITS, ...MISSES].filter((p) => !(p.server in SLAPD)).map((p) => path.join(corpus, p.file))),
      ];
      const targets = [...servers.values()].map((s) => `127.0.0.1:${new URL(s.url).port}`);
      events = await vigilScan(files, targets);
      await ldapLab();
    }, 600_000);

    afterAll(async () => {
      for (const stop of stops) stop();
      await Promise.all([...(servers?.values() ?? [])].map((s) => s.stop()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const eventsFor = (p: Pair) => {
      if (p.server in SLAPD) return (nsEvents.get(p.server) ?? []).filter((e) => e['template-id'] === p.id);
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
