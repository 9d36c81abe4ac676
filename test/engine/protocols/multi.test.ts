// Templates with blocks of several protocols (no flow): blocks run in the order written, later blocks
// see earlier ones' values as <protocol>_<key> / <id>_<key>, and every block's results are reported
// (nuclei v3's multi-protocol executor).
// Corpus templates that combine dns + http and ssl + http, against local servers built to satisfy them.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { closeClients, runScan, type ScanOptions } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { makeCert } from '../../helpers/certs.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';

const corpus = path.join(sharedDir, 'corpus/nuclei-templates');
function corpusTemplate(rel: string): Template {
  const file = path.join(corpus, rel);
  const r = parseTemplate(readFileSync(file, 'utf8'), file, { fromDisk: true, templatesRoot: corpus });
  if (!r.template) throw new Error(`${rel}: ${JSON.stringify(r.issues)}`);
  return r.template;
}
function tpl(text: string): Template {
  const r = parseTemplate(text, 'inline.yaml');
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

let dns: DnsTestServer;
const closers: (() => void)[] = [];
async function listen(srv: http.Server | https.Server): Promise<number> {
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(() => srv.close());
  return (srv.address() as net.AddressInfo).port;
}

async function scan(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets,
    templates,
    rateLimit: 0,
    timeout: 3,
    resolvers: [dns.resolver],
    onResult: (e) => events.push(e),
    ...extra,
  });
  return events;
}

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      localhost: [
        { type: 'A', data: '69.164.223.206' },
        { type: 'TXT', data: ['site-id=42'] },
      ],
    },
  });
});
afterAll(async () => {
  for (const c of closers) c();
  await dns?.close();
  await closeClients();
});

describe('multi-protocol templates', () => {
  it('dns then http: the http path uses the dns block internal extractor; matchers combine dns_ and http values', async () => {
    const port = await listen(http.createServer((q, res) => res.end(q.url === '/sites/42' ? 'site 42 page' : 'nope')));
    const t = tpl(`id: dns-http
info: {name: dns-http, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: TXT
    extractors:
      - type: regex
        name: site
        internal: true
        group: 1
        regex: ['site-id=(\\d+)']
http:
  - method: GET
    path: ["{{BaseURL}}/sites/{{site}}"]
    matchers:
      - type: dsl
        dsl: ['contains(dns_answer, "site-id=42") && dns_rcode == 0 && http_status_code == 200 && contains(body, "site 42")']
`);
    const events = await scan([t], [`http://localhost:${port}`]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'http', 'matched-at': `http://localhost:${port}/sites/42` });
  });

  it('every block reports its own results; a failing block does not stop the next', async () => {
    const port = await listen(http.createServer((_q, res) => res.end('plain')));
    const t = tpl(`id: last-decides
info: {name: last, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    matchers:
      - type: word
        words: [69.164.223.206]
http:
  - method: GET
    path: ["{{BaseURL}}"]
    matchers:
      - type: word
        words: [never-there]
`);
    const events = await scan([t], [`http://localhost:${port}`]);
    expect(events.map((e) => [e.type, e['matched-at']])).toEqual([['dns', 'localhost']]);
    // The dns block cannot reach its resolver: the http block still runs (and here matches nothing).
    const web = await listen(http.createServer((_q, res) => res.end('never-there')));
    const down = await scan([t], [`http://localhost:${web}`], {
      resolvers: ['127.0.0.1:9'],
      timeout: 1,
      matcherStatus: true,
    });
    expect(down.map((e) => [e.type, e['matcher-status']])).toEqual([['http', true]]);
  });
});

describe.runIf(hasShared('corpus/nuclei-templates/http'))('corpus multi-protocol templates', () => {
  it('http/takeovers/worksites-takeover.yaml (dns + http): matches the worksites 404 page', async () => {
    const port = await listen(
      http.createServer((_q, res) => {
        res.statusCode = 404;
        res.end('<h1>Company Not Found</h1> powered by worksites.net');
      }),
    );
    const ok = await listen(http.createServer((_q, res) => res.end('a live site')));
    const t = corpusTemplate('http/takeovers/worksites-takeover.yaml');
    const events = await scan([t], [`http://localhost:${port}`, `http://localhost:${ok}`]);
    // The dns block reports the worksites address for both; only the 404 page matches the http block.
    expect(events.filter((e) => e.type === 'dns').map((e) => e.host)).toEqual(['localhost', 'localhost']);
    expect(events.filter((e) => e.type === 'http').map((e) => e.host)).toEqual([`http://localhost:${port}`]);
  });

  it('http/exposed-panels/cisco/cisco-ios-xe-panel.yaml (ssl + http): issuer from the ssl block, body from http', async () => {
    const pem = makeCert({ subject: '/CN=IOS-Self-Signed-Certificate-2841536934' });
    const port = await listen(
      https.createServer({ key: pem.key, cert: pem.cert }, (_q, res) =>
        res.end('<script src="/webui/login.js"></script>'),
      ),
    );
    const other = makeCert({ subject: '/CN=localhost' });
    const plain = await listen(
      https.createServer({ key: other.key, cert: other.cert }, (_q, res) => res.end('webui too')),
    );
    const t = corpusTemplate('http/exposed-panels/cisco/cisco-ios-xe-panel.yaml');
    const events = await scan([t], [`https://127.0.0.1:${port}`, `https://127.0.0.1:${plain}`]);
    expect(events).toHaveLength(1);
    expect(events[0].host).toBe(`https://127.0.0.1:${port}`);
    expect(events[0]['extracted-results']).toEqual(['CN=IOS-Self-Signed-Certificate-2841536934']);
  });
});
