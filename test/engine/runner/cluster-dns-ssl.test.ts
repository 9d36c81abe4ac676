// Clustering of dns and ssl requests (nuclei's keys) against a real DNS server and real TLS servers on
// 127.0.0.1 that count what they receive: the corpus's clusterable dns/ and ssl/ templates send one query
// / handshake per cluster and target, and every template's results are the ones it has alone.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/engine/runner.ts';
import { clusterTemplates } from '../../../src/engine/runner/cluster.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { makeCert, type Pem } from '../../helpers/certs.ts';
import { hasShared } from '../../helpers/shared.ts';
import { corpusTemplate, tpl } from '../../helpers/templates.ts';

const head = (id: string) => `id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n`;
const dnsTpl = (id: string, block: string) =>
  tpl(`${head(id)}dns:\n  - name: "{{FQDN}}"\n${block}    matchers:\n      - type: word\n        words: ["IN"]\n`);
const sslTpl = (id: string, block = '') =>
  tpl(
    `${head(id)}ssl:\n  - address: "{{Host}}:{{Port}}"\n${block}    matchers:\n      - type: dsl\n        dsl: ["len(tls_version) > 0"]\n`,
  );
const groups = (ts: Template[]) => clusterTemplates(ts).map((c) => [c.leader.id, ...c.members.map((m) => m.id)]);

interface Outcome {
  received: number;
  results: string[];
  attempts: string[];
  requests: number;
}

async function scan(
  templates: Template[],
  targets: string[],
  cluster: boolean,
  count: () => number,
  resolvers?: string[],
): Promise<Outcome> {
  const before = count();
  const results: string[] = [];
  const attempts: string[] = [];
  const stats = await runScan({
    targets,
    templates,
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    cluster,
    resolvers,
    onResult: (e) =>
      results.push(
        `${e['template-id']}|${e.host}|${e['matcher-name'] ?? ''}|${(e['extracted-results'] ?? []).join(',')}`,
      ),
    onAttempt: (a) => attempts.push(`${a.templateId}|${a.target}|${a.matched}`),
  });
  return { received: count() - before, results: results.sort(), attempts: attempts.sort(), requests: stats.requests };
}

describe("which dns and ssl requests cluster (nuclei's rules)", () => {
  it('dns: same name, type, class, retries and recursion; never with resolvers, trace, an id or payloads', () => {
    const ts = [
      dnsTpl('a1', '    type: A\n'),
      dnsTpl('a2', '    type: A\n    class: inet\n'),
      dnsTpl('txt', '    type: TXT\n'),
      dnsTpl('a-norec', '    type: A\n    recursion: false\n'),
      dnsTpl('a-retries', '    type: A\n    retries: 5\n'),
      dnsTpl('a-resolvers', '    type: A\n    resolvers: ["127.0.0.1:53"]\n'),
      dnsTpl('a-trace', '    type: A\n    trace: true\n'),
      dnsTpl('a-id', '    type: A\n    id: probe\n'),
      dnsTpl('a3', '    type: A\n'),
    ];
    expect(groups(ts)).toEqual([
      ['a1', 'a2', 'a3'],
      ['txt'],
      ['a-norec'],
      ['a-retries'],
      ['a-resolvers'],
      ['a-trace'],
      ['a-id'],
    ]);
  });

  it('ssl: same address, scan mode and enumeration settings; never with versions or cipher suites of its own', () => {
    const ts = [
      sslTpl('s1'),
      sslTpl('s2'),
      sslTpl('venum', '    tls_version_enum: true\n'),
      sslTpl('venum2', '    tls_version_enum: true\n'),
      sslTpl('min', '    min_version: tls12\n'),
      tpl(`${head('other-port')}ssl:\n  - address: "{{Host}}:8443"\n`),
      sslTpl('s3'),
    ];
    expect(groups(ts)).toEqual([['s1', 's2', 's3'], ['venum', 'venum2'], ['min'], ['other-port']]);
  });

  it('a template with http and dns blocks, or a flow, is never clustered', () => {
    const multi = tpl(
      `${head('multi')}dns:\n  - name: "{{FQDN}}"\n    type: A\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n`,
    );
    const flow = tpl(`${head('flow')}flow: dns()\ndns:\n  - name: "{{FQDN}}"\n    type: A\n`);
    expect(groups([dnsTpl('a1', '    type: A\n'), multi, flow, dnsTpl('a2', '    type: A\n')])).toEqual([
      ['a1', 'a2'],
      ['multi'],
      ['flow'],
    ]);
  });
});

