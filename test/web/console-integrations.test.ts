// Integrations and a new scan's target sources end to end: a real `vigil serve` (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), a receiver on 127.0.0.1 (allowed with VIGIL_EGRESS_ALLOW), Debian's
// Chromium. An Admin makes a webhook alerting config in its form: an address that is no URL is refused in
// words under the URL field by "Send a test", an empty one before anything is sent; the test reaches the
// receiver and says so; saved, the stored YAML holds the form's values; the email provider's fields replace
// the webhook's. A new scan reads a CSV targets file: its bad line is named and nothing is created; a
// corrected file and an asset group make the scan (targets and group checked through the API). axe-core
// finds no serious or critical violation on the form and on the new-scan page.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  endConsoleRun,
  launchChromium,
  newPage,
  screenshotter,
  signInWithKey,
  watchPages,
  apiCaller,
} from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const SLOW = { timeout: 30_000 };
const STEP = 180_000;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const TEMPLATE = `id: e2e-hello
info:
  name: E2E hello page
  author: vigil-e2e
  severity: medium
http:
  - method: GET
    path:
      - "{{BaseURL}}/hello"
    matchers:
      - type: word
        words:
          - "hello vigil"
`;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.each(dbKinds())('console integrations and scan targets on %s', (kind) => {
  let dir: string;
  let receiver: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  const problems: string[] = [];
  const key = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const apiCall = apiCaller(() => base, key);
  const axe = async (p: Page): Promise<string[]> => {
    if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
    const violations = await p.evaluate(async () => {
      const r = await (
        window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }
      ).axe.run(document, { resultTypes: ['violations'] });
      return r.violations;
    });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  };
  /** The error text Mantine shows under a field (its aria-describedby), or ''. */
  const fieldMessage = async (p: Page, field: string) =>
    p.locator(`[data-field="${field}"]`).evaluate((el) => {
      const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
      return ids
        .map((id) => document.getElementById(id))
        .filter((x) => x && /error/.test(x.id))
        .map((x) => x!.textContent)
        .join(' ');
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-int-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/e2e'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/e2e/hello.yaml'), TEMPLATE);
    receiver = await startHttpServer((req, res) => {
      if (req.url === '/hello') return res.end('hello vigil');
      res.end('ok');
    });
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: key,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(150_000);
    await serve.waitFor(/template catalogue imported/, 120_000);
    browser = await launchChromium();
    owner = (await newPage(browser)).page;
    watchPages([owner], problems);
    await signInWithKey(owner, base, key, 'OWNER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [receiver], kind, schema, dir }), STEP);

  it(
    'a webhook config in its form: problems in words at the field, a test that reaches the receiver, saved as YAML',
    async () => {
      const configs = async () => (await apiCall('GET', '/v1/scans/config')).json.length as number;
      const before = await configs();
      await owner.goto(base + '/settings/configs/new?type=alerting');
      await owner.getByTestId('integration-form').waitFor();
      await owner.getByLabel('Name').fill('Receiver hook');
      const url = owner.locator('[data-field="webhook.url"]');

      // Not a URL: the test's answer names the field, in words.
      await url.fill('hooks.example.com/vigil');
      await owner.getByTestId('test-config').click();
      await owner.getByTestId('config-test').waitFor();
      expect(await owner.getByTestId('config-test').textContent()).toContain('must be an http(s) URL');
      await expect
        .poll(() => fieldMessage(owner, 'webhook.url'), SLOW)
        .toBe('must be an http(s) URL such as https://hooks.example.com/path');

      // Empty: refused at the field before anything is sent.
      await url.fill('');
      await owner.getByTestId('save-config').click();
      await expect.poll(() => fieldMessage(owner, 'webhook.url'), SLOW).toBe('is required');
      expect(await configs()).toBe(before);

      // The receiver: the test is delivered and the page says so.
      await url.fill(`${receiver.url}/hook`);
      await owner.locator('[data-field="webhook.method"]').click();
      await owner.getByRole('option', { name: 'PUT', exact: true }).click();
      await owner.getByTestId('test-config').click();
      await expect
        .poll(() => owner.getByTestId('config-test').textContent(), SLOW)
        .toContain('test alert delivered (HTTP 200)');
      const got = receiver.requests.filter((r) => r.url === '/hook');
      expect(got).toHaveLength(1);
      expect(got[0]!.method).toBe('PUT');
      expect(JSON.parse(got[0]!.body)).toMatchObject({ event: 'test' });
      expect(await fieldMessage(owner, 'webhook.url')).toBe('');
      expect(await axe(owner)).toEqual([]);
      await shot(owner, 'integration-form');

      // Saved: the stored text holds the form's values, and the YAML tab shows the same text.
      await owner.getByTestId('save-config').click();
      await owner.waitForURL((u) => /\/settings\/configs\/[0-9a-f-]{36}$/.test(u.pathname));
      const id = owner.url().split('/').pop()!;
      const stored = (await apiCall('GET', `/v1/scans/config/${id}`)).json;
      expect(stored).toMatchObject({ config_type: 'alerting', provider_name: 'webhook' });
      expect(stored.config).toContain(`url: ${receiver.url}/hook`);
      expect(stored.config).toContain('method: PUT');
      await owner.getByTestId('integration-form').waitFor();
      await owner.getByTestId('config-mode').getByText('YAML').click();
      await expect.poll(() => owner.locator('.cm-content').textContent(), SLOW).toContain('method: PUT');
      await owner.getByTestId('config-mode').getByText('Form').click();

      // Another provider: its own fields; the required ones are asked for before anything is sent.
      await owner.getByTestId('integration-provider').click();
      await owner.getByRole('option', { name: 'Email (SMTP)' }).click();
      await owner.locator('[data-field="email.host"]').waitFor();
      expect(await owner.locator('[data-field="webhook.url"]').count()).toBe(0);
      await owner.getByTestId('test-config').click();
      await expect.poll(() => fieldMessage(owner, 'email.host'), SLOW).toBe('is required');
      expect(await fieldMessage(owner, 'email.from')).toBe('is required');
      expect(await axe(owner)).toEqual([]);
      expect(problems).toEqual([]);
    },
    STEP,
  );

  it(
    'a new scan from a CSV targets file and an asset group: a bad line creates nothing, the fixed file does',
    async () => {
      const group = await apiCall('POST', '/v1/asset/enumerate/group', {
        name: 'Shop hosts',
        filters: { host: 'shop' },
      });
      expect(group.status).toBe(200);
      const scans = async () => (await apiCall('GET', '/v1/scans')).json.data.length as number;
      const before = await scans();
      await owner.goto(base + '/scans/new');
      await owner.getByTestId('target-sources').waitFor();
      await owner.getByLabel('Name').fill('From a file');
      await owner.getByLabel('search templates to add').fill('e2e');
      await owner.getByTestId('template-pick').getByRole('button', { name: 'Add' }).first().click();
      const file = owner.getByTestId('target-sources').locator('input[type=file]');
      await file.setInputFiles({
        name: 'hosts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`host,owner\n${receiver.url}/,web team\nnot a host,ops\n`),
      });
      await expect
        .poll(() => owner.getByTestId('target-file-problems').textContent(), SLOW)
        .toContain('line 3: "not a host" is not a URL, host, address or range');
      await owner.getByTestId('create-scan').click();
      await expect.poll(() => owner.getByTestId('scan-error').textContent(), SLOW).toContain('line 3');
      expect(await scans()).toBe(before);

      await file.setInputFiles({
        name: 'hosts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`host,owner\n${receiver.url}/,web team\n# retired: old.example\n`),
      });
      // The first file also gave "1 targets": wait for its problems to go, which only the new file's parse does.
      await expect.poll(() => owner.getByTestId('target-file-problems').count(), SLOW).toBe(0);
      await expect.poll(() => owner.getByTestId('target-file-summary').textContent(), SLOW).toContain('1 targets');
      await owner.getByTestId('target-groups').click();
      await owner.getByRole('option', { name: /^Shop hosts/ }).click();
      await owner.keyboard.press('Escape');
      expect(await axe(owner)).toEqual([]);
      await shot(owner, 'new-scan-targets');
      await owner.getByTestId('create-scan').click();
      await owner
        .waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith('/new'), SLOW)
        .catch(async (err) => {
          throw new Error(
            `not created: ${await owner
              .getByTestId('scan-error')
              .textContent()
              .catch(() => '')}: ${err}`,
          );
        });
      await owner.waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith('/new'), SLOW);
      const id = owner.url().split('/').pop()!.split('?')[0]!;
      const cfg = (await apiCall('GET', `/v1/scans/${id}/config`)).json;
      expect(cfg.targets).toEqual([`${receiver.url}/`]);
      expect(cfg.assets_lists).toEqual([group.json.id]);
      expect(problems).toEqual([]);
    },
    STEP,
  );
});
