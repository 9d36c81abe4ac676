// The deny list decides on the address actually connected to. A receiver on 127.0.0.1 plays the
// platform's own API port; the platform's own policy (scanEgress) is given to the engine, and templates
// try to reach the receiver in every spelling and by every road: absolute URL paths, raw and unsafe
// requests, redirects, a name a DNS server (started here) resolves to it, tcp, ssl, websocket, whois, dns
// resolvers, jarm; then platform scans and discovery. The denied side is proven by the receiver seeing
// no connection at all, and the error saying which address was refused and why. Scan creation refuses
// every spelling of a denied target with a 400.
import dgram from 'node:dgram';
import net from 'node:net';
import os from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, startHttpsServer, startSocks5, type TestServer } from '../helpers/targets.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { tpl } from '../helpers/templates.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createScanApp, type ScanTestApp } from '../platform/scans/fixtures.ts';
import { runScan, closeClients, type Template, type EgressPolicy } from '../../src/engine/index.ts';
import { scanEgress } from '../../src/platform/shared/deny.ts';
import { runDiscovery } from '../../src/discovery/run.ts';

/** A TCP (and UDP) port that records every connection and datagram: the "API" nothing may reach. */
async function startReceiver(): Promise<{
  port: number;
  connections: string[];
  datagrams: number;
  close(): Promise<void>;
}> {
  const connections: string[] = [];
  const server = net.createServer((s) => {
    s.on('error', () => {});
    s.once('data', (d) => {
      connections.push(d.toString('latin1').split('\r\n')[0]!);
      s.end('HTTP/1.1 200 OK\r\ncontent-length: 16\r\nconnection: close\r\n\r\nINTERNAL-SECRET!');
    });
  });
  server.on('connection', () => connections.push('connect'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const udp = dgram.createSocket('udp4');
  const out = { port, connections, datagrams: 0, close: async () => {} };
  udp.on('message', () => out.datagrams++);
  await new Promise<void>((r) => udp.bind(port, '127.0.0.1', r));
  out.close = async () => {
    udp.close();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return out;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let site: TestServer;
let dns: DnsTestServer;
let policy: EgressPolicy;

beforeAll(async () => {
  receiver = await startReceiver();
  const P = receiver.port;
  site = await startHttpServer((req, res) => {
    if (req.url === '/go') {
      res.statusCode = 302;
      res.setHeader('location', `http://[::ffff:127.0.0.1]:${P}/secret`);
      return res.end();
    }
    if (req.url === '/go-name') {
      res.statusCode = 302;
      res.setHeader('location', `http://api.internal.test:${P}/secret`);
      return res.end();
    }
    res.end('PUBLIC-PAGE');
  });
  dns = await startDnsServer({
    records: {
      'api.internal.test': [{ type: 'A', data: '127.0.0.1' }],
      'site.internal.test': [{ type: 'A', data: '127.0.0.1' }],
    },
  });
  // The platform's own rules with the receiver as its API port, names resolved through the test's DNS.
  policy = {
    ...scanEgress({ port: P, host: '127.0.0.1', denyTargets: [], allowDeniedTargets: false }),
    resolvers: [dns.resolver],
  };
});

afterAll(async () => {
  await closeClients();
  await Promise.all([receiver?.close(), site?.close(), dns?.close()]);
});

/** Runs templates on targets under the policy; returns each attempt's error and the events. */
async function scan(
  templates: Template[],
  targets: string[],
  egress: EgressPolicy | null = policy,
  socks5Proxy?: string,
) {
  const errors: string[] = [];
  const events: Record<string, unknown>[] = [];
  await runScan({
    targets,
    templates,
    egress: egress ?? undefined,
    rateLimit: 0,
    timeout: 3,
    retries: 1,
    socks5Proxy,
    onResult: (e) => events.push(e as never),
    onAttempt: (a) => a.error && errors.push(a.error),
  });
  return { errors, events };
}

const REFUSED = "refused: this platform's own API port";

// Each test starts with a receiver that has seen nothing.
beforeEach(() => {
  receiver.connections.length = 0;
  receiver.datagrams = 0;
});

describe('connections the engine makes are decided on the address connected to', () => {
  it('control: without a policy the receiver is reached (so it can tell)', async () => {
    const before = receiver.connections.length;
    await scan(
      [
        tpl(`id: control
info: {name: c, author: v, severity: info}
http:
  - path: ["http://2130706433:${receiver.port}/healthz"]
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [site.url],
      null,
    );
    expect(receiver.connections.length).toBeGreaterThan(before);
  });

  it('absolute URLs in template paths: every spelling of the own port is refused, the target is still scanned', async () => {
    const P = receiver.port;
    const spellings = [
      `http://127.0.0.1:${P}/healthz`,
      `http://2130706433:${P}/a`,
      `http://[::ffff:127.0.0.1]:${P}/b`,
      `http://0x7f.1:${P}/c`,
      `http://127.1:${P}/d`,
      `http://localhost.:${P}/e`,
      `http://LOCALHOST:${P}/f`,
      `http://0.0.0.0:${P}/g`,
      `http://[::]:${P}/h`,
      `https://[::ffff:7f00:1]:${P}/i`,
    ];
    const { errors, events } = await scan(
      [
        tpl(`id: absolute
info: {name: a, author: v, severity: info}
http:
  - path: [${spellings.map((s) => `"${s}"`).join(', ')}, "{{BaseURL}}/public"]
    matchers: [{type: word, words: [INTERNAL-SECRET, PUBLIC-PAGE]}]
`),
      ],
      [site.url],
    );
    expect(receiver.connections).toEqual([]);
    expect(site.requests.some((r) => r.url === '/public')).toBe(true);
    expect(events.map((e) => e['matched-at'])).toEqual([`${site.url}/public`]);
    // The attempt matched (the public page); each refused request said why in the meantime.
    expect(errors).toEqual([]);
  });

  it('refused requests fail the attempt with the address and the reason', async () => {
    const { errors } = await scan(
      [
        tpl(`id: only-internal
info: {name: a, author: v, severity: info}
http:
  - path: ["http://2130706433:${receiver.port}/x"]
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [site.url],
    );
    expect(receiver.connections).toEqual([]);
    expect(errors).toEqual([`connection to 127.0.0.1 port ${receiver.port} ${REFUSED}`]);
  });

  it('raw requests (absolute request line, Host header only, unsafe) in self-contained templates', async () => {
    const P = receiver.port;
    const { errors } = await scan(
      [
        tpl(`id: raw-absolute
info: {name: r, author: v, severity: info}
self-contained: true
http:
  - raw:
      - |
        GET http://[::ffff:127.0.0.1]:${P}/healthz HTTP/1.1
        Host: x

    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
        tpl(`id: raw-host
info: {name: r, author: v, severity: info}
self-contained: true
http:
  - raw:
      - |
        GET /healthz HTTP/1.1
        Host: 2130706433:${P}

    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
        tpl(`id: raw-unsafe
info: {name: r, author: v, severity: info}
self-contained: true
http:
  - unsafe: true
    raw:
      - |
        GET http://localhost:${P}/healthz HTTP/1.1
        Host: x

    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [],
    );
    expect(receiver.connections).toEqual([]);
    expect(errors).toHaveLength(3);
    for (const e of errors) expect(e).toContain(REFUSED);
  });

  it('redirects: a hop to a denied address is not followed; the first response is still matched', async () => {
    const { errors, events } = await scan(
      [
        tpl(`id: redirect
info: {name: r, author: v, severity: info}
http:
  - path: ["{{BaseURL}}/go", "{{BaseURL}}/go-name"]
    redirects: true
    max-redirects: 3
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [site.url],
    );
    expect(site.requests.filter((r) => r.url === '/go' || r.url === '/go-name')).toHaveLength(2);
    expect(receiver.connections).toEqual([]);
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(REFUSED);
  });

  it('a name the DNS answers with a denied address is refused, naming both; an allowed one is reached', async () => {
    const { errors } = await scan(
      [
        tpl(`id: by-name
info: {name: n, author: v, severity: info}
http:
  - path: ["http://api.internal.test:${receiver.port}/x"]
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [site.url],
    );
    expect(receiver.connections).toEqual([]);
    expect(errors).toEqual([`connection to api.internal.test (127.0.0.1) port ${receiver.port} ${REFUSED}`]);
    const ok = await scan(
      [
        tpl(`id: by-name-ok
info: {name: n, author: v, severity: info}
http:
  - path: ["http://site.internal.test:${site.port}/named"]
    matchers: [{type: word, words: [PUBLIC-PAGE]}]
`),
      ],
      [site.url],
    );
    expect(ok.events).toHaveLength(1);
    expect(site.requests.some((r) => r.url === '/named' && r.headers.host === `site.internal.test:${site.port}`)).toBe(
      true,
    );
  });

  it('through a SOCKS proxy (the undici path): a denied destination is never asked of it, a proxy on a denied address never dialled', async () => {
    const socks = await startSocks5();
    try {
      const reach = tpl(`id: via-proxy
info: {name: p, author: v, severity: info}
http:
  - path: ["http://2130706433:${receiver.port}/x", "{{BaseURL}}/via-proxy"]
    matchers: [{type: word, words: [INTERNAL-SECRET, PUBLIC-PAGE]}]
`);
      const { events } = await scan([reach], [site.url], policy, `socks5://127.0.0.1:${socks.port}`);
      expect(socks.seen).toEqual([`127.0.0.1:${site.port}`]);
      expect(events.map((e) => e['matched-at'])).toEqual([`${site.url}/via-proxy`]);
      const viaOwnPort = await scan([reach], [site.url], policy, `socks5://[::ffff:127.0.0.1]:${receiver.port}`);
      expect(viaOwnPort.errors).toEqual([
        `socks5 proxy: connection to [::ffff:7f00:1] (127.0.0.1) port ${receiver.port} ${REFUSED}`,
      ]);
    } finally {
      await closeClients(); // the proxied keep-alive connection, so the proxy can close
      await socks.close();
    }
    expect(receiver.connections).toEqual([]);
  });

  it('tcp, ssl and websocket blocks', async () => {
    const P = receiver.port;
    const { errors } = await scan(
      [
        tpl(`id: tcp-in
info: {name: t, author: v, severity: info}
tcp:
  - host: ["2130706433:${P}", "tls://[::ffff:127.0.0.1]:${P}"]
    inputs: [{data: "PING\\r\\n"}]
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
        tpl(`id: ssl-in
info: {name: s, author: v, severity: info}
ssl:
  - address: "[::ffff:127.0.0.1]:${P}"
    matchers: [{type: dsl, dsl: ["true"]}]
`),
        tpl(`id: ws-in
info: {name: w, author: v, severity: info}
websocket:
  - address: "ws://2130706433:${P}/"
    inputs: [{data: hi}]
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`),
      ],
      [`ws://127.0.0.1:${site.port}/`],
    );
    expect(receiver.connections).toEqual([]);
    expect(errors).toHaveLength(3);
    for (const e of errors) expect(e).toContain(REFUSED);
  });

  it('whois servers, dns resolvers a template names, and jarm', async () => {
    const P = receiver.port;
    const { errors } = await scan(
      [
        tpl(`id: whois-in
info: {name: w, author: v, severity: info}
whois:
  - query: "example.com"
    server: "http://2130706433:${P}"
    matchers: [{type: word, words: [x]}]
`),
        tpl(`id: dns-in
info: {name: d, author: v, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    retries: 1
    resolvers: ["2130706433:${P}"]
    matchers: [{type: word, words: [x]}]
`),
        tpl(`id: jarm-in
info: {name: j, author: v, severity: info}
http:
  - path: ["{{BaseURL}}/"]
    matchers: [{type: dsl, dsl: ['jarm("2130706433:${P}") != ""']}]
`),
      ],
      ['example.com', site.url],
    );
    expect(receiver.connections).toEqual([]);
    expect(receiver.datagrams).toBe(0);
    expect(errors.filter((e) => e.includes(REFUSED)).length).toBeGreaterThanOrEqual(3);
  });
});

describe('discovery under the platform policy', () => {
  it('never connects to the own port: port scan, http probe redirects, tls', async () => {
    const redirecting = await startHttpsServer((_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', `http://[::ffff:127.0.0.1]:${receiver.port}/`);
      res.end();
    });
    try {
      const found = await runDiscovery({
        roots: ['127.0.0.1'],
        steps: ['port_scan', 'http_probe', 'tls_scan'],
        ports: `${receiver.port},${site.port},${redirecting.port}`,
        egress: policy,
        limits: { timeoutMs: 2000 },
      });
      expect(receiver.connections).toEqual([]);
      const ports = found
        .filter((a) => a.port)
        .map((a) => a.port)
        .sort();
      expect(ports).toEqual([site.port, redirecting.port].sort());
      // The redirect's own answer is kept; the hop it names was never made.
      expect(found.find((a) => a.port === redirecting.port)!.http?.status_code).toBe(302);
    } finally {
      await redirecting.close();
    }
  });
});

describe.runIf(existsSync(process.env.VIGIL_CHROMIUM || '/usr/bin/chromium'))(
  'the screenshot browser under the platform policy',
  () => {
    it(
      'loads the page, and no image, frame or script of it reaches a denied address',
      { timeout: 90_000 },
      async () => {
        const P = receiver.port;
        const page = await startHttpServer((_req, res) => {
          res.setHeader('content-type', 'text/html');
          res.end(
            `<html><body><h1>PAGE</h1><img src="http://127.0.0.1:${P}/pixel.png"><iframe src="http://[::ffff:127.0.0.1]:${P}/frame"></iframe>` +
              `<script>fetch('http://2130706433:${P}/xhr').catch(() => {}); new WebSocket('ws://localhost:${P}/ws');</script></body></html>`,
          );
        });
        try {
          const run = (egress: EgressPolicy | undefined) =>
            runDiscovery({
              roots: ['127.0.0.1'],
              steps: ['http_probe', 'http_screenshot'],
              ports: String(page.port),
              egress,
              limits: { timeoutMs: 5000 },
            });
          const found = await run(policy);
          expect(found.find((a) => a.port === page.port)?.screenshot?.length).toBeGreaterThan(100);
          expect(page.requests.some((r) => r.url === '/')).toBe(true);
          expect(receiver.connections).toEqual([]);
          // Control: without the policy the same page does reach the receiver.
          await run(undefined);
          expect(receiver.connections.length).toBeGreaterThan(0);
        } finally {
          await page.close();
        }
      },
    );
  },
);

describe('scan creation refuses every spelling of a denied target', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { port: 8085, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  const create = (target: string) =>
    t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: ['https://example.com', target],
        schedule_only: true,
        private_templates: [
          {
            name: 'x.yaml',
            contents: 'id: x\ninfo: {name: x, author: v, severity: info}\nhttp:\n  - path: ["{{BaseURL}}"]\n',
          },
        ],
      },
    });

  // Names the hosts file gives a loopback address (at least localhost).
  const hostsNames = readFileSync('/etc/hosts', 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
    .filter((f) => f.length > 1 && /^(127\.|::1$)/.test(f[0]!))
    .flatMap((f) => f.slice(1));
  // This machine's own addresses other than loopback reach the API port too.
  const interfaces = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal)
    .map((i) => i!.address);

  it('cloud metadata in any spelling', async () => {
    for (const target of [
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      '2852039166',
      'http://2852039166/',
      '0xa9fea9fe',
      '169.254.43518:80',
      '[::ffff:a9fe:a9fe]:80',
      'http://[64:ff9b::a9fe:a9fe]/',
      'metadata.google.internal.',
      'http://metadata.google.internal./computeMetadata/v1/',
      'instance-data.',
      'INSTANCE-DATA',
      'http://[fd00:ec2:0:0:0:0:0:254]/',
      'Metadata.Azure.Internal',
    ]) {
      const res = await create(target);
      expect(res.statusCode, target).toBe(400);
      expect(res.json(), target).toMatchObject({
        status: 400,
        code: expect.any(String),
        message: expect.stringContaining('cloud metadata'),
      });
      expect(res.json().param, target).toBe('targets[1]');
    }
  });

  it("the platform's own port on any local address and name", async () => {
    for (const target of [
      'http://[::ffff:127.0.0.1]:8085',
      '[::ffff:127.0.0.1]:8085',
      '2130706433:8085',
      'http://2130706433:8085/',
      'http://0x7f.1:8085',
      '127.1:8085',
      'http://0.0.0.0:8085',
      '[::]:8085',
      'http://[::1]:8085',
      'http://localhost.:8085',
      'LOCALHOST:8085',
      'http://api.localhost:8085',
      ...hostsNames.map((n) => `${n}:8085`),
      ...interfaces.map((a) => (a.includes(':') ? `[${a}]:8085` : `${a}:8085`)),
    ]) {
      const res = await create(target);
      expect(res.statusCode, target).toBe(400);
      expect(res.json().message, target).toContain('own API port');
    }
  });

  it('other ports and public names stay scannable', async () => {
    for (const target of [
      'http://127.0.0.1:8086',
      '2130706433:8086',
      'localhost',
      'https://example.com:8085',
      '169.254.169.1',
    ]) {
      expect((await create(target)).statusCode, target).toBe(200);
    }
  });
});

describe('platform scans', () => {
  let t: ScanTestApp;
  beforeAll(async () => {
    // The receiver is this platform's API port.
    t = await createScanApp('pglite', { port: receiver.port, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('a private template reaching for the own port through an absolute URL or a redirect is refused at connect, and the scan log says so', async () => {
    const P = receiver.port;
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [site.url],
        private_templates: [
          {
            name: 'reach.yaml',
            contents: `id: reach-api
info: {name: reach, author: v, severity: high}
http:
  - method: PATCH
    path: ["http://[::ffff:127.0.0.1]:${P}/v1/user/team", "http://localhost:${P}/healthz", "{{BaseURL}}/go"]
    redirects: true
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`,
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const done = await t.waitStatus(id, ['finished', 'failed']);
    expect(done.status).toBe('finished');
    expect(receiver.connections).toEqual([]);
    const results = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json();
    expect(results.data ?? []).toEqual([]);
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const log = JSON.parse((await t.request({ method: 'GET', url: new URL(link).pathname, key: null })).body) as {
      error?: string;
    }[];
    expect(log.map((r) => r.error)).toContainEqual(expect.stringContaining(REFUSED));
  });
});