describe.skipIf(!hasShared)('dns clustering against a DNS server that counts queries', () => {
  let server: DnsTestServer;
  beforeAll(async () => {
    server = await startDnsServer({
      records: {
        'vigil.test': [
          { type: 'TXT', data: ['v=spf1 include:_spf.vigil.test ~all'] },
          { type: 'MX', data: { preference: 10, exchange: 'mx1.vigil.test' } },
        ],
        'app.vigil.test': [{ type: 'CNAME', data: 'ec2-54-12-3-4.compute-1.amazonaws.com' }],
        'dangling.vigil.test': [{ type: 'CNAME', data: 'gone-app.azurewebsites.net' }],
        'eb.vigil.test': [{ type: 'CNAME', data: 'myapp.us-east-1.elasticbeanstalk.com' }],
        'bimi.vigil.test': [{ type: 'TXT', data: ['v=BIMI1; l=https://vigil.test/logo.svg'] }],
        'gmail.vigil.test': [{ type: 'MX', data: { preference: 1, exchange: 'aspmx.l.google.com' } }],
        'svc.vigil.test': [
          { type: 'TXT', data: ['keybase-site-verification=abc'] },
          { type: 'TXT', data: ['apple-domain-verification=xyz'] },
        ],
      },
      rcodes: { 'dangling.vigil.test': 'NXDOMAIN', 'eb.vigil.test': 'NXDOMAIN' },
    });
  });
  afterAll(() => server.close());

  // The corpus's dns templates that nuclei clusters, in four clusters (CNAME x5, TXT x5, A x2, MX x2).
  const files = [
    'azure-takeover-detection',
    'detect-dangling-cname',
    'elasticbeanstalk-takeover',
    'servfail-refused-hosts',
    'worksites-detection',
    'bimi-detect',
    'spf-record-detect',
    'spoofable-spf-records-ptr',
    'txt-fingerprint',
    'txt-service-detect',
    'dns-saas-service-detection',
    'ec2-detection',
    'mx-fingerprint',
    'mx-service-detector',
  ];
  const targets = [
    'vigil.test',
    'app.vigil.test',
    'dangling.vigil.test',
    'eb.vigil.test',
    'bimi.vigil.test',
    'gmail.vigil.test',
    'svc.vigil.test',
  ];

  it('one query per cluster and target; each template reports what it reports alone', async () => {
    const templates = files.map((f) => corpusTemplate(`dns/${f}.yaml`));
    expect(
      clusterTemplates(templates)
        .map((c) => 1 + c.members.length)
        .sort(),
    ).toEqual([2, 2, 5, 5]);
    const off = await scan(templates, targets, false, () => server.queries.length, [server.resolver]);
    const on = await scan(templates, targets, true, () => server.queries.length, [server.resolver]);
    expect(off.received).toBe(14 * 7);
    expect(on.received).toBe(4 * 7);
    expect(on.requests).toBe(4 * 7);
    expect(on.results).toEqual(off.results);
    expect(on.attempts).toEqual(off.attempts);
    expect(on.attempts).toHaveLength(14 * 7);
    // Each template's own results, under its own id (expected values as in test/engine/protocols/dns).
    expect(on.results).toEqual(
      expect.arrayContaining([
        'azure-takeover-detection|dangling.vigil.test||gone-app.azurewebsites.net',
        'detect-dangling-cname|dangling.vigil.test||gone-app.azurewebsites.net',
        'elasticbeanstalk-takeover|eb.vigil.test||myapp.us-east-1.elasticbeanstalk.com',
        'ec2-detection|app.vigil.test||ec2-54-12-3-4.compute-1.amazonaws.com',
        'bimi-record-detect|bimi.vigil.test||v=BIMI1; l=https://vigil.test/logo.svg"',
        'spf-record-detect|vigil.test||v=spf1 include:_spf.vigil.test ~all"',
        'mx-fingerprint|vigil.test||10 mx1.vigil.test.',
        'mx-service-detector|gmail.vigil.test|Google Apps|',
        'txt-service-detect|svc.vigil.test|apple|',
        'txt-service-detect|svc.vigil.test|keybase|',
      ]),
    );
    expect(on.results.filter((r) => r.startsWith('elasticbeanstalk-takeover|'))).toHaveLength(1);
    expect(on.attempts).toContain('azure-takeover-detection|vigil.test|false');
  });

  it('--no-cluster still sends every template its own query (matcher-status events per template too)', async () => {
    const templates = files.slice(0, 5).map((f) => corpusTemplate(`dns/${f}.yaml`));
    const seen: string[] = [];
    const before = server.queries.length;
    await runScan({
      targets: ['vigil.test'],
      templates,
      rateLimit: 0,
      timeout: 3,
      retries: 0,
      matcherStatus: true,
      resolvers: [server.resolver],
      onResult: (e) => seen.push(`${e['template-id']}:${e['matcher-status']}:${e.type}`),
    });
    expect(server.queries.length - before).toBe(1);
    expect(seen.sort()).toEqual(templates.map((t) => `${t.id}:false:dns`).sort());
  });
});

