// The network (tcp) protocol against real TCP and TLS servers on 127.0.0.1 that speak small protocols:
// the syntax reference's example, text and hex inputs, named reads, read-size, read-all, tls://,
// payloads, ports, and corpus templates with their expected results.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { localhostCert } from '../../../helpers/certs.ts';
import { hasShared } from '../../../helpers/shared.ts';
import { corpusTemplate, tpl } from '../../../helpers/templates.ts';

async function scan(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 2, onResult: (e) => events.push(e), ...extra });
  return events;
}

type Speak = (socket: net.Socket, received: Buffer[]) => void;

const closers: (() => void)[] = [];
afterAll(() => {
  for (const c of closers) c();
});

/** A TCP (or TLS) server on 127.0.0.1; `speak` runs per connection; every byte received is kept. */
async function server(speak: Speak, useTls = false): Promise<{ addr: string; port: number; received: Buffer[][] }> {
  const received: Buffer[][] = [];
  const onConn = (s: net.Socket) => {
    const mine: Buffer[] = [];
    received.push(mine);
    s.on('error', () => {});
    speak(s, mine);
  };
  const srv = useTls ? tls.createServer({ ...localhostCert() }, onConn) : net.createServer(onConn);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  closers.push(() => srv.close());
  return { addr: `127.0.0.1:${port}`, port, received };
}

/** Replies to each line received with `reply(line)`; a null reply closes the connection. */
function lines(reply: (line: string, s: net.Socket) => string | null, banner?: string): Speak {
  return (s, mine) => {
    if (banner) s.write(banner);
    let buf = '';
    s.on('data', (d: Buffer) => {
      mine.push(d);
      buf += d.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        const out = reply(line, s);
        if (out === null) s.end();
        else if (out) s.write(out);
      }
    });
  };
}

