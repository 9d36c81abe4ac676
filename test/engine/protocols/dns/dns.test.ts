// The dns protocol against a real DNS server on 127.0.0.1 serving a test zone: the syntax reference's
// example, nuclei's parts (raw, answer, rcode, question, request, per-type values), recursion, class,
// retries, resolvers, payloads, and real corpus templates with their expected results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, unsupportedReason, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../../helpers/dns-server.ts';
import { hasShared } from '../../../helpers/shared.ts';
import { corpusTemplate, tpl } from '../../../helpers/templates.ts';

let server: DnsTestServer;
let scanResolvers: string[];

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
    timeout: 2,
    resolvers: scanResolvers,
    onResult: (e) => events.push(e),
    ...extra,
  });
  return events;
}

beforeAll(async () => {
  server = await startDnsServer({
    records: {
      'app.vigil.test': [{ type: 'CNAME', data: 'ec2-54-12-3-4.compute-1.amazonaws.com' }],
      'www.vigil.test': [
        { type: 'A', data: '192.0.2.10' },
        { type: 'A', data: '192.0.2.11' },
        { type: 'AAAA', data: '2001:db8::10' },
      ],
      'internal.vigil.test': [
        { type: 'A', data: '127.0.0.1' },
        { type: 'AAAA', data: 'fd12:3456::1' },
      ],
      'vigil.test': [
        { type: 'TXT', data: ['v=spf1 include:_spf.vigil.test ~all'] },
        { type: 'TXT', data: ['hello "world"'] },
        { type: 'MX', data: { preference: 10, exchange: 'mx1.vigil.test' } },
        { type: 'NS', data: 'ns1.vigil.test' },
        {
          type: 'SOA',
          data: {
            mname: 'ns1.vigil.test',
            rname: 'hostmaster.akamai.com',
            serial: 2024010101,
            refresh: 7200,
            retry: 3600,
            expire: 1209600,
            minimum: 300,
          },
        },
        { type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
        {
          type: 'DS',
          data: {
            keyTag: 12345,
            algorithm: 13,
            digestType: 2,
            digest: Buffer.from('3490a6806d47f17a34c29e2ce80e8a999ffbe4be', 'hex'),
          },
        },
        { type: 'SRV', data: { priority: 1, weight: 5, port: 5060, target: 'sip.vigil.test' } },
      ],
      '_dmarc.vigil.test': [{ type: 'TXT', data: ['v=DMARC1; p=reject; rua=mailto:d@vigil.test'] }],
      'dangling.vigil.test': [{ type: 'CNAME', data: 'gone-app.azurewebsites.net' }],
      'broken.vigil.test': [],
      'refused.vigil.test': [],
      '10.2.0.192.in-addr.arpa': [{ type: 'PTR', data: 'www.vigil.test' }],
      'version.bind': [{ type: 'TXT', data: ['vigil-dns 1.0'], class: 'CH' }],
      'saas.vigil.test': [{ type: 'CNAME', data: 'vigil.mail.protection.outlook.com' }],
      'waf.vigil.test': [
        { type: 'NS', data: 'ns1.yunjiasu-cdn.net' },
        { type: 'NS', data: 'ns2.yunjiasu-cdn.net' },
      ],
      'eb.vigil.test': [{ type: 'CNAME', data: 'myapp.us-east-1.elasticbeanstalk.com' }],
      'gmail.vigil.test': [{ type: 'MX', data: { preference: 1, exchange: 'aspmx.l.google.com' } }],
      'ptr-spf.vigil.test': [{ type: 'TXT', data: ['v=spf1 ptr -all'] }],
      'svc.vigil.test': [
        { type: 'TXT', data: ['keybase-site-verification=abc'] },
        { type: 'TXT', data: ['apple-domain-verification=xyz'] },
      ],
      'ws.vigil.test': [{ type: 'A', data: '69.164.223.206' }],
      'bimi.vigil.test': [{ type: 'TXT', data: ['v=BIMI1; l=https://vigil.test/logo.svg'] }],
      'a.vigil.test': [{ type: 'A', data: '192.0.2.1' }],
      'b.vigil.test': [{ type: 'A', data: '192.0.2.2' }],
    },
    rcodes: {
      'eb.vigil.test': 'NXDOMAIN',
      'dangling.vigil.test': 'NXDOMAIN',
      'broken.vigil.test': 'SERVFAIL',
      'refused.vigil.test': 'REFUSED',
    },
  });
  scanResolvers = [server.resolver];
});

afterAll(async () => {
  await server?.close();
});

describe('dns protocol', () => {
  it('runs templates with dns blocks (no longer skipped)', () => {
    expect(
      unsupportedReason(
        tpl(`id: x\ninfo: {name: x, author: a, severity: info}\ndns:\n  - name: "{{FQDN}}"\n    type: A\n`),
      ),
    ).toBeUndefined();
    // trace runs too (test/engine/protocols/dns/trace.test.ts walks a local delegation chain).
    expect(
      unsupportedReason(
        tpl(
          `id: x\ninfo: {name: x, author: a, severity: info}\ndns:\n  - name: "{{FQDN}}"\n    type: A\n    trace: true\n`,
        ),
      ),
    ).toBeUndefined();
  });

  it('the syntax reference example: CNAME with the ec2 extractors', async () => {
    const t = tpl(`id: ec2-ref
info: {name: ec2, author: a, severity: info}
dns:
  - extractors:
      - type: regex
        regex:
          - ec2-[-\\d]+\\.compute[-\\d]*\\.amazonaws\\.com
          - ec2-[-\\d]+\\.[\\w\\d\\-]+\\.compute[-\\d]*\\.amazonaws\\.com
    name: '{{FQDN}}'
    type: CNAME
    class: inet
    retries: 2
    recursion: false
`);
    const events = await scan([t], ['app.vigil.test', 'www.vigil.test']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'dns',
      host: 'app.vigil.test',
      'matched-at': 'app.vigil.test',
      'extracted-results': ['ec2-54-12-3-4.compute-1.amazonaws.com'],
    });
    expect(events[0].response).toContain(
      ';; ANSWER SECTION:\napp.vigil.test.\t300\tIN\tCNAME\tec2-54-12-3-4.compute-1.amazonaws.com.\n',
    );
    expect(events[0].request).toMatch(
      /^;; opcode: QUERY, status: NOERROR, id: \d+\n;; flags:; QUERY: 1, ANSWER: 0, AUTHORITY: 0, ADDITIONAL: 1\n/,
    );
    expect(events[0].request).toContain(';app.vigil.test.\tIN\t CNAME');
    // recursion: false leaves RD off; the query carries EDNS0 with a 4096-byte buffer as nuclei's does.
    const q = server.queries.find((x) => x.questions?.[0].name === 'app.vigil.test');
    expect(q?.flag_rd).toBe(false);
    expect(q?.additionals?.some((a) => a.type === 'OPT')).toBe(true);
  });

  it('exposes nuclei parts: answer, rcode, question, raw, ns and per-type values', async () => {
    const t = tpl(`id: parts
info: {name: parts, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    matchers-condition: and
    matchers:
      - type: dsl
        dsl:
          - rcode == 0
          - 'contains(question, "www.vigil.test.\\tIN\\t A")'
          - len(a) == 2
          - 'contains(raw, ";; flags: qr aa rd ra;")'
      - type: word
        part: answer
        words: ["IN\\tA\\t192.0.2.10", "IN\\tA\\t192.0.2.11"]
        condition: and
    extractors:
      - type: dsl
        dsl: [a]
`);
    const events = await scan([t], ['https://www.vigil.test:8443/path']);
    expect(events).toHaveLength(1);
    // A list turns into Go's text for it, as nuclei's dsl extractor prints it.
    expect(events[0]['extracted-results']).toEqual(['[192.0.2.10 192.0.2.11]']);
    expect(events[0].host).toBe('www.vigil.test');
  });

  it('record fields drop the trailing dot as nuclei does; answer and raw keep it', async () => {
    const block = (type: string, field: string) => `id: dot-${field}
info: {name: dots, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: ${type}
    matchers:
      - type: dsl
        dsl: ['!endswith(${field}, ".")', 'contains(answer, "${type}\\t")']
      - type: regex
        part: answer
        regex: ['\\.\\n?$']
    matchers-condition: and
    extractors:
      - type: dsl
        dsl: [${field}]
`;
    const got = async (type: string, field: string, target: string) =>
      (await scan([tpl(block(type, field))], [target]))[0]?.['extracted-results'];
    expect(await got('CNAME', 'cname', 'app.vigil.test')).toEqual(['ec2-54-12-3-4.compute-1.amazonaws.com']);
    expect(await got('MX', 'mx', 'vigil.test')).toEqual(['10 mx1.vigil.test']);
    expect(await got('NS', 'ns', 'vigil.test')).toEqual(['ns1.vigil.test']);
    expect(await got('SRV', 'srv', 'vigil.test')).toEqual(['1 5 5060 sip.vigil.test']);
    expect(await got('PTR', 'ptr', '192.0.2.10')).toEqual(['www.vigil.test']);
  });

  it('rcode of an unknown name is NXDOMAIN (3); SERVFAIL and REFUSED show in raw', async () => {
    const t = tpl(`id: rc
info: {name: rc, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    matchers:
      - type: dsl
        name: nx
        dsl: [rcode == 3]
      - type: word
        name: fail
        words: [SERVFAIL, REFUSED]
`);
    const events = await scan([t], ['nothing.vigil.test', 'broken.vigil.test', 'refused.vigil.test', 'www.vigil.test']);
    expect(events.map((e) => `${e.host}:${e['matcher-name']}`).sort()).toEqual([
      'broken.vigil.test:fail',
      'nothing.vigil.test:nx',
      'refused.vigil.test:fail',
    ]);
  });

  it('class chaos, payloads over names, and the template resolver (host:port) winning over the scan', async () => {
    const t = tpl(`id: chaos
info: {name: chaos, author: a, severity: info}
dns:
  - name: "{{sub}}.vigil.test"
    type: A
    payloads:
      sub: [a, b, c]
    resolvers: ["${server.resolver}"]
    matchers:
      - type: regex
        part: answer
        regex: ['IN\\tA\\t192\\.0\\.2\\.\\d']
    extractors:
      - type: regex
        part: answer
        group: 1
        regex: ['IN\\tA\\t(\\S+)']
  - name: version.bind
    type: TXT
    class: chaos
    resolvers: ["${server.resolver}"]
    matchers:
      - type: word
        words: ["CH\\tTXT\\t\\"vigil-dns 1.0\\""]
`);
    const events = await scan([t], ['ignored.example'], { resolvers: ['127.0.0.1:9'] });
    expect(events.map((e) => e['extracted-results']?.[0] ?? e['matched-at']).sort()).toEqual([
      '192.0.2.1',
      '192.0.2.2',
      'version.bind',
    ]);
  });

  it('retries over the listed resolvers: a dead one first, then the live one', async () => {
    const t = tpl(`id: retry
info: {name: retry, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    retries: 2
    matchers:
      - type: word
        words: [192.0.2.10]
`);
    const events = await scan([t], ['www.vigil.test'], { resolvers: ['127.0.0.1:9', server.resolver], timeout: 1 });
    expect(events).toHaveLength(1);
    const none = await scan([t], ['www.vigil.test'], { resolvers: ['127.0.0.1:9'], timeout: 1, matcherStatus: true });
    expect(none).toHaveLength(1);
    expect(none[0]['matcher-status']).toBe(false);
    expect(none[0].error).toMatch(/timed out|ECONNREFUSED/);
  });

  it('an IP input is refused except for PTR, which asks the reverse name', async () => {
    const t = tpl(`id: ptr
info: {name: ptr, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: PTR
    matchers:
      - type: regex
        part: answer
        regex: ["IN\\tPTR\\t(.+)$"]
`);
    const events = await scan([t], ['192.0.2.10']);
    expect(events).toHaveLength(1);
    expect(events[0]['matched-at']).toBe('10.2.0.192.in-addr.arpa');
  });

  it('falls back to TCP when the UDP answer is truncated', async () => {
    const big = await startDnsServer({
      records: { 'big.vigil.test': [{ type: 'A', data: '192.0.2.99' }] },
      truncate: true,
    });
    try {
      const t = tpl(`id: tc
info: {name: tc, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: A
    matchers:
      - type: word
        words: [192.0.2.99]
`);
      expect(await scan([t], ['big.vigil.test'], { resolvers: [big.resolver] })).toHaveLength(1);
      expect(big.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
    } finally {
      await big.close();
    }
  });

  it('two dns blocks share values: an internal extractor of the first names the second query', async () => {
    const t = tpl(`id: chain
info: {name: chain, author: a, severity: info}
dns:
  - name: "{{FQDN}}"
    type: CNAME
    extractors:
      - type: regex
        name: target
        internal: true
        part: answer
        group: 1
        regex: ['CNAME\\t(ec2[^.]+)\\.']
  - name: "{{target}}.vigil.test"
    type: A
    matchers:
      - type: dsl
        dsl: ['rcode == 3 && contains(question, target)']
`);
    const events = await scan([t], ['app.vigil.test']);
    expect(events).toHaveLength(1);
    expect(events[0]['matched-at']).toBe('ec2-54-12-3-4.vigil.test');
  });
});

describe.runIf(hasShared('corpus/nuclei-templates/dns'))('corpus dns templates against the test zone', () => {
  const cases: [string, string, (e: ResultEvent[]) => void][] = [
    [
      'dns/ec2-detection.yaml',
      'app.vigil.test',
      (e) => expect(e.map((x) => x['extracted-results'])).toEqual([['ec2-54-12-3-4.compute-1.amazonaws.com']]),
    ],
    [
      'dns/txt-fingerprint.yaml',
      'vigil.test',
      (e) =>
        expect(e[0]['extracted-results']).toEqual(['"v=spf1 include:_spf.vigil.test ~all"', '"hello \\"world\\""']),
    ],
    [
      'dns/spf-record-detect.yaml',
      'vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['v=spf1 include:_spf.vigil.test ~all"']),
    ],
    ['dns/mx-fingerprint.yaml', 'vigil.test', (e) => expect(e[0]['extracted-results']).toEqual(['10 mx1.vigil.test.'])],
    [
      'dns/nameserver-fingerprint.yaml',
      'vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['ns1.vigil.test.']),
    ],
    ['dns/soa-detect.yaml', 'vigil.test', (e) => expect(e.map((x) => x['matcher-name'])).toEqual(['akamai'])],
    ['dns/caa-fingerprint.yaml', 'vigil.test', (e) => expect(e[0]['extracted-results']).toEqual(['letsencrypt.org'])],
    ['dns/dnssec-detection.yaml', 'vigil.test', (e) => expect(e).toHaveLength(1)],
    [
      'dns/dmarc-detect.yaml',
      'vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['"v=DMARC1; p=reject; rua=mailto:d@vigil.test"']),
    ],
    ['dns/ptr-fingerprint.yaml', '192.0.2.10', (e) => expect(e[0]['extracted-results']).toEqual(['www.vigil.test.'])],
    ['dns/servfail-refused-hosts.yaml', 'broken.vigil.test', (e) => expect(e).toHaveLength(1)],
    ['dns/servfail-refused-hosts.yaml', 'www.vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/detect-dangling-cname.yaml',
      'dangling.vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['gone-app.azurewebsites.net']),
    ],
    ['dns/detect-dangling-cname.yaml', 'app.vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/azure-takeover-detection.yaml',
      'dangling.vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['gone-app.azurewebsites.net']),
    ],
    [
      'dns/dns-rebinding.yaml',
      'internal.vigil.test',
      (e) => expect(e.map((x) => x['extracted-results']?.[0]).sort()).toEqual(['127.0.0.1', 'fd12:3456::1']),
    ],
    ['dns/dns-rebinding.yaml', 'www.vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/dns-saas-service-detection.yaml',
      'saas.vigil.test',
      (e) =>
        expect(e.map((x) => [x['matcher-name'], x['extracted-results']])).toEqual([
          ['ms-office', ['vigil.mail.protection.outlook.com']],
        ]),
    ],
    [
      'dns/dns-waf-detect.yaml',
      'waf.vigil.test',
      (e) => expect(e.map((x) => x['matcher-name'])).toEqual(['baiduyun', 'baiduyunjiasu']),
    ],
    ['dns/dns-waf-detect.yaml', 'vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/elasticbeanstalk-takeover.yaml',
      'eb.vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['myapp.us-east-1.elasticbeanstalk.com']),
    ],
    ['dns/elasticbeanstalk-takeover.yaml', 'app.vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/mx-service-detector.yaml',
      'gmail.vigil.test',
      (e) => expect(e.map((x) => x['matcher-name'])).toEqual(['Google Apps']),
    ],
    ['dns/mx-service-detector.yaml', 'vigil.test', (e) => expect(e).toHaveLength(0)],
    ['dns/spoofable-spf-records-ptr.yaml', 'ptr-spf.vigil.test', (e) => expect(e).toHaveLength(1)],
    ['dns/spoofable-spf-records-ptr.yaml', 'vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/txt-service-detect.yaml',
      'svc.vigil.test',
      (e) => expect(e.map((x) => x['matcher-name']).sort()).toEqual(['apple', 'keybase']),
    ],
    ['dns/worksites-detection.yaml', 'ws.vigil.test', (e) => expect(e).toHaveLength(1)],
    ['dns/worksites-detection.yaml', 'www.vigil.test', (e) => expect(e).toHaveLength(0)],
    [
      'dns/bimi-detect.yaml',
      'bimi.vigil.test',
      (e) => expect(e[0]['extracted-results']).toEqual(['v=BIMI1; l=https://vigil.test/logo.svg"']),
    ],
  ];
  for (const [file, target, check] of cases) {
    it(`${file} on ${target}`, async () => {
      check(await scan([corpusTemplate(file)], [target]));
    });
  }
});
