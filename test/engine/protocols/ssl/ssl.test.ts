// The ssl protocol against TLS servers on 127.0.0.1 with certificates made at test time (a CA and its
// leaves, self-signed, expired, wrong name, wildcard): nuclei's handshake facts and corpus templates.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { makeCert, type Pem } from '../../../helpers/certs.ts';
import { hasShared } from '../../../helpers/shared.ts';
import { corpusTemplate, tpl } from '../../../helpers/templates.ts';

async function scan(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 3, onResult: (e) => events.push(e), ...extra });
  return events;
}

const closers: (() => void)[] = [];
async function tlsServer(pem: Pem, chain: string[] = [], opts: tls.TlsOptions = {}): Promise<number> {
  const srv = tls.createServer({ key: pem.key, cert: [pem.cert, ...chain].join(''), ...opts }, (s) => s.end('hi'));
  srv.on('tlsClientError', () => {});
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(() => srv.close());
  return (srv.address() as net.AddressInfo).port;
}

let ca: Pem;
const ports: Record<string, number> = {};
beforeAll(async () => {
  ca = makeCert({ subject: '/CN=Vigil Test CA/O=Vigil Labs', isCa: true, days: 30 });
  const good = makeCert({ subject: '/CN=localhost/O=Vigil Test', dns: ['localhost', 'www.vigil.test'], ca, days: 10 });
  ports.good = await tlsServer(good, [ca.cert]);
  ports.self = await tlsServer(makeCert({ subject: '/CN=localhost', dns: ['localhost'] }));
  // What `openssl req -x509` makes by default: a self-signed certificate marked CA, sent alone.
  ports.selfCa = await tlsServer(makeCert({ subject: '/CN=localhost', dns: ['localhost'], isCa: true }));
  // Signed by the CA but without any DNS name: tlsx counts a certificate without SANs as self-signed.
  ports.noSan = await tlsServer(makeCert({ subject: '/CN=localhost', ca }), [ca.cert]);
  ports.expired = await tlsServer(makeCert({ subject: '/CN=localhost', dns: ['localhost'], ca, days: -1 }), [ca.cert]);
  ports.wrong = await tlsServer(makeCert({ subject: '/CN=other.vigil.test', dns: ['other.vigil.test'], ca }), [
    ca.cert,
  ]);
  ports.wild = await tlsServer(
    makeCert({ subject: '/CN=*.apps.vigil.test', dns: ['*.apps.vigil.test', 'apps.vigil.test'], ca }),
    [ca.cert],
  );
  ports.tls12 = await tlsServer(good, [ca.cert], { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' });
  ports.k8s = await tlsServer(makeCert({ subject: '/O=Acme Co/CN=Kubernetes Ingress Controller Fake Certificate' }));
  ports.forti = await tlsServer(makeCert({ subject: '/C=US/O=Fortinet/OU=FortiGate/CN=FG100FTK19000000' }));
  ports.covenant = await tlsServer(makeCert({ subject: '/CN=Covenant' }));
  ports.msf = await tlsServer(
    makeCert({ subject: '/CN=victim.example', ca: makeCert({ subject: '/CN=MetasploitSelfSignedCA', isCa: true }) }),
  );
  ports.havoc = await tlsServer(makeCert({ subject: '/C=US/postalCode=3540/O=Havoc/CN=havoc' }));
  ports.asyncrat = await tlsServer(makeCert({ subject: '/CN=AsyncRAT Server' }));
  ports.mythic = await tlsServer(
    makeCert({ subject: '/CN=c2.example', ca: makeCert({ subject: '/C=US/O=Mythic/CN=Mythic CA', isCa: true }) }),
  );
  ports.posh = await tlsServer(makeCert({ subject: '/CN=P18055077' }));
  ports.ciphers = await tlsServer(good, [ca.cert], {
    minVersion: 'TLSv1.2',
    maxVersion: 'TLSv1.2',
    ciphers: 'AES128-SHA:ECDHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0',
  });
  ports.tls10 = await tlsServer(good, [ca.cert], {
    minVersion: 'TLSv1',
    maxVersion: 'TLSv1',
    ciphers: 'AES256-SHA:@SECLEVEL=0',
  });
  ports.sliver = await tlsServer(
    makeCert({ subject: '/CN=multiplayer', ca: makeCert({ subject: '/CN=operators', isCa: true }) }),
  );
});
afterAll(() => {
  for (const c of closers) c();
});

const facts = tpl(`id: facts
info: {name: facts, author: a, severity: info}
ssl:
  - address: "{{Host}}:{{Port}}"
    extractors:
      - type: json
        name: json
        json: [".subject_cn", ".issuer_cn", ".tls_version", ".subject_an[]"]
      - type: kval
        name: kval
        kval: [issuer_dn, subject_dn, serial]
      - type: dsl
        name: flags
        dsl: ['"self_signed=" + self_signed', '"expired=" + expired', '"mismatched=" + mismatched', '"untrusted=" + untrusted']
`);

function byName(events: ResultEvent[]): Record<string, string[]> {
  return Object.fromEntries(events.map((e) => [e['extractor-name'], e['extracted-results'] ?? []]));
}

describe('ssl protocol', () => {
  it('a CA-signed certificate for the name asked: subject, issuer, SANs, version, serial; no flags but untrusted', async () => {
    const events = await scan([facts], [`localhost:${ports.good}`]);
    const r = byName(events);
    // One extractor's values are a set, as in nuclei: localhost shows once.
    expect(r.json).toEqual(['localhost', 'Vigil Test CA', 'tls13', 'www.vigil.test']);
    expect(r.kval).toEqual(['O=Vigil Labs,CN=Vigil Test CA', 'O=Vigil Test,CN=localhost', '08:BB:00:EE:12:34']);
    // Flags that are false are absent (nuclei drops zero values), so only untrusted (a private CA) shows.
    expect(r.flags).toEqual(['untrusted=true']);
    expect(events[0]).toMatchObject({ type: 'ssl', 'matched-at': `localhost:${ports.good}`, ip: '127.0.0.1' });
  });

  it('self-signed, expired and wrong-name certificates are flagged', async () => {
    expect(byName(await scan([facts], [`https://localhost:${ports.self}`])).flags).toEqual(['self_signed=true']);
    expect(byName(await scan([facts], [`localhost:${ports.expired}`])).flags).toEqual([
      'expired=true',
      'untrusted=true',
    ]);
    expect(byName(await scan([facts], [`localhost:${ports.wrong}`])).flags).toEqual([
      'mismatched=true',
      'untrusted=true',
    ]);
  });

  it('untrusted judges only the certificates after the leaf, as tlsx: a self-signed CA leaf sent alone is not an untrusted root', async () => {
    expect(byName(await scan([facts], [`localhost:${ports.selfCa}`])).flags).toEqual(['self_signed=true']);
    // The private CA sent after the leaf is a self-signed CA that no trust store knows.
    expect(byName(await scan([facts], [`localhost:${ports.good}`])).flags).toEqual(['untrusted=true']);
    expect(byName(await scan([facts], [`localhost:${ports.noSan}`])).flags).toEqual([
      'self_signed=true',
      'untrusted=true',
    ]);
  });

  it('min_version/max_version bound the handshake; tls_version_enum lists what the server speaks', async () => {
    const t = tpl(`id: ver
info: {name: ver, author: a, severity: info}
ssl:
  - address: "{{Host}}:{{Port}}"
    min_version: tls13
    max_version: tls13
    extractors:
      - type: json
        json: [".tls_version"]
  - address: "{{Host}}:{{Port}}"
    min_version: tls12
    max_version: tls12
    tls_version_enum: true
    extractors:
      - type: dsl
        dsl: ['tls_version + " " + cipher + " " + join(",", version_enum)']
`);
    const on13 = await scan([t], [`127.0.0.1:${ports.good}`]);
    expect(on13.map((e) => e['extracted-results']![0])).toEqual([
      'tls13',
      expect.stringMatching(/^tls12 TLS_ECDHE_RSA_WITH_AES_\d+_GCM_SHA\d+ tls12,tls13$/),
    ]);
    const on12 = await scan([t], [`127.0.0.1:${ports.tls12}`]);
    expect(on12.map((e) => e['extracted-results']![0])).toEqual(['tls12 TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 tls12']);
  });

  it("the scan's sni is the server name sent; an IP input sends none", async () => {
    const t = tpl(`id: sni
info: {name: sni, author: a, severity: info}
ssl:
  - address: "{{Host}}:{{Port}}"
    extractors:
      - type: json
        json: [.sni]
`);
    expect((await scan([t], [`127.0.0.1:${ports.good}`], { sni: 'www.vigil.test' }))[0]['extracted-results']).toEqual([
      'www.vigil.test',
    ]);
    expect(await scan([t], [`127.0.0.1:${ports.good}`])).toHaveLength(0);
    expect((await scan([t], [`localhost:${ports.good}`]))[0]['extracted-results']).toEqual(['localhost']);
  });

  it('tls_cipher_enum: the ciphers a server accepts per version, filed as weak / secure', async () => {
    const t = tpl(`id: ciphers
info: {name: ciphers, author: a, severity: info}
ssl:
  - address: "{{Host}}:{{Port}}"
    tls_cipher_enum: true
    tls_cipher_types: [weak, secure]
    extractors:
      - type: json
        json: ['.cipher_enum[] | .version + " " + (.ciphers.weak // [] | join(",")) + " / " + (.ciphers.secure // [] | join(","))']
`);
    const events = await scan([t], [`127.0.0.1:${ports.ciphers}`]);
    expect(events[0]['extracted-results']).toEqual([
      'tls12 TLS_RSA_WITH_AES_128_CBC_SHA / TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    ]);
  });

  it('a dead port gives a failure event with the reason', async () => {
    const events = await scan([facts], ['127.0.0.1:9'], { matcherStatus: true });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ 'matcher-status': false, type: 'ssl' });
    expect(events[0].error).toMatch(/could not connect/);
  });
});

describe.runIf(hasShared('corpus/nuclei-templates/ssl'))('corpus ssl templates against local TLS servers', () => {
  const cases: [string, string, (e: ResultEvent[]) => void][] = [
    ['ssl/self-signed-ssl.yaml', 'self', (e) => expect(e).toHaveLength(1)],
    ['ssl/self-signed-ssl.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    [
      'ssl/expired-ssl.yaml',
      'expired',
      (e) => expect(e[0]['extracted-results']![0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/),
    ],
    ['ssl/expired-ssl.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    [
      'ssl/mismatched-ssl-certificate.yaml',
      'wrong',
      (e) => expect(e[0]['extracted-results']).toEqual(['CN: other.vigil.test']),
    ],
    ['ssl/mismatched-ssl-certificate.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    ['ssl/untrusted-root-certificate.yaml', 'good', (e) => expect(e).toHaveLength(1)],
    ['ssl/untrusted-root-certificate.yaml', 'self', (e) => expect(e).toHaveLength(0)],
    ['ssl/untrusted-root-certificate.yaml', 'selfCa', (e) => expect(e).toHaveLength(0)],
    ['ssl/self-signed-ssl.yaml', 'selfCa', (e) => expect(e).toHaveLength(1)],
    [
      'ssl/wildcard-tls.yaml',
      'wild',
      (e) =>
        expect(e[0]['extracted-results']).toEqual([
          'CN: *.apps.vigil.test',
          ' SAN: [*.apps.vigil.test apps.vigil.test]',
        ]),
    ],
    [
      'ssl/ssl-dns-names.yaml',
      'good',
      (e) => expect(e[0]['extracted-results']).toEqual(['localhost', 'www.vigil.test']),
    ],
    ['ssl/detect-ssl-issuer.yaml', 'good', (e) => expect(e[0]['extracted-results']).toEqual(['Vigil Labs'])],
    ['ssl/tls-version.yaml', 'tls12', (e) => expect(e.map((x) => x['extracted-results'])).toEqual([['tls12']])],
    [
      'ssl/tls-version.yaml',
      'good',
      (e) => expect(e.map((x) => x['extracted-results'])).toEqual([['tls12'], ['tls13']]),
    ],
    ['ssl/deprecated-tls.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    ['ssl/kubernetes-fake-certificate.yaml', 'k8s', (e) => expect(e).toHaveLength(1)],
    ['ssl/c2/sliver-c2.yaml', 'sliver', (e) => expect(e[0]['extracted-results']).toEqual(['operators'])],
    ['ssl/c2/sliver-c2.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    [
      'ssl/fortinet/fortigate-certificate.yaml',
      'forti',
      (e) => expect(e[0]['extracted-results']).toEqual(['[FG100FTK19000000]']),
    ],
    ['ssl/fortinet/fortigate-certificate.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    ['ssl/c2/cobalt-strike-c2.yaml', 'good', (e) => expect(e[0]['extracted-results']).toEqual(['08:BB:00:EE:12:34'])],
    ['ssl/c2/cobalt-strike-c2.yaml', 'self', (e) => expect(e).toHaveLength(0)],
    ['ssl/c2/covenant-c2-ssl.yaml', 'covenant', (e) => expect(e[0]['extracted-results']).toEqual(['CN=Covenant'])],
    ['ssl/c2/metasploit-c2.yaml', 'msf', (e) => expect(e[0]['extracted-results']).toEqual(['MetasploitSelfSignedCA'])],
    [
      'ssl/c2/havoc-c2.yaml',
      'havoc',
      (e) => expect(e[0]['extracted-results']).toEqual(['CN=havoc,O=Havoc,postalCode=3540,C=US']),
    ],
    ['ssl/c2/asyncrat-c2.yaml', 'asyncrat', (e) => expect(e[0]['extracted-results']).toEqual(['AsyncRAT Server'])],
    [
      'ssl/c2/mythic-c2-ssl.yaml',
      'mythic',
      (e) => expect(e[0]['extracted-results']).toEqual(['CN=Mythic CA,O=Mythic,C=US']),
    ],
    ['ssl/c2/posh-c2.yaml', 'posh', (e) => expect(e[0]['extracted-results']).toEqual(['P18055077'])],
    ['ssl/c2/posh-c2.yaml', 'good', (e) => expect(e).toHaveLength(0)],
    [
      'ssl/weak-cipher-suites.yaml',
      'tls10',
      (e) =>
        expect(e.map((x) => [x['matcher-name'], x['extracted-results']])).toEqual([
          ['tls-1.0', ['[tls10 TLS_RSA_WITH_AES_256_CBC_SHA]']],
        ]),
    ],
    ['ssl/weak-cipher-suites.yaml', 'good', (e) => expect(e).toHaveLength(0)],
  ];
  for (const [file, server, check] of cases) {
    it(`${file} on the ${server} server`, async () => {
      check(await scan([corpusTemplate(file)], [`localhost:${ports[server]}`]));
    });
  }
});
