// The javascript protocol's modules against the ways out: a template's script reaches the network only
// through nuclei/<name> modules, and every module call is held to the scan's deny list (decided on the
// address actually connected to) and to the scan's target; the sandbox's time and memory caps hold while
// a module call is pending. Real servers on 127.0.0.1 count what reached them.
import dgram from 'node:dgram';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../src/engine/template/parse.ts';
import { runScan } from '../../src/engine/runner.ts';
import type { ResultEvent } from '../../src/engine/output/types.ts';
import type { EgressPolicy } from '../../src/engine/net/policy.ts';
import { runTemplateScript } from '../../src/engine/protocols/javascript/script.ts';
import { SANDBOX_MEMORY_BYTES } from '../../src/engine/js/limits.ts';

let tcp: net.Server;
let udp: dgram.Socket;
let port = 0;
let accepted = 0;
let datagrams = 0;
const sockets = new Set<net.Socket>();
let mode: 'silent' | 'flood' = 'silent';

beforeAll(async () => {
  tcp = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    if (mode === 'flood') {
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const pump = () => {
        while (!s.destroyed && s.write(chunk));
      };
      s.on('drain', pump);
      pump();
    }
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  port = (tcp.address() as net.AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', () => datagrams++);
  await new Promise<void>((r) => udp.bind(port, '127.0.0.1', () => r()));
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  tcp.close();
  udp.close();
});

function tpl(id: string, call: string) {
  const res = parseTemplate(
    `id: ${id}
info: { name: ${id}, author: vigil, severity: info }
javascript:
  - code: |
      let r;
      try { ${call}; r = 'reached'; } catch (e) { r = 'blocked: ' + e.message; }
      r
    args:
      Host: "{{Host}}"
      Port: "1"
    matchers:
      - type: word
        words: ["blocked:"]
`,
    `${id}.yaml`,
  );
  expect(res.issues).toEqual([]);
  return res.template!;
}

async function scan(templates: ReturnType<typeof tpl>[], egress?: EgressPolicy): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets: [`127.0.0.1:${port}`],
    templates,
    allowUnsigned: true, // hand-written templates carry no signature
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    egress,
    onResult: (e) => events.push(e),
  });
  return events;
}

/** One call per module that connects, each to the address given. */
function calls(addr: (host: string) => string) {
  const h = (x: string) => JSON.stringify(addr(x));
  return {
    'net-tcp': `require('nuclei/net').Open('tcp', ${h('hp')})`,
    'net-tls': `require('nuclei/net').OpenTLS('tcp', ${h('hp')})`,
    'net-udp': `require('nuclei/net').Open('udp', ${h('hp')}).Send('x')`,
    'port-open': `isPortOpen(${h('h')}, Port)`,
    'udp-port-open': `isUDPPortOpen(${h('h')}, Port)`,
    redis: `require('nuclei/redis').GetServerInfo(${h('h')}, Port)`,
    'redis-auth': `require('nuclei/redis').IsAuthenticated(${h('h')}, Port)`,
    ssh: `require('nuclei/ssh').SSHClient().ConnectSSHInfoMode(${h('h')}, Port)`,
    'ssh-login': `require('nuclei/ssh').SSHClient().Connect(${h('h')}, Port, 'root', 'x')`,
    postgres: `require('nuclei/postgres').PGClient().Connect(${h('h')}, Port, 'postgres', '')`,
    mysql: `require('nuclei/mysql').MySQLClient().FingerprintMySQL(${h('h')}, Port)`,
    'mysql-login': `require('nuclei/mysql').MySQLClient().Connect(${h('h')}, Port, 'root', '')`,
    rsync: `if (!require('nuclei/rsync').IsRsync(${h('h')}, Port).IsRsync) throw new Error('no rsync')`,
    rdp: `require('nuclei/rdp').IsRDP(${h('h')}, Port)`,
    'rdp-auth': `require('nuclei/rdp').CheckRDPAuth(${h('h')}, Port)`,
    'rdp-encryption': `if (!require('nuclei/rdp').CheckRDPEncryption(${h('h')}, Port).SSL) throw new Error('no rdp')`,
    mssql: `require('nuclei/mssql').MSSQLClient().IsMssql(${h('h')}, Port)`,
    'mssql-login': `if (!require('nuclei/mssql').MSSQLClient().Connect(${h('h')}, Port, 'sa', 'x')) throw new Error('no login')`,
    'mssql-query': `require('nuclei/mssql').MSSQLClient().ExecuteQuery(${h('h')}, Port, 'sa', 'x', 'master', 'select 1')`,
    oracle: `if (!require('nuclei/oracle').IsOracle(${h('h')}, Port).IsOracle) throw new Error('no oracle')`,
    pop3: `if (!require('nuclei/pop3').IsPOP3(${h('h')}, Port).IsPOP3) throw new Error('no pop3')`,
    ldap: `require('nuclei/ldap').Client('ldap://' + ${h('hp')}, 'x').Authenticate('', '')`,
    ldaps: `new (require('nuclei/ldap').Client)('ldaps://' + ${h('hp')}, 'x')`,
    'smb-info': `if (require('nuclei/smb').SMBClient().ConnectSMBInfoMode(${h('h')}, Port) === null) throw new Error('no smb')`,
    'smb-meta': `require('nuclei/smb').SMBClient().ListSMBv2Metadata(${h('h')}, Port)`,
    'smb-shares': `require('nuclei/smb').SMBClient().ListShares(${h('h')}, Port, 'guest', '')`,
    smtp: `const smtp = require('nuclei/smtp'); new smtp.Client(${h('h')}, Port).SendMail(new smtp.SMTPMessage().From('a@b.c').To('d@e.f').Body('x'))`,
  };
}

