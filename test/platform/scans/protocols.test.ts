// Templates of the protocols beyond http run in platform scans: a tcp template against a banner service
// and an ssl template against a TLS server with a self-signed certificate, sent as private templates.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCert } from '../../helpers/certs.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';

const TCP_TEMPLATE = `id: banner-check
info: {name: Banner check, author: vigil, severity: low}
tcp:
  - host: ["{{Hostname}}"]
    inputs:
      - data: "HELLO\\r\\n"
    matchers:
      - type: word
        words: [VIGIL-SERVICE]
    extractors:
      - type: regex
        regex: ['VIGIL-SERVICE [\\d.]+']
`;

const SSL_TEMPLATE = `id: self-signed-check
info: {name: Self-signed certificate, author: vigil, severity: low}
ssl:
  - address: "{{Host}}:{{Port}}"
    matchers:
      - type: dsl
        dsl: [self_signed == true]
    extractors:
      - type: json
        json: [.subject_cn]
`;

describe('platform scans run tcp and ssl templates', () => {
  let t: ScanTestApp;
  const closers: (() => void)[] = [];
  let tcpPort = 0;
  let tlsPort = 0;
  beforeAll(async () => {
    t = await createScanApp('pglite');
    const banner = net.createServer((s) => {
      s.on('error', () => {});
      s.on('data', (d) => {
        if (d.toString().startsWith('HELLO')) s.end('VIGIL-SERVICE 2.1 ready\r\n');
      });
    });
    await new Promise<void>((r) => banner.listen(0, '127.0.0.1', r));
    tcpPort = (banner.address() as net.AddressInfo).port;
    const pem = makeCert({ subject: '/CN=platform.vigil.test' });
    const secure = tls.createServer({ key: pem.key, cert: pem.cert }, (s) => s.end());
    secure.on('tlsClientError', () => {});
    await new Promise<void>((r) => secure.listen(0, '127.0.0.1', r));
    tlsPort = (secure.address() as net.AddressInfo).port;
    closers.push(
      () => banner.close(),
      () => secure.close(),
    );
  });
  afterAll(async () => {
    for (const c of closers) c();
    await t?.close();
  });

  it('stores their results with their protocol type', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [`127.0.0.1:${tcpPort}`, `127.0.0.1:${tlsPort}`],
        private_templates: [
          { name: 'banner.yaml', contents: TCP_TEMPLATE },
          { name: 'ssl.yaml', contents: SSL_TEMPLATE },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const scan = await t.waitStatus(id, ['finished', 'failed']);
    expect(scan).toMatchObject({ status: 'finished', total_result: 2, total_template: 2 });
    const results = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json();
    const events = results.data.map((r: { event: Record<string, unknown>[] }) => r.event[0]);
    const byType = Object.fromEntries(events.map((e: Record<string, unknown>) => [e.type, e]));
    expect(byType.tcp).toMatchObject({
      'template-id': 'banner-check',
      'matched-at': `127.0.0.1:${tcpPort}`,
      'extracted-results': ['VIGIL-SERVICE 2.1'],
    });
    expect(byType.ssl).toMatchObject({
      'template-id': 'self-signed-check',
      'matched-at': `127.0.0.1:${tlsPort}`,
      'extracted-results': ['platform.vigil.test'],
    });
  });
});