describe('network protocol', () => {
  it('the syntax reference example: zookeeper `envi` on {{Hostname}} (the :2181 address fails to connect)', async () => {
    const zk = await server(
      lines((l) =>
        l === 'envi' ? 'Environment:\nzookeeper.version=3.4.14\nhost.name=zk\n' : l === 'quit' ? null : '',
      ),
    );
    const t = tpl(`id: zk
info: {name: zk, author: a, severity: info}
network:
  - host:
      - '{{Hostname}}'
      - '{{Hostname}}:2181'
    inputs:
      - data: "envi\\r\\nquit\\r\\n"
    read-size: 2048
    matchers:
      - type: word
        words:
          - zookeeper.version
`);
    const events = await scan([t], [zk.addr]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'tcp',
      host: zk.addr,
      'matched-at': zk.addr,
      request: 'envi\r\nquit\r\n',
      ip: '127.0.0.1',
    });
    expect(events[0].response).toContain('zookeeper.version=3.4.14');
    expect(Buffer.concat(zk.received[0]).toString()).toBe('envi\r\nquit\r\n');
  });

  it('hex inputs, named reads and internal extractors feeding the next input; matchers on raw and named parts', async () => {
    const srv = await server((s, mine) => {
      s.write(Buffer.from('HELLO token=abc123\n'));
      s.on('data', (d: Buffer) => {
        mine.push(d);
        const all = Buffer.concat(mine);
        if (all.length >= 3 && all[0] === 0xca && all[1] === 0xfe) {
          const rest = all.subarray(2).toString();
          if (rest.endsWith('\n')) s.end(rest.trim() === 'AUTH abc123' ? 'WELCOME admin\n' : 'DENIED\n');
        }
      });
    });
    const t = tpl(`id: chain
info: {name: chain, author: a, severity: info}
tcp:
  - host: ["{{Hostname}}"]
    inputs:
      - data: ""
        read: 64
        name: banner
      - data: "cafe"
        type: hex
      - data: "AUTH {{token}}\\n"
    read-size: 64
    matchers-condition: and
    matchers:
      - type: word
        part: banner
        words: ["HELLO"]
      - type: word
        words: ["WELCOME admin"]
      - type: dsl
        dsl: ['contains(raw, "HELLO token=abc123") && contains(raw, "WELCOME")']
    extractors:
      - type: regex
        name: token
        internal: true
        part: banner
        group: 1
        regex: ['token=(\\w+)']
      - type: regex
        part: data
        regex: ['WELCOME \\w+']
`);
    const events = await scan([t], [srv.addr]);
    expect(events).toHaveLength(1);
    expect(events[0]['extracted-results']).toEqual(['WELCOME admin']);
    expect(events[0].request).toBe('cafeAUTH abc123\n');
  });

  it('read-size caps the read; read-all reads until the server closes', async () => {
    const srv = await server((s) => {
      s.write('A'.repeat(100));
      setTimeout(() => s.end(`${'B'.repeat(100)}END`), 50);
    });
    const mk = (extra: string) =>
      tpl(`id: rs
info: {name: rs, author: a, severity: info}
tcp:
  - host: ["{{Hostname}}"]
    ${extra}
    extractors:
      - type: dsl
        dsl: [len(data)]
`);
    expect((await scan([mk('read-size: 10')], [srv.addr]))[0]['extracted-results']).toEqual(['10']);
    expect((await scan([mk('read-all: true')], [srv.addr]))[0]['extracted-results']).toEqual(['203']);
  });

  it('read-all keeps at most 4 MiB of a server that sends more', async () => {
    const srv = await server((s) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      for (let i = 0; i < 6; i++) s.write(chunk);
      s.end();
    });
    const t = tpl(`id: big
info: {name: big, author: a, severity: info}
tcp:
  - host: ["{{Hostname}}"]
    read-all: true
    matchers:
      - type: dsl
        dsl: [len(data) == 4194304]
`);
    expect(await scan([t], [srv.addr])).toHaveLength(1);
  });

  it('tls:// addresses talk TLS; plain ones do not', async () => {
    const srv = await server((s) => s.end('SECURE-BANNER\n'), true);
    const t = tpl(`id: tls
info: {name: tls, author: a, severity: info}
tcp:
  - host: ["tls://{{Hostname}}", "{{Host}}:{{Port}}"]
    matchers:
      - type: word
        words: [SECURE-BANNER]
`);
    const events = await scan([t], [srv.addr]);
    expect(events).toHaveLength(1);
    expect(events[0]['matched-at']).toBe(srv.addr);
  });

  it('payloads: one connection per value (pitchfork), matching the one the server accepts', async () => {
    const srv = await server(lines((l) => (l === 'LOGIN root toor' ? 'OK\n' : 'NO\n')));
    const t = tpl(`id: brute
info: {name: brute, author: a, severity: info}
tcp:
  - host: ["{{Hostname}}"]
    attack: pitchfork
    payloads:
      user: [admin, root, guest]
      pass: [admin, toor, guest]
    inputs:
      - data: "LOGIN {{user}} {{pass}}\\n"
    matchers:
      - type: word
        words: ["OK"]
    extractors:
      - type: dsl
        dsl: ['user + ":" + pass']
`);
    const events = await scan([t], [srv.addr]);
    expect(events.map((e) => e['extracted-results'])).toEqual([['root:toor']]);
    expect(srv.received).toHaveLength(3);
  });

  it('port: the template port replaces a reserved input port; several ports keep the open ones', async () => {
    const srv = await server((s) => s.end('PORT-OK\n'));
    const t = (port: string) =>
      tpl(`id: port
info: {name: port, author: a, severity: info}
tcp:
  - host: ["{{Hostname}}"]
    port: ${port}
    matchers:
      - type: word
        words: [PORT-OK]
`);
    expect(await scan([t(String(srv.port))], ['http://127.0.0.1:8080'])).toHaveLength(1);
    expect(await scan([t(String(srv.port))], ['127.0.0.1'])).toHaveLength(1);
    expect(await scan([t(`9,${srv.port}`)], ['127.0.0.1'])).toHaveLength(1);
    const fail = await scan([t('9')], ['127.0.0.1'], { matcherStatus: true });
    expect(fail[0]['matcher-status']).toBe(false);
    expect(fail[0].error).toMatch(/could not connect/);
  });
});