describe.skipIf(!hasShared)('ssl clustering against TLS servers that count handshakes', () => {
  const handshakes = { n: 0 };
  const ports: Record<string, number> = {};
  const closers: (() => void)[] = [];
  async function tlsServer(pem: Pem, chain: string[] = []): Promise<number> {
    const srv = tls.createServer({ key: pem.key, cert: [pem.cert, ...chain].join('') }, (s) => s.end());
    // Every connection is a handshake (the client hangs up once it has the facts, before a TLS 1.3 server
    // would see the handshake finish).
    srv.on('connection', () => {
      handshakes.n++;
    });
    srv.on('tlsClientError', () => {});
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    closers.push(() => srv.close());
    return (srv.address() as net.AddressInfo).port;
  }
  beforeAll(async () => {
    const ca = makeCert({ subject: '/CN=Vigil Test CA/O=Vigil Labs', isCa: true, days: 30 });
    ports.good = await tlsServer(
      makeCert({ subject: '/CN=localhost/O=Vigil Test', dns: ['localhost', 'www.vigil.test'], ca, days: 10 }),
      [ca.cert],
    );
    ports.self = await tlsServer(makeCert({ subject: '/CN=localhost', dns: ['localhost'] }));
    ports.expired = await tlsServer(makeCert({ subject: '/CN=localhost', dns: ['localhost'], ca, days: -1 }), [
      ca.cert,
    ]);
    ports.wrong = await tlsServer(makeCert({ subject: '/CN=other.vigil.test', dns: ['other.vigil.test'], ca }), [
      ca.cert,
    ]);
    ports.k8s = await tlsServer(makeCert({ subject: '/O=Acme Co/CN=Kubernetes Ingress Controller Fake Certificate' }));
  });
  afterAll(() => closers.forEach((c) => c()));

  const files = [
    'self-signed-ssl',
    'expired-ssl',
    'mismatched-ssl-certificate',
    'untrusted-root-certificate',
    'ssl-dns-names',
    'detect-ssl-issuer',
    'wildcard-tls',
    'kubernetes-fake-certificate',
  ];

  it('one handshake per target for the whole cluster; each template reports what it reports alone', async () => {
    const templates = [...files.map((f) => corpusTemplate(`ssl/${f}.yaml`)), corpusTemplate('ssl/tls-version.yaml')];
    // tls-version enumerates versions: a cluster of its own.
    expect(clusterTemplates(templates).map((c) => 1 + c.members.length)).toEqual([8, 1]);
    const targets = Object.values(ports).map((p) => `localhost:${p}`);
    // What tls-version costs alone (a handshake, then one per version this TLS stack can offer).
    const v = (await scan(templates.slice(8), targets.slice(0, 1), true, () => handshakes.n)).received;
    expect(v).toBeGreaterThanOrEqual(4);
    const off = await scan(templates, targets, false, () => handshakes.n);
    const on = await scan(templates, targets, true, () => handshakes.n);
    expect(off.received).toBe(5 * (8 + v));
    expect(on.received).toBe(5 * (1 + v));
    expect(on.requests).toBe(on.received);
    expect(on.results).toEqual(off.results);
    expect(on.attempts).toEqual(off.attempts);
    const host = (name: string) => `localhost:${ports[name]}`;
    expect(on.results).toEqual(
      expect.arrayContaining([
        `self-signed-ssl|${host('self')}||`,
        `mismatched-ssl-certificate|${host('wrong')}||CN: other.vigil.test`,
        `ssl-dns-names|${host('good')}||localhost,www.vigil.test`,
        `ssl-issuer|${host('good')}||Vigil Labs`,
        `ssl-issuer|${host('k8s')}||Acme Co`,
        `kubernetes-fake-certificate|${host('k8s')}||Issuer: Kubernetes Ingress Controller Fake Certificate`,
        `untrusted-root-certificate|${host('good')}||`,
      ]),
    );
    expect(on.results.filter((r) => r.startsWith('expired-ssl|')).map((r) => r.split('|')[1])).toEqual([
      host('expired'),
    ]);
    expect(on.results.filter((r) => r.startsWith('self-signed-ssl|'))).toHaveLength(2); // self and k8s are self-signed
  });
});
