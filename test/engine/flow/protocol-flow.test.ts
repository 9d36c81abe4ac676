// Flows that call dns, ssl, tcp, websocket and whois blocks (not only http), against real servers on
// 127.0.0.1, in both flow engines (protocol calls only; JavaScript statements): values pass between the
// steps as nuclei's template context passes them (internal extractors by name, `set()`, and every
// response value as <protocol>_<key> / <id>_<key>), and blocks a flow does not call are not sent.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { runScan, unsupportedReason, closeClients, type ScanOptions } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { startHttpServer, startHttpsServer, startTcpServer, type TestServer } from '../../helpers/targets.ts';
import { makeCert } from '../../helpers/certs.ts';
import { tpl } from '../../helpers/templates.ts';

async function scan(t: Template, targets: string[], extra: Partial<ScanOptions> = {}): Promise<ResultEvent[]> {
  expect(unsupportedReason(t)).toBeUndefined();
  const events: ResultEvent[] = [];
  await runScan({
    targets,
    templates: [t],
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    onResult: (e) => events.push(e),
    ...extra,
  });
  return events;
}

let dns: DnsTestServer;
let web: TestServer;
let rdap: TestServer;
let vhosts: TestServer;
let tcp: { host: string; port: number; close(): Promise<void> };
const tcpSeen: string[] = [];
let wss: WebSocketServer;
let wsPort: number;
const wsSeen: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      'vigil.test': [
        { type: 'NS', data: 'ns1.vigil.test' },
        { type: 'NS', data: 'ns2.vigil.test' },
      ],
      'ns1.vigil.test': [{ type: 'A', data: '192.0.2.53' }],
      'ns2.vigil.test': [{ type: 'A', data: '192.0.2.54' }],
      'shop.vigil.test': [{ type: 'CNAME', data: 'shop.vigil-cdn.test' }],
      'plain.vigil.test': [{ type: 'A', data: '192.0.2.80' }],
    },
  });
  web = await startHttpServer((req, res) => {
    if (req.url === '/origin/shop.vigil-cdn.test') return res.end('DEPLOYMENT_NOT_FOUND');
    if (req.url === '/v/4.0.2') return res.end('known vulnerable build 4.0.2');
    if (req.url === '/ws-ok') return res.end('websocket said ok');
    if (req.url === '/big') return res.end(`${'x'.repeat(1_500_000)} token=abc`);
    if (req.url === '/use/abc') return res.end('accepted');
    res.statusCode = 404;
    res.end('no');
  });
  rdap = await startHttpServer((req, res) => {
    res.setHeader('content-type', 'application/rdap+json');
    if (req.url !== '/domain/vigil.test') {
      res.statusCode = 404;
      return res.end('{}');
    }
    res.end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: 'vigil.test',
        handle: 'D1-VIGIL',
        nameservers: [{ ldhName: 'ns1.vigil.test' }, { ldhName: 'ns2.vigil.test' }],
      }),
    );
  });
  // One HTTPS server for two virtual hosts, its certificate naming both (and itself).
  vhosts = await startHttpsServer(
    (req, res) => {
      res.end(req.headers.host === 'admin.vigil.test' ? 'admin console secret-panel' : `site ${req.headers.host}`);
    },
    {
      cert: makeCert({
        subject: '/CN=localhost/O=Vigil Test',
        dns: ['localhost', 'admin.vigil.test', 'www.vigil.test'],
      }),
    },
  );
  tcp = await startTcpServer((sock) => {
    sock.write('+OK vigil-cache 4.0.2 ready\r\n');
    sock.on('data', (d) => {
      tcpSeen.push(d.toString());
      sock.end('+PONG\r\n');
    });
    sock.on('error', () => {});
  });
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wsPort = (wss.address() as net.AddressInfo).port;
  wss.on('connection', (ws) =>
    ws.on('message', (m) => {
      const text = m.toString();
      wsSeen.push(text);
      ws.send(text === 'HELLO' ? 'HELLO path=/ws-ok' : text.startsWith('GET ') ? `page ${text.slice(4)}` : 'what');
    }),
  );
});

