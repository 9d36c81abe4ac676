// nuclei's own flow integration tests (internal/tests/integration/flow_test.go and testdata/flow/), with
// the same templates and the same expected result counts, against local servers instead of public
// hosts: a DNS server on 127.0.0.1 for the CNAME and NS answers, an HTTP server for the pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, closeClients, type ScanOptions } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { tpl } from '../../helpers/templates.ts';

let dns: DnsTestServer;
let web: TestServer;
const emails = ['secrets@scanme.sh', 'superadmin@scanme.sh'];
const b64 = (s: string) => Buffer.from(s).toString('base64');

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      localhost: [{ type: 'CNAME', data: 'cname.vercel-dns.com' }],
      'oast.vigil.test': [
        { type: 'NS', data: 'ns1.oast.vigil.test' },
        { type: 'NS', data: 'ns2.oast.vigil.test' },
      ],
      'ns1.oast.vigil.test': [{ type: 'A', data: '192.0.2.1' }],
      'ns2.oast.vigil.test': [{ type: 'A', data: '192.0.2.2' }],
    },
  });
  web = await startHttpServer((req, res) => {
    if (req.url === '/') return res.end(`<html>[${emails.join(' ')}] ok</html>`);
    if (emails.some((e) => req.url === `/user/${b64(e)}`)) return res.end('Welcome ! This is test matcher text');
    if (req.url === '/ok') return res.end('ok');
    res.statusCode = 404;
    res.end('no');
  });
});
afterAll(async () => {
  await closeClients();
  await Promise.all([dns.close(), web.close()]);
});

async function scan(t: Template, target: string, extra: Partial<ScanOptions> = {}): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets: [target],
    templates: [t],
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    resolvers: [dns.resolver],
    onResult: (e) => events.push(e),
    ...extra,
  });
  return events;
}

const head = (id: string) => `id: ${id}\ninfo: { name: ${id}, author: pdteam, severity: info }\n`;

const conditional = (word: string) =>
  tpl(`${head('ghost-blog-detection')}flow: dns() && http()

dns:
  - name: "{{FQDN}}"
    type: CNAME

    matchers:
      - type: word
        words:
          - "${word}"
        internal: true

http:
  - method: GET
    path:
      - "{{BaseURL}}"

    matchers:
      - type: word
        words:
          - "html>"
`);

describe("nuclei's flow integration tests", () => {
  it('ConditionalFlow: the CNAME matches, so http runs and reports (1 result)', async () => {
    const before = web.requests.length;
    const events = await scan(conditional('.vercel-dns.com'), `http://localhost:${web.port}`);
    expect(events.map((e) => e.type)).toEqual(['http']);
    expect(web.requests.length - before).toBe(1);
  });

  it('ConditionalFlowNegative: no match, http is not sent (0 results)', async () => {
    const before = web.requests.length;
    expect(await scan(conditional('ghost.io'), `http://localhost:${web.port}`)).toEqual([]);
    expect(web.requests.length - before).toBe(0);
  });

  it('IterateValuesFlow: one request per extracted email (2 results)', async () => {
    const t = tpl(`${head('extract-emails')}flow: |
  http(1)
  for(let email of template["emails"]) {
    set("email",email);
    http(2);
  }

http:
  - method: GET
    path:
      - "{{BaseURL}}"

    extractors:
      - type: regex
        name: emails
        regex:
          - '[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}'
        internal: true

  - method: GET
    path:
      - "{{BaseURL}}/user/{{base64(email)}}"

    matchers:
      - type: word
        words:
          - "Welcome"

    extractors:
      - type: dsl
        name: email
        dsl:
          - email
`);
    const events = await scan(t, web.url);
    expect(events.map((e) => e['extracted-results'])).toEqual(emails.map((e) => [e]));
  });

  it('IterateOneValueFlow: iterate() over a single extracted value (1 result)', async () => {
    const t = tpl(`${head('flow-iterate-one-value-flow')}flow: |
  http(1)
  for(let value of iterate(template.extracted)){
    set("value", value)
    http(2)
  }

http:
  - method: GET
    path:
      - "{{BaseURL}}"

    extractors:
      - type: regex
        name: extracted
        internal: true
        regex:
          - "[ok]+"

  - method: GET
    path:
      - "{{BaseURL}}/{{value}}"

    matchers:
      - type: word
        words:
          - "ok"
`);
    const before = web.requests.length;
    const events = await scan(t, web.url);
    expect(events).toHaveLength(1);
    expect(web.requests.slice(before).map((r) => r.url)).toEqual(['/', '/ok']);
  });

  it('DNSNSProbe: one A query per name server of the NS answer (2 results)', async () => {
    const t = tpl(`${head('dns-ns-probe')}flow: |
  dns("fetch-ns");
  for(let ns of template["nameservers"]) {
    set("nameserver",ns);
    dns("probe-ns");
  };

dns:
  - id: "fetch-ns"
    name: "{{FQDN}}"
    type: NS
    matchers:
      - type: word
        words:
          - "IN\\tNS"
        internal: true
    extractors:
      - type: regex
        internal: true
        name: "nameservers"
        group: 1
        regex:
          - "IN\\tNS\\t(.+)"

  - id: "probe-ns"
    name: "{{nameserver}}"
    type: A
    class: inet
    retries: 3
    recursion: true
    extractors:
      - type: dsl
        dsl:
          - "a"
`);
    const events = await scan(t, 'oast.vigil.test');
    expect(events.map((e) => e['extracted-results'])).toEqual([['192.0.2.1'], ['192.0.2.2']]);
  });

  it('HideMatcher: an internal matcher opens the gate but is not reported (0 results)', async () => {
    const t = tpl(`${head('flow-hide-matcher')}flow: http(1) && http(2)

http:
  - method: GET
    path:
      - "{{BaseURL}}"

    matchers:
      - type: word
        words:
          - ok
        internal: true

  - method: GET
    path:
      - "{{BaseURL}}"

    matchers:
      - type: word
        words:
          - "Failed event"
`);
    const before = web.requests.length;
    expect(await scan(t, web.url)).toEqual([]);
    expect(web.requests.length - before).toBe(2);
  });
});
