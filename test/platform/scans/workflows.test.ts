// Workflows in platform scans: a catalogue workflow runs the catalogue templates it names (by path and
// by tag) only under the matcher names that fired; the scan stores each template's results under its own
// id. Through the engine threads of `vigil serve` and through the in-process path alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { makeCatalogue, type Catalogue } from '../templates/fixtures.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';
import { closeEngineThreads, useEngineThreads } from '../../../src/platform/scans/engine-pool.ts';

const t = (id: string, tags: string, p: string, matchers: string) => `id: ${id}
info: { name: ${id}, author: vigil, severity: medium, tags: "${tags}" }
http:
  - method: GET
    path: ["{{BaseURL}}${p}"]
    matchers:
${matchers}`;

const WORKFLOW = `id: shop-workflow
info: { name: shop workflow, author: vigil, severity: info }
workflows:
  - template: http/tech/detect.yaml
    matchers:
      - name: shopware
        subtemplates:
          - tags: shopware
      - name: magento
        subtemplates:
          - template: http/vulns/magento.yaml
`;

describe('workflows in platform scans', () => {
  let app: ScanTestApp;
  let cat: Catalogue;
  let target: TestServer;
  beforeAll(async () => {
    app = await createScanApp('pglite');
    cat = makeCatalogue({
      'workflows/shop.yaml': WORKFLOW,
      'http/tech/detect.yaml': t(
        'detect',
        'tech',
        '/',
        '      - type: word\n        name: shopware\n        words: [sw-shop]\n      - type: word\n        name: magento\n        words: [Mage.Cookies]\n',
      ),
      'http/vulns/shopware-admin.yaml': t(
        'shopware-admin',
        'shopware',
        '/admin',
        '      - type: word\n        words: [Shopware Administration]\n',
      ),
      'http/vulns/magento.yaml': t(
        'magento-vuln',
        'magento',
        '/magento',
        '      - type: status\n        status: [200]\n',
      ),
    });
    await importCatalogue(app.ctx.db, cat.dir);
    target = await startHttpServer((q, res) =>
      res.end(q.url === '/admin' ? 'Shopware Administration' : '<div class="sw-shop">shop</div>'),
    );
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
    cat?.cleanup();
  });

  it.each([
    ['in-process', false],
    ['engine threads', true],
  ] as const)('runs the subtemplates the detection selects, and only those (%s)', async (_, threads) => {
    if (threads) useEngineThreads(1);
    target.requests.length = 0;
    const res = await app.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], templates: ['workflows/shop.yaml'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const scan = await app.waitStatus(res.json().id, ['finished', 'failed']);
    expect(scan.status).toBe('finished');
    const results = (await app.request({ method: 'GET', url: `/v1/scans/results?scan_id=${res.json().id}` })).json();
    const ids = (results.data ?? results.results ?? []).map((r: { template_id: string }) => r.template_id).sort();
    expect(ids).toEqual(['detect', 'shopware-admin']);
    expect(target.requests.map((r) => r.url).sort()).toEqual(['/', '/admin']);
    if (threads) await closeEngineThreads();
  });
});