afterAll(async () => {
  await closeClients();
  await Promise.all([dns.close(), web.close(), rdap.close(), vhosts.close(), tcp.close()]);
  wss.close();
});

const head = (id: string) => `id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n`;

describe('flows over dns blocks', () => {
  // nuclei's own flow test (pkg/tmplexec/flow/testcases/nuclei-flow-dns.yaml), in its three spellings.
  const dnsFlow = (id: string, call1: string, call2: string, id1 = '', id2 = '') =>
    tpl(`${head(id)}flow: |
  ${call1};
  template["nameservers"].forEach(nameserver => {
    set("nameserver",nameserver);
    ${call2};
  });

dns:
  - ${id1 ? `id: "${id1}"\n    ` : ''}name: "{{FQDN}}"
    type: NS
    matchers:
      - type: word
        words:
          - "IN\\tNS"
    extractors:
      - type: regex
        internal: true
        name: "nameservers"
        group: 1
        regex:
          - "IN\\tNS\\t(.+)"

  - ${id2 ? `id: "${id2}"\n    ` : ''}name: "{{nameserver}}"
    type: A
    class: inet
    retries: 3
    recursion: true
    extractors:
      - type: dsl
        dsl:
          - "a"
`);

  for (const [label, t] of [
    ['positions', dnsFlow('nuclei-flow-dns', 'dns(1)', 'dns(2)')],
    ['a position and an id', dnsFlow('nuclei-flow-dns-prefix', 'dns(1)', 'dns("probe-ns")', '', 'probe-ns')],
    ['ids', dnsFlow('nuclei-flow-dns-id', 'dns("fetch-ns")', 'dns("probe-ns")', 'fetch-ns', 'probe-ns')],
  ] as const) {
    it(`NS names from dns(1) feed one A query per name server (${label})`, async () => {
      const before = dns.queries.length;
      const events = await scan(t, ['vigil.test'], { resolvers: [dns.resolver] });
      expect(dns.queries.slice(before).map((q) => `${q.questions![0].type} ${q.questions![0].name}`)).toEqual([
        'NS vigil.test',
        'A ns1.vigil.test',
        'A ns2.vigil.test',
      ]);
      expect(events.map((e) => [e['template-id'], e['matched-at'], e['extracted-results'] ?? []])).toEqual([
        [t.id, 'vigil.test', []],
        [t.id, 'ns1.vigil.test', ['192.0.2.53']],
        [t.id, 'ns2.vigil.test', ['192.0.2.54']],
      ]);
      expect(events.every((e) => e.type === 'dns')).toBe(true);
    });
  }

  // nuclei's condition-flow example (vercel-hosted-detection) with the name fixed and the origin local:
  // the dns block's answer is exported as dns_cname for the http block (no trailing dot, as nuclei's cname).
  it('dns() && http(): a CNAME match opens the gate and http uses dns_cname; no match keeps it shut', async () => {
    const viaLocalhost = tpl(`${head('cdn-takeover-local')}flow: dns() && http()
dns:
  - name: "shop.vigil.test"
    type: CNAME
    matchers:
      - type: word
        words: ["vigil-cdn"]
http:
  - method: GET
    path: ["{{BaseURL}}/origin/{{dns_cname}}"]
    matchers:
      - type: word
        words: ["DEPLOYMENT_NOT_FOUND"]
`);
    const before = web.requests.length;
    // dns takes the input's host name (an IP is no dns input, in nuclei too): localhost, on 127.0.0.1.
    const target = `http://localhost:${web.port}`;
    const events = await scan(viaLocalhost, [target], { resolvers: [dns.resolver] });
    expect(web.requests.slice(before).map((r) => r.url)).toEqual(['/origin/shop.vigil-cdn.test']);
    expect(events.map((e) => `${e.type}:${e['matched-at']}`)).toEqual([
      'dns:shop.vigil.test',
      `http:${target}/origin/shop.vigil-cdn.test`,
    ]);
    const shut = tpl(`${head('cdn-takeover-shut')}flow: dns() && http()
dns:
  - name: "plain.vigil.test"
    type: CNAME
    matchers:
      - type: word
        words: ["vigil-cdn"]
http:
  - method: GET
    path: ["{{BaseURL}}/origin/{{dns_cname}}"]
`);
    const before2 = web.requests.length;
    expect(await scan(shut, [target], { resolvers: [dns.resolver] })).toEqual([]);
    expect(web.requests.length - before2).toBe(0);
  });
});

