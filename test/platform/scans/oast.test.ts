// Platform scans use the platform's OAST server: a scan of the corpus's header-based OOB template against
// a target that resolves the name it is given (through the OAST DNS listener) stores a result whose event
// carries the interaction.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOast, type OastServer } from '../../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../../src/oast/config.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';
import { corpusDir } from '../../helpers/templates.ts';
import { hasShared } from '../../helpers/shared.ts';

const DOMAIN = 'platform.oast.test';

describe.skipIf(!hasShared('corpus/nuclei-templates'))('platform scans with out-of-band checks', () => {
  let t: ScanTestApp;
  let oast: OastServer;
  let target: http.Server;
  beforeAll(async () => {
    oast = await startOast(
      oastConfigFromEnv({
        VIGIL_OAST_DOMAIN: DOMAIN,
        VIGIL_OAST_IP: '127.0.0.1',
        VIGIL_OAST_HTTP: '127.0.0.1:0',
        VIGIL_OAST_DNS: '127.0.0.1:0',
      })!,
    );
    target = http.createServer(async (req, res) => {
      const r = new Resolver();
      r.setServers([`127.0.0.1:${oast.ports.dns}`]);
      await r.resolve4(String(req.headers['x-forwarded-for'] ?? 'none')).catch(() => []);
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    // What `vigil serve` sets from VIGIL_OAST_* (shared/config.ts), with quick polling for the test.
    t = await createScanApp('pglite', {
      interactsh: { server: oast.localUrl, domain: DOMAIN, pollSeconds: 0.5, cooldownSeconds: 2 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => target?.close(r));
    await oast?.close();
  });

  it('stores the finding with the interaction that proved it', async () => {
    const contents = readFileSync(
      path.join(corpusDir, 'http/vulnerabilities/generic/oob-header-based-interaction.yaml'),
      'utf8',
    );
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [`http://127.0.0.1:${(target.address() as AddressInfo).port}`],
        private_templates: [{ name: 'oob.yaml', contents }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const scan = await t.waitStatus(id, ['finished', 'failed'], 60_000);
    expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
    const results = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json();
    const event = results.data[0].event[0];
    expect(event['template-id']).toBe('oob-header-based-interaction');
    expect(event.interaction).toMatchObject({ protocol: 'dns', 'q-type': 'A', 'remote-address': '127.0.0.1' });
    expect(event.interaction['raw-request']).toContain(DOMAIN);
  });
});