describe('javascript modules: the deny list', () => {
  it('every module is refused a denied address (the target itself here), and nothing reaches the server', async () => {
    const before = { accepted, datagrams };
    const list = Object.entries(calls((x) => (x === 'hp' ? `127.0.0.1:${port}` : '127.0.0.1')));
    const events = await scan(
      list.map(([id, call]) => tpl(id, call)),
      { deny: [{ target: '127.0.0.0/8', reason: 'test: loopback denied' }] },
    );
    expect(events.map((e) => e['template-id']).sort()).toEqual(list.map(([id]) => id).sort());
    for (const e of events) expect(String(e.response)).toMatch(/refused: test: loopback denied/);
    expect({ accepted, datagrams }).toEqual(before);
  });
});

describe('javascript modules: the scan target', () => {
  it('a script cannot connect to another host than the target, by name or by address', async () => {
    const before = { accepted, datagrams };
    for (const other of ['localhost', '127.0.0.2', '::1', '10.0.0.1', 'metadata.google.internal']) {
      const list = Object.entries(
        calls((x) => (x === 'hp' ? `${other.includes(':') ? `[${other}]` : other}:${port}` : other)),
      );
      const events = await scan(list.map(([id, call]) => tpl(`${id}-${other.replace(/\W/g, '')}`, call)));
      expect(events).toHaveLength(list.length);
      for (const e of events) expect(String(e.response)).toMatch(/not the scan's target/);
    }
    expect({ accepted, datagrams }).toEqual(before);
  });

  it('the fs module reads nothing for a template given as text (test/security/javascript-fs.test.ts for the rest)', async () => {
    const events = await scan([tpl('fs', `require('nuclei/fs').ReadFile('/etc/passwd')`)]);
    expect(String(events[0]?.response)).toMatch(
      /blocked: fs: \/etc\/passwd refused: this template was not read from a templates folder/,
    );
  });
});

describe('javascript modules: a hostile SMB server', () => {
  it('a server announcing a 15 MiB message and streaming it is refused at its header, not buffered', async () => {
    const flood = net.createServer((s) => {
      s.on('error', () => {});
      const head = Buffer.alloc(4);
      head.writeUInt32BE(0x00f00000, 0); // a message of 15 MiB announced, bytes streamed without end
      s.write(head);
      const chunk = Buffer.alloc(256 * 1024);
      const pump = () => {
        while (!s.destroyed && s.write(chunk));
      };
      s.on('drain', pump);
      pump();
    });
    await new Promise<void>((r) => flood.listen(0, '127.0.0.1', () => r()));
    try {
      const before = process.memoryUsage().rss;
      const out = await runTemplateScript(`require('nuclei/smb').SMBClient().ListShares(Host, Port, 'a', 'b')`, {
        args: { Host: '127.0.0.1', Port: String((flood.address() as net.AddressInfo).port) },
        template: {},
        targetHost: '127.0.0.1',
        callTimeoutMs: 5000,
        timeoutMs: 20_000,
      });
      expect(out.success).toBe(false);
      expect(out.error).toMatch(/message too large/);
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    } finally {
      flood.close();
    }
  });
});

describe('javascript modules: the sandbox caps hold during a module call', () => {
  it('a read that would wait ten minutes ends at the script deadline, and its socket is closed', async () => {
    mode = 'silent';
    const started = Date.now();
    const out = await runTemplateScript(
      `const c = require('nuclei/net').Open('tcp', Host + ':' + Port); c.SetTimeout(600); c.RecvFull(100);`,
      {
        args: { Host: '127.0.0.1', Port: String(port) },
        template: {},
        targetHost: '127.0.0.1',
        callTimeoutMs: 3000,
        timeoutMs: 1500,
      },
    );
    expect(out.success).toBe(false);
    expect(out.error).toMatch(/deadline|stopped/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => sockets.size, { timeout: 3000 }).toBe(0);
  });

  it('a script that piles up what a flooding server sends runs out of sandbox memory, not host memory', async () => {
    mode = 'flood';
    try {
      const heapBefore = process.memoryUsage().rss;
      const out = await runTemplateScript(
        `const c = require('nuclei/net').Open('tcp', Host + ':' + Port); const parts = []; for (;;) parts.push(c.RecvString(4194304));`,
        {
          args: { Host: '127.0.0.1', Port: String(port) },
          template: {},
          targetHost: '127.0.0.1',
          callTimeoutMs: 3000,
          timeoutMs: 60_000,
        },
      );
      expect(out.success).toBe(false);
      expect(out.error).toMatch(/out of memory|larger than/);
      // The host kept no more than a few times the sandbox's cap.
      expect(process.memoryUsage().rss - heapBefore).toBeLessThan(SANDBOX_MEMORY_BYTES * 8);
      await expect.poll(() => sockets.size, { timeout: 3000 }).toBe(0);
    } finally {
      mode = 'silent';
    }
  });
});