describe('flows over ssl, tcp and websocket blocks', () => {
  // nuclei's documented vhost enumeration: the certificate's names drive one http request each.
  const vhostEnum = tpl(`${head('vhost-enum-flow')}flow: |
  ssl();
  for (let vhost of iterate(template["ssl_domains"])) {
    set("vhost", vhost);
    http();
  }
ssl:
  - address: "{{Host}}:{{Port}}"
http:
  - raw:
      - |
        GET / HTTP/1.1
        Host: {{vhost}}

    matchers:
      - type: word
        words: ["secret-panel"]
    extractors:
      - type: dsl
        dsl: ["vhost"]
`);

  it('ssl() then http() per certificate name (JS flow, iterate and set)', async () => {
    const before = vhosts.requests.length;
    const events = await scan(vhostEnum, [vhosts.url]);
    expect(vhosts.requests.slice(before).map((r) => r.headers.host)).toEqual([
      'localhost',
      'admin.vigil.test',
      'www.vigil.test',
    ]);
    expect(events.map((e) => [e.type, e['extracted-results']])).toEqual([['http', ['admin.vigil.test']]]);
  });

  it('tcp() && http(): a banner version extracted over tcp goes into the http path (protocol-call flow)', async () => {
    const t = tpl(`${head('tcp-then-http')}flow: tcp() && http(1)
tcp:
  - host: ["127.0.0.1:{{tcp_port}}"]
    inputs:
      - data: "PING\\r\\n"
    read-size: 64
    matchers:
      - type: word
        words: ["vigil-cache"]
    extractors:
      - type: regex
        name: version
        internal: true
        group: 1
        regex: ["vigil-cache ([0-9.]+)"]
http:
  - method: GET
    path: ["{{BaseURL}}/v/{{version}}"]
    matchers:
      - type: word
        words: ["vulnerable"]
`);
    const before = web.requests.length;
    const seen = tcpSeen.length;
    const events = await scan(t, [web.url], { vars: { tcp_port: String(tcp.port) } });
    expect(tcpSeen.slice(seen)).toEqual(['PING\r\n']);
    expect(web.requests.slice(before).map((r) => r.url)).toEqual(['/v/4.0.2']);
    expect(events.map((e) => `${e['template-id']}:${e.type}`)).toEqual(['tcp-then-http:tcp', 'tcp-then-http:http']);
    // network() is the old name of tcp(): the same flow in the JS engine.
    const js = tpl(`${head('network-then-http')}flow: |
  if (network()) {
    log("version " + template["version"]);
    http(1);
  }
network:
  - host: ["127.0.0.1:{{tcp_port}}"]
    inputs:
      - data: "PING\\r\\n"
    read-size: 64
    extractors:
      - type: regex
        name: version
        internal: true
        group: 1
        regex: ["vigil-cache ([0-9.]+)"]
http:
  - method: GET
    path: ["{{BaseURL}}/v/{{version}}"]
    matchers:
      - type: word
        words: ["vulnerable"]
`);
    const before2 = web.requests.length;
    const ev2 = await scan(js, [web.url], { vars: { tcp_port: String(tcp.port) } });
    expect(web.requests.slice(before2).map((r) => r.url)).toEqual(['/v/4.0.2']);
    expect(ev2.map((e) => e.type)).toEqual(['http']);
  });

  it('websocket(1) && websocket(2): a value the first exchange extracts goes into the second', async () => {
    // As nuclei, a websocket block takes a ws:// input (an http input is no websocket input).
    const t = tpl(`${head('ws-chain')}flow: websocket(1) && websocket(2)
websocket:
  - address: "{{Scheme}}://{{Hostname}}"
    inputs:
      - data: HELLO
    extractors:
      - type: regex
        name: wspath
        internal: true
        group: 1
        regex: ["path=(/[a-z-]+)"]
  - address: "{{Scheme}}://{{Hostname}}"
    inputs:
      - data: "GET {{wspath}}"
    matchers:
      - type: word
        words: ["page /ws-ok"]
`);
    const before = wsSeen.length;
    const events = await scan(t, [`ws://127.0.0.1:${wsPort}`]);
    expect(wsSeen.slice(before)).toEqual(['HELLO', 'GET /ws-ok']);
    expect(events.map((e) => `${e.type}:${e['template-id']}`)).toEqual(['websocket:ws-chain']);
    // Nothing extracted: the second block is not called.
    const none = tpl(`${head('ws-chain-2')}flow: websocket(1) && websocket(2)
websocket:
  - address: "{{Scheme}}://{{Hostname}}"
    inputs:
      - data: BYE
    extractors:
      - type: regex
        name: wspath
        internal: true
        group: 1
        regex: ["path=(/[a-z-]+)"]
  - address: "{{Scheme}}://{{Hostname}}"
    inputs:
      - data: "GET {{wspath}}"
`);
    const before2 = wsSeen.length;
    expect(await scan(none, [`ws://127.0.0.1:${wsPort}`])).toEqual([]);
    expect(wsSeen.slice(before2)).toEqual(['BYE']);
  });

  it('a JS flow still sees extracted values when the exported response values are too big to hand over', async () => {
    const t = tpl(`${head('big-body-flow')}flow: |
  http(1);
  if (template["token"] === "abc" && template["http_status_code"] === 200) {
    http(2);
  }
http:
  - method: GET
    path: ["{{BaseURL}}/big"]
    extractors:
      - type: regex
        name: token
        internal: true
        group: 1
        regex: ["token=([a-z]+)"]
  - method: GET
    path: ["{{BaseURL}}/use/{{token}}"]
    matchers:
      - type: word
        words: ["accepted"]
`);
    const before = web.requests.length;
    const events = await scan(t, [web.url]);
    expect(web.requests.slice(before).map((r) => r.url)).toEqual(['/big', '/use/abc']);
    expect(events.map((e) => e['matched-at'])).toEqual([`${web.url}/use/abc`]);
  });

  it('whois() then dns() per name server the registry lists (JS flow over whois_<key> values)', async () => {
    const t = tpl(`${head('whois-ns-flow')}flow: |
  whois();
  for (let ns of iterate(template["whois_name server"].split(","))) {
    set("ns", ns);
    dns();
  }
whois:
  - query: "{{Input}}"
    server: ${rdap.url}
dns:
  - name: "{{ns}}"
    type: A
    extractors:
      - type: dsl
        dsl: ["a"]
`);
    const before = dns.queries.length;
    const events = await scan(t, ['vigil.test'], { resolvers: [dns.resolver] });
    expect(dns.queries.slice(before).map((q) => q.questions![0].name)).toEqual(['ns1.vigil.test', 'ns2.vigil.test']);
    expect(events.filter((e) => e.type === 'dns').map((e) => e['extracted-results'])).toEqual([
      ['192.0.2.53'],
      ['192.0.2.54'],
    ]);
  });

  it('a flow over a protocol this engine does not run is refused with the reason', () => {
    const t = tpl(`${head('flow-code')}flow: code() && http(1)
code:
  - engine: [sh]
    source: echo hi
http:
  - method: GET
    path: ["{{BaseURL}}/"]
`);
    expect(unsupportedReason(t)).toMatch(/code/);
  });
});