describe('multi-protocol templates', () => {
  it('a tcp block then an http block: the http matchers see tcp_data and the tcp internal extractor', async () => {
    const banner = await server((s) => s.end('SERVICE v2.5.1 ready\n'));
    const http = await import('node:http');
    const web = http.createServer((q, res) => res.end(q.url === '/v/2.5.1' ? 'version page' : 'no'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    closers.push(() => web.close());
    const port = (web.address() as net.AddressInfo).port;
    const t = tpl(`id: multi
info: {name: multi, author: a, severity: info}
tcp:
  - host: ["127.0.0.1:${banner.port}"]
    extractors:
      - type: regex
        name: ver
        internal: true
        group: 1
        regex: ['v([\\d.]+)']
http:
  - method: GET
    path: ["{{BaseURL}}/v/{{ver}}"]
    matchers:
      - type: dsl
        dsl: ['contains(http_body, "version page") && contains(tcp_data, "SERVICE") && status_code == 200']
`);
    const events = await scan([t], [`http://127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('http');
    expect(events[0]['matched-at']).toBe(`http://127.0.0.1:${port}/v/2.5.1`);
  });
});

describe.runIf(hasShared('corpus/nuclei-templates/network'))('corpus network templates against local servers', () => {
  const cases: [string, () => Promise<string>, (e: ResultEvent[]) => void][] = [
    [
      'network/exposures/exposed-zookeeper.yaml',
      async () =>
        (
          await server(
            lines((l) => (l === 'envi' ? 'Environment:\nzookeeper.version=3.8.0\n' : l === 'quit' ? null : '')),
          )
        ).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/detection/openssh-detect.yaml',
      async () => (await server((s) => s.write('SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.1\r\n'))).addr,
      (e) => expect(e[0]['extracted-results']).toEqual(['SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.1']),
    ],
    [
      'network/detection/openssh-detect.yaml',
      async () => (await server((s) => s.write('SSH-2.0-dropbear_2022.83\r\n'))).addr,
      (e) => expect(e).toHaveLength(0),
    ],
    [
      'network/detection/mysql-detect.yaml',
      async () =>
        (
          await server((s) =>
            s.write(
              Buffer.concat([Buffer.from([0x4a, 0, 0, 0, 0x0a]), Buffer.from('8.0.36-MySQL Community Server\0')]),
            ),
          )
        ).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/detection/redis-detect.yaml',
      async () => (await server(lines((l) => (l === 'info' ? '-NOAUTH Authentication required.\r\n' : '')))).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/detection/mongodb-detect.yaml',
      async () =>
        (
          await server((s, mine) =>
            s.on('data', (d: Buffer) => {
              mine.push(d);
              // Answers only the isMaster query the template sends in hex.
              if (d.includes(Buffer.from('ismaster')))
                s.write('\x00\x00ismaster\x00localTime\x00logicalSessionTimeoutMinutes\x00');
            }),
          )
        ).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/default-login/ftp-anonymous-login.yaml',
      async () =>
        (
          await server(
            lines((l) =>
              l.startsWith('USER')
                ? '331 Anonymous login ok, send your email as password.\r\n'
                : '230 Anonymous access granted, restrictions apply.\r\n',
            ),
          )
        ).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/default-login/ftp-anonymous-login.yaml',
      async () =>
        (await server(lines((l) => (l.startsWith('USER') ? '331 Password required.\r\n' : '530 Login incorrect.\r\n'))))
          .addr,
      (e) => expect(e).toHaveLength(0),
    ],
    [
      'network/cves/2015/CVE-2015-3306.yaml',
      async () =>
        (
          await server(
            lines(
              (l) =>
                l.startsWith('site cpfr')
                  ? '350 File or directory exists, ready for destination name\r\n'
                  : l.startsWith('site cpto /tmp/.') || l.startsWith('site cpto /var/www/html/')
                    ? '250 Copy successful\r\n'
                    : '500 unknown\r\n',
              '220 ProFTPD 1.3.5 Server (Debian)\r\n',
            ),
          )
        ).addr,
      (e) => expect(e).toHaveLength(1),
    ],
    [
      'network/cves/2015/CVE-2015-3306.yaml',
      async () => (await server(lines(() => '550 Permission denied\r\n', '220 ProFTPD 1.3.6 Server\r\n'))).addr,
      (e) => expect(e).toHaveLength(0),
    ],
    // Banner and request/response services: the server answers only the bytes the template must send.
    ...(
      [
        ['network/detection/smtp-detect.yaml', { banner: '220 mail.vigil.test ESMTP Postfix (Debian)\r\n' }, 1],
        ['network/detection/esmtp-detect.yaml', { banner: '220 mail.vigil.test ESMTP Postfix (Debian)\r\n' }, 1],
        ['network/detection/esmtp-detect.yaml', { banner: '220 mail.vigil.test ESMTP Exim 4.96\r\n' }, 0],
        ['network/detection/pop3-detect.yaml', { banner: '+OK Dovecot ready.\r\n' }, 1],
        [
          'network/detection/imap-detect.yaml',
          { banner: '* OK [CAPABILITY IMAP4rev1 LITERAL+ SASL-IR] Dovecot ready.\r\n' },
          1,
        ],
        [
          'network/detection/telnet-detect.yaml',
          { banner: 'Telnet server ready\r\nLogin authentication\r\nUsername: ' },
          1,
        ],
        ['network/detection/vnc-service-detect.yaml', { banner: 'RFB 003.008\n' }, ['RFB 003.008']],
        [
          'network/detection/sshd-dropbear-detect.yaml',
          { banner: 'SSH-2.0-dropbear_2022.83\r\n' },
          ['SSH-2.0-dropbear_2022.83'],
        ],
        [
          'network/detection/proftpd-server-detect.yaml',
          { banner: '220 ProFTPD Server (ProFTPD 1.3.5e Server) [::ffff:127.0.0.1]\r\n' },
          ['ProFTPD 1.3.5e Server'],
        ],
        [
          'network/detection/rsyncd-service-detect.yaml',
          { on: '?\r\n', reply: '@RSYNCD: 31.0\n@ERROR: protocol startup error\n' },
          ['RSYNCD: 31.0'],
        ],
        [
          'network/detection/finger-detect.yaml',
          { on: '\n', reply: 'Login     Name       Tty      Idle\nUser Action Node listing\n' },
          1,
        ],
        [
          'network/detection/gopher-detect.yaml',
          { on: '\r\n', reply: 'iWelcome to the Gopher server\tfake\t(NULL)\t0\r\n.\r\n' },
          1,
        ],
        [
          'network/detection/clamav-detect.yaml',
          { on: 'VERSION', reply: 'ClamAV 0.103.8/26830/Mon Mar  6 08:43:02 2023\n' },
          ['ClamAV 0.103.8'],
        ],
        ['network/detection/clamav-detect.yaml', { on: 'NOPE', reply: 'ClamAV 0.103.8\n' }, 0],
        [
          'network/detection/rtsp-detect.yaml',
          { on: 'OPTIONS sip:nm SIP/2.0\r\n', reply: 'RTSP/1.0 200 OK\r\nCSeq: 42\r\n\r\n' },
          1,
        ],
        [
          'network/detection/riak-detect.yaml',
          { on: '\x00\x00\x00\x01\x07', reply: '\x00\x00\x00\x1a\x08riak@127.0.0.1\x12\x052.9.0p5' },
          ['riak@127.0.0.1\x12\x052.9.0p5'],
        ],
        [
          'network/detection/pgsql-detect.yaml',
          {
            on: '\x00\x00\x00\x50\x00\x03\x00\x00user\x00nuclei',
            reply:
              'E\x00\x00\x00\x40SFATAL\x00C28000\x00Mno pg_hba.conf entry for host "127.0.0.1", user "nuclei"\x00\x00',
          },
          1,
        ],
        [
          'network/exposures/exposed-redis.yaml',
          { on: 'info\r\nquit\r\n', reply: '$3000\r\n# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n' },
          1,
        ],
        [
          'network/exposures/exposed-redis.yaml',
          { on: 'info\r\nquit\r\n', reply: '$3000\r\n# Server\r\nredis_version:7.2.4\r\nredis_mode:sentinel\r\n' },
          0,
        ],
        [
          'network/exposures/exposed-adb.yaml',
          {
            on: 'host::features=shell_v2',
            reply: 'CNXN\x00\x00\x00\x01device::ro.product.name=sdk;ro.product.model=Pixel;features=shell_v2',
          },
          1,
        ],
        [
          'network/detection/java-rmi-detect.yaml',
          { on: 'JRMI\x00\x02K', reply: 'N\x00\x0e127.0.0.1\x00\x00\xc3\x50' },
          1,
        ],
        [
          'network/detection/weblogic-t3-detect.yaml',
          { on: 't3 12.2.1\nAS:255', reply: 'HELO:12.2.1.3.false\nAS:2048\nHL:19\n\n' },
          ['12.2.1.3'],
        ],
        [
          'network/cves/2004/CVE-2004-2687.yaml',
          {
            on: 'DIST00000001ARGC00000008',
            reply: 'DONE00000001STAT00000000SERR00000000SOUT00000039uid=0(root) gid=0(root) groups=0(root)\n',
          },
          1,
        ],
        [
          'network/cves/2004/CVE-2004-2687.yaml',
          { on: 'DIST00000001ARGC00000008', reply: 'DONE00000001STAT00000001SERR00000010access denied\n' },
          0,
        ],
        [
          'network/cves/2020/CVE-2020-1938.yaml',
          {
            on: '\x12\x34\x02\x0e',
            reply:
              'AB\x1f\xfc\x03<!-- Licensed to the Apache Software Foundation (ASF) under one or more\n  contributor license agreements.  See the NOTICE file distributed with',
          },
          1,
        ],
      ] as [string, { banner?: string; on?: string; reply?: string }, number | string[]][]
    ).map(([file, spec, want]): [string, () => Promise<string>, (e: ResultEvent[]) => void] => [
      file,
      async () =>
        (
          await server((s, mine) => {
            if (spec.banner) s.write(Buffer.from(spec.banner, 'latin1'));
            s.on('data', (d: Buffer) => {
              mine.push(d);
              if (spec.on && Buffer.concat(mine).includes(Buffer.from(spec.on, 'latin1')))
                s.write(Buffer.from(spec.reply!, 'latin1'));
            });
          })
        ).addr,
      (e) =>
        typeof want === 'number' ? expect(e).toHaveLength(want) : expect(e[0]?.['extracted-results']).toEqual(want),
    ]),
  ];
  for (const [file, start, check] of cases) {
    it(file, async () => {
      check(await scan([corpusTemplate(file)], [await start()]));
    });
  }
});
