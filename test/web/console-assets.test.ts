// The console's assets pages end to end: a real `vigil serve` (PGlite data folder, and PostgreSQL when
// TEST_DATABASE_URL is set), a DNS server and two HTTP servers on 127.0.0.1 as the discovered estate, and
// Debian's Chromium. The owner creates an enumeration (a bad root first: the server's 400 is shown), watches
// it finish and sees its assets with their technologies (fingerprinted by a catalogue template); creates a
// policy (refused without conditions, then made); edits both (the server's 400 at the field, then saved);
// the estate changes, a rescan shows what appeared, changed and disappeared, and the policy's event; a
// Member sees the pages with no create/rescan/delete/edit controls and is refused by the API. Screenshots
// of the main assets pages go to .vigil-tmp/console-shots/ (from the PGlite run;
// `npm run docs:screenshots` sends them to docs/console/).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  addMember,
  endConsoleRun,
  launchChromium,
  newPage,
  screenshotter,
  signInWithKey,
  signInWithPassword,
  watchPages,
} from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { sampleInventory, startCloudApis, TOKENS, type CloudApis } from '../helpers/cloud-apis.ts';

const MEMBER_PASSWORD = 'member password 4567';
const SLOW = { timeout: 30_000 };
const STEP = 180_000;

/** The default fingerprint template path, with one named matcher: the shop's page becomes a technology. */
const TECH_DETECT = `id: tech-detect
info:
  name: E2E technology fingerprints
  author: vigil-e2e
  severity: info
  tags: tech
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        name: vigil-shop
        words:
          - "E2E shop"
`;

const page = (title: string) => `<html><head><title>${title}</title></head><body>${title} page</body></html>`;

describe.each(dbKinds())('web console assets pages on %s', (kind) => {
  let dir: string;
  let dns: DnsTestServer;
  let cloud: CloudApis; // answers as DigitalOcean's API does (and the other providers')
  let shop: TestServer; // stays up; goes into maintenance (503) before the rescan
  let admin: TestServer; // closed before the rescan
  let maintenance = false;
  /** The shop answers slowly during the first run, so the page shows the run while it goes. */
  let delayMs = 1200;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  let enumUrl = '';
  let policyUrl = '';
  const browserProblems: string[] = [];
  const ownerKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const api = (method: string, url: string, body?: unknown) =>
    fetch(base + url, {
      method,
      headers: { 'x-api-key': ownerKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  /** Web assets are named by their URL. */
  const shopUrl = () => `http://shop.e2e.test:${shop.port}/`;
  const adminUrl = () => `http://shop.e2e.test:${admin.port}/`;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-assets-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/technologies'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/technologies/tech-detect.yaml'), TECH_DETECT);
    shop = await startHttpServer(async (req, res) => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      res.setHeader('Server', 'nginx/1.25.3');
      res.setHeader('content-type', 'text/html');
      if (req.url === '/favicon.ico') {
        res.statusCode = 404;
        return res.end();
      }
      if (maintenance) {
        res.statusCode = 503;
        return res.end(page('Maintenance'));
      }
      res.end(page('E2E shop'));
    });
    admin = await startHttpServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(page('Admin'));
    });
    dns = await startDnsServer({ records: { 'shop.e2e.test': [{ type: 'A', data: '127.0.0.1' }] } });
    cloud = await startCloudApis(sampleInventory());
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
      VIGIL_BOOTSTRAP_API_KEY: ownerKey,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_CLOUD_ENDPOINTS: cloud.endpointsEnv,
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    });
    base = await serve.listening(150_000);
    await serve.waitFor(/template catalogue imported/, 120_000);
    browser = await launchChromium();
    owner = (await newPage(browser)).page;
    member = (await newPage(browser)).page;
    watchPages([owner, member], browserProblems);
    // The owner signs in with the key (the first page asks for it); the member is invited through the API.
    await owner.goto(base + '/assets');
    await owner.waitForURL(/\/sign-in\?next=%2Fassets/);
    await signInWithKey(owner, base, ownerKey, 'OWNER');
    await owner.waitForURL(/\/assets$/);
    await addMember(base, ownerKey, 'member@example.com', MEMBER_PASSWORD);
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [shop, admin, dns, cloud], kind, schema, dir }), STEP);

  it(
    "the owner creates an enumeration (the server's 400 shown first), watches it finish and sees its assets",
    async () => {
      await owner.getByText(/No enumerations yet/).waitFor();
      await owner.getByTestId('new-enumeration').click();
      await owner.waitForURL(/\/assets\/new$/);
      await owner.getByLabel(/^Name/).fill('E2E shop');
      // A range larger than /16: refused by the server, which names the field.
      await owner.getByLabel(/^Roots/).fill('10.0.0.0/8');
      await owner.getByTestId('create-enumeration').click();
      await expect
        .poll(() => owner.getByTestId('enumeration-error').textContent(), SLOW)
        .toMatch(/\(root_domains\[0\]\)$/);
      expect(owner.url()).toMatch(/\/assets\/new$/);
      await owner.evaluate(() => window.scrollTo(0, 0));
      await shot(owner, 'assets-new-enumeration');

      await owner.getByLabel(/^Roots/).fill('shop.e2e.test');
      await owner.getByLabel(/^Ports/).fill(`${shop.port},${admin.port}`);
      await owner.getByLabel(/^DNS resolvers/).fill(dns.resolver);
      await owner.getByLabel(/^Timeout/).fill('5');
      await owner.getByTestId('create-enumeration').click();
      await owner.waitForURL((u) => /^\/assets\/[0-9a-f]{20}$/.test(u.pathname));
      enumUrl = owner.url();
      // Live: the page shows the run going, then (polling) its end.
      await owner
        .getByTestId('enum-status')
        .filter({ hasText: /queued|running/ })
        .waitFor();
      await owner.getByTestId('enum-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      delayMs = 0;
      expect(await owner.getByTestId('enumeration-progress').textContent()).toBe('100%');
      expect(await owner.getByTestId('total-assets').textContent()).toBe('3');

      const rows = owner.getByTestId('assets-table').locator('tbody tr');
      await expect.poll(() => rows.count(), SLOW).toBe(3);
      const shopRow = owner.locator(`tr[data-asset="${shopUrl()}"]`);
      expect(await shopRow.textContent()).toContain('E2E shop');
      expect(await shopRow.textContent()).toContain('nginx/1.25.3');
      // Technologies: from the Server header, and from the catalogue's fingerprint template.
      await shopRow.getByText('vigil-shop').waitFor();
      await shopRow.getByText('nginx', { exact: true }).waitFor();
      expect(await owner.locator(`tr[data-asset="${adminUrl()}"]`).textContent()).toContain('Admin');
      expect(await owner.locator('tr[data-asset="shop.e2e.test"]').textContent()).toContain('127.0.0.1');
      await shot(owner, 'assets-enumeration');

      // Filters go to the server and into the URL (a deep link).
      await owner.getByLabel('technology').fill('vigil-shop');
      await expect.poll(() => rows.count(), SLOW).toBe(1);
      expect(owner.url()).toContain('tech=vigil-shop');
      await owner.goto(owner.url());
      await expect.poll(() => rows.count(), SLOW).toBe(1);
      // An asset opens in a drawer with its facts and history.
      await shopRow.getByRole('button', { name: shopUrl() }).click();
      const detail = owner.getByTestId('asset-detail');
      await detail.waitFor();
      expect(await detail.textContent()).toContain('nginx/1.25.3');
      await owner.getByTestId('asset-history').getByText('appeared').waitFor();
      expect(owner.url()).toMatch(/asset=\d+/);
      await owner.keyboard.press('Escape');

      // The list of enumerations, and the team's inventory.
      await owner.goto(base + '/assets');
      await owner.getByTestId('enumerations-table').getByRole('link', { name: 'E2E shop' }).waitFor();
      expect(await owner.getByTestId('enumeration-type').textContent()).toBe('domain');
      expect(await owner.getByTestId('enumeration-roots').textContent()).toBe('shop.e2e.test');
      await shot(owner, 'assets');
      // The status filter, deep-linked: none failed; the finished one is listed.
      await owner.goto(base + '/assets?status=failed');
      await owner.getByText('No enumeration matches').waitFor();
      await owner.goto(base + '/assets?status=finished&q=shop');
      await owner.getByTestId('enumerations-table').getByRole('link', { name: 'E2E shop' }).waitFor();
      await owner.goto(base + '/assets/inventory?q=shop');
      await expect.poll(() => owner.getByTestId('assets-total').textContent(), SLOW).toBe('3 assets');
    },
    STEP,
  );

  it(
    'the owner creates a policy: refused without a condition, then made',
    async () => {
      await owner.goto(base + '/assets/policies');
      await owner.getByText('No asset policies yet').waitFor();
      await owner.getByTestId('new-policy').click();
      await owner.getByLabel(/^Name/).fill('Label maintenance pages');
      await owner.getByTestId('policy-type').getByText('Add labels').click();
      const labels = owner.getByRole('combobox', { name: /^Labels to add/ });
      await labels.fill('maintenance');
      await labels.press('Enter');
      await owner.getByTestId('create-policy').click();
      await expect
        .poll(() => owner.getByTestId('policy-error').textContent(), SLOW)
        .toContain('policies must set at least one condition');
      expect(await owner.getByTestId('conditions-error').textContent()).toContain('at least one condition');

      await owner.getByLabel('Status codes').fill('503');
      // Scoped to the enumeration, picked by name.
      await owner.getByRole('combobox', { name: /^Enumerations/ }).click();
      await owner.getByRole('option', { name: 'E2E shop' }).click();
      await owner.getByTestId('create-policy').click();
      await owner.waitForURL((u) => /^\/assets\/policies\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith('/new'));
      policyUrl = owner.url();
      await owner.getByTestId('policy-name').getByText('Label maintenance pages').waitFor();
      await owner.getByText(/No events yet/).waitFor();
      await owner.getByRole('link', { name: 'E2E shop' }).waitFor();
    },
    STEP,
  );

  /** The message Mantine shows under a field (the element its aria-describedby names). */
  const fieldMessage = async (field: ReturnType<Page['getByLabel']>) => {
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/) ?? [];
    return (await Promise.all(ids.map((id) => owner.locator(`[id="${id}"]`).textContent()))).join(' ');
  };

  it(
    "the owner edits the enumeration and the policy: the server's 400 at the field, then saved",
    async () => {
      const enumId = enumUrl.split('/').pop()!;
      await owner.goto(enumUrl + '?tab=settings');
      await owner.getByTestId('edit-enumeration').click();
      // Every discovery step unticked: refused at the steps before anything is sent (the server would keep the
      // stored steps); ticking one again clears the message.
      const sent: string[] = [];
      const onRequest = (r: { method(): string; url(): string }) => {
        if (r.method() === 'PATCH') sent.push(r.url());
      };
      owner.on('request', onRequest);
      for (const step of ['dns_resolve', 'port_scan', 'http_probe'])
        await owner.getByLabel(new RegExp(`^${step}:`)).uncheck();
      await owner.getByTestId('save-enumeration').click();
      await expect
        .poll(() => owner.getByTestId('steps').textContent(), SLOW)
        .toContain('Pick at least one discovery step');
      expect(await owner.getByTestId('enumeration-error').textContent()).toBe(
        'Pick at least one discovery step (steps)',
      );
      owner.off('request', onRequest);
      expect(sent).toEqual([]);
      for (const step of ['dns_resolve', 'port_scan', 'http_probe'])
        await owner.getByLabel(new RegExp(`^${step}:`)).check();
      expect(await owner.getByTestId('enumeration-error').count()).toBe(0);
      const roots = owner.getByLabel(/^Roots/);
      expect(await roots.inputValue()).toBe('shop.e2e.test');
      expect(await owner.getByLabel(/^DNS resolvers/).inputValue()).toBe(dns.resolver);
      expect(await owner.getByLabel(/^Ports/).inputValue()).toBe(`${shop.port},${admin.port}`);
      await roots.fill('shop.e2e.test\nnot a domain');
      await owner.getByLabel(/^Name/).fill('E2E shop estate');
      await owner.getByTestId('save-enumeration').click();
      await expect
        .poll(() => owner.getByTestId('enumeration-error').textContent(), SLOW)
        .toMatch(/not a domain name.*\(root_domains\[1\]\)$/);
      expect(await fieldMessage(roots)).toMatch(/not a domain name/);
      expect((await (await api('GET', `/v1/asset/enumerate/${enumId}`)).json()).data).toMatchObject({
        name: 'E2E shop',
        root_domains: ['shop.e2e.test'],
      });
      await owner.evaluate(() => window.scrollTo(0, 0));
      await shot(owner, 'assets-edit-enumeration');

      await roots.fill('shop.e2e.test');
      await owner.getByLabel(/^Timeout/).fill('6');
      await owner.getByTestId('save-enumeration').click();
      await owner.getByTestId('enumeration-saved').waitFor();
      await owner.getByTestId('enumeration-name').getByText('E2E shop estate').waitFor();
      expect(await owner.getByTestId('enumeration-settings').textContent()).toContain('Timeout6 s');
      const stored = (await (await api('GET', `/v1/asset/enumerate/${enumId}`)).json()).data;
      expect(stored).toMatchObject({
        name: 'E2E shop estate',
        root_domains: ['shop.e2e.test'],
        enumeration_ports: `${shop.port},${admin.port}`,
        steps: ['dns_resolve', 'port_scan', 'http_probe'],
        automatic_vuln_scans: false,
        enumeration_config: { timeout: 6, resolvers: [dns.resolver], 'follow-redirect': true },
      });

      // The policy: emptied of conditions it is refused (shown at the conditions); then a second label.
      await owner.goto(policyUrl);
      await owner.getByTestId('edit-policy').click();
      const status = owner.getByLabel('Status codes');
      expect(await status.inputValue()).toBe('503');
      await status.fill('');
      const labels = owner.getByRole('combobox', { name: /^Labels to add/ });
      await labels.fill('down');
      await labels.press('Enter');
      await owner.getByTestId('save-policy').click();
      await expect
        .poll(() => owner.getByTestId('conditions-error').textContent(), SLOW)
        .toContain('policies must set at least one condition');
      await shot(owner, 'asset-policy-edit');
      const policyId = policyUrl.split('/').pop()!;
      expect((await (await api('GET', `/v1/asset/policy/${policyId}`)).json()).data).toMatchObject({
        labels: ['maintenance'],
        policies: { status_code: '503' },
      });
      await status.fill('503');
      await owner.getByTestId('save-policy').click();
      await owner.getByTestId('policy-saved').waitFor();
      expect((await (await api('GET', `/v1/asset/policy/${policyId}`)).json()).data).toMatchObject({
        name: 'Label maintenance pages',
        policy_type: 'set_label',
        labels: ['maintenance', 'down'],
        policies: { status_code: '503' },
        enumeration_ids: [enumId],
      });
      await owner.getByText('down', { exact: true }).waitFor();
    },
    STEP,
  );

  it(
    'after the estate changes, a rescan shows what appeared, changed and disappeared, and the policy acts',
    async () => {
      maintenance = true;
      await admin.close();
      await owner.goto(enumUrl);
      await owner.getByTestId('enumeration-actions').getByRole('button', { name: 'Rescan' }).click();
      await expect.poll(() => owner.getByTestId('runs').textContent(), SLOW).toBe('2');
      await owner.getByTestId('enum-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      // The closed port is gone from the list; the shop now answers 503 and carries the policy's label.
      const rows = owner.getByTestId('assets-table').locator('tbody tr');
      await expect.poll(() => rows.count(), SLOW).toBe(2);
      const shopRow = owner.locator(`tr[data-asset="${shopUrl()}"]`);
      await expect.poll(() => shopRow.textContent(), SLOW).toContain('Maintenance');
      await shopRow.getByText('maintenance', { exact: true }).waitFor();
      await shopRow.getByText('down', { exact: true }).waitFor(); // the label the edit added

      await owner.getByRole('tab', { name: 'Changes' }).click();
      const changes = owner.getByTestId('changes-table');
      await changes.waitFor();
      expect(await changes.locator('tbody tr').count()).toBe(2);
      const changed = changes.locator('tr[data-kind="changed"]');
      expect(await changed.textContent()).toContain(shopUrl());
      expect(await changed.textContent()).toMatch(/status_code:\s*200\s*→\s*503/);
      expect(await changed.textContent()).toMatch(/title:\s*E2E shop\s*→\s*Maintenance/);
      expect(await changes.locator('tr[data-kind="disappeared"]').textContent()).toContain(adminUrl());
      await owner.getByTestId('change-kinds').getByText('disappeared (1)').waitFor();
      await owner.getByTestId('change-kinds').getByText('changed (1)').waitFor();
      await shot(owner, 'assets-changes');
      // Run 1, deep-linked: the three assets appeared.
      await owner.goto(enumUrl + '?tab=changes&run=1');
      await expect
        .poll(() => owner.getByTestId('changes-table').locator('tr[data-kind="appeared"]').count(), SLOW)
        .toBe(3);

      await owner.goto(policyUrl);
      const events = owner.getByTestId('policy-events');
      await events.waitFor();
      expect(await events.locator('tbody tr').count()).toBe(1);
      expect(await events.textContent()).toContain('asset_policy_applied');
      expect(await events.textContent()).toContain('succeeded');
      expect(await events.textContent()).toContain(shopUrl());
      await shot(owner, 'asset-policy');
    },
    STEP,
  );

  it(
    'a Member sees the assets pages without create, rescan or delete controls, and the API refuses them',
    async () => {
      await member.goto(base + '/assets');
      await member.getByTestId('enumerations-table').getByRole('link', { name: 'E2E shop' }).waitFor();
      expect(await member.getByTestId('new-enumeration').count()).toBe(0);
      await member.goto(enumUrl);
      await member.getByTestId('enumeration-name').waitFor();
      await expect.poll(() => member.getByTestId('assets-table').locator('tbody tr').count(), SLOW).toBe(2);
      expect(await member.getByTestId('enumeration-actions').count()).toBe(0);
      expect(await member.getByRole('button', { name: 'Rescan' }).count()).toBe(0);
      await member.goto(enumUrl + '?tab=settings');
      await member.getByTestId('enumeration-settings').waitFor();
      expect(await member.getByTestId('edit-enumeration').count()).toBe(0);
      await member.goto(base + '/assets/policies');
      await member.getByTestId('policies-table').getByText('Label maintenance pages').waitFor();
      expect(await member.getByTestId('new-policy').count()).toBe(0);
      expect(await member.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      await member.goto(policyUrl);
      await member.getByTestId('policy-events').waitFor();
      expect(await member.getByTestId('delete-policy').count()).toBe(0);
      expect(await member.getByTestId('edit-policy').count()).toBe(0);
      await member.goto(base + '/assets/new');
      await member.getByText(/role MEMBER may not create enumerations/).waitFor();

      const enumId = enumUrl.split('/').pop()!;
      const policyId = policyUrl.split('/').pop()!;
      const answers = await member.evaluate(
        async ([id, pid]) => {
          const s = await (await fetch('/v1/auth/session')).json();
          const call = async (method: string, url: string, body?: unknown) => {
            const r = await fetch(url, {
              method,
              headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token },
              body: body ? JSON.stringify(body) : undefined,
            });
            return { status: r.status, code: (await r.json()).code };
          };
          return {
            create: await call('POST', '/v1/asset/enumerate', { root_domains: ['example.com'] }),
            rescan: await call('POST', `/v1/asset/enumerate/${id}/rescan`),
            remove: await call('DELETE', `/v1/asset/enumerate/${id}`),
            policy: await call('POST', '/v1/asset/policy', { policy_type: 'delete', policies: { host: 'x' } }),
            edit: await call('PATCH', `/v1/asset/enumerate/${id}`, { name: 'taken over' }),
            editPolicy: await call('PATCH', `/v1/asset/policy/${pid}?update_type=replace`, {
              policy_type: 'delete',
              policies: { host: 'x' },
            }),
          };
        },
        [enumId, policyId] as const,
      );
      for (const a of Object.values(answers)) expect(a).toEqual({ status: 403, code: 'forbidden' });
    },
    STEP,
  );

  it(
    'the owner deletes the policy and the enumeration',
    async () => {
      await owner.goto(base + '/assets/policies');
      await owner.getByTestId('policies-table').getByRole('button', { name: 'Delete' }).click();
      await owner.getByTestId('confirm-delete').click();
      await owner.getByText('No asset policies yet').waitFor();
      await owner.goto(enumUrl);
      await owner.getByTestId('enumeration-actions').getByRole('button', { name: 'Delete' }).click();
      await owner.getByTestId('confirm-delete').click();
      await owner.waitForURL((u) => u.pathname === '/assets');
      await owner.getByText(/No enumerations yet/).waitFor();
      expect((await api('GET', '/v1/asset/enumerate/contents')).status).toBe(200);
      expect((await (await api('GET', '/v1/asset/enumerate/contents')).json()).total_results).toBe(0);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    'the owner enumerates a cloud account picked by name, with no roots (shown by name, its token never on the page), and alerts on it through a config picked by name',
    async () => {
      const made = await api('POST', '/v1/scans/config', {
        name: 'DO estate',
        config_type: 'cloudlist',
        config: `- provider: do\n  digitalocean_token: ${TOKENS.do}\n`,
      });
      expect(made.status).toBe(200);
      await owner.goto(base + '/assets/new');
      await owner.getByLabel(/^Name/).fill('E2E cloud');
      await owner.getByTestId('cloud-accounts').click();
      await owner.getByRole('option', { name: /^DO estate/ }).click();
      await owner.keyboard.press('Escape');
      await owner.getByLabel(/^Ports/).fill(String(shop.port));
      await owner.getByLabel(/^DNS resolvers/).fill(dns.resolver);
      await owner.getByTestId('create-enumeration').click();
      await owner.waitForURL((u) => /^\/assets\/[0-9a-f]{20}$/.test(u.pathname));
      await owner.getByTestId('enum-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      // The droplets' public addresses are assets; the private one (10.10.0.5) is not.
      await owner.getByText('127.0.0.11', { exact: true }).first().waitFor();
      await owner.getByText('127.0.0.13', { exact: true }).first().waitFor();
      expect(await owner.getByText('10.10.0.5').count()).toBe(0);
      await owner.getByRole('tab', { name: 'Settings' }).click();
      // The cloud account by its config's name, linked to the config's page.
      const cloudId = (await made.json()).id as string;
      const account = owner.getByTestId('cloud-configs').getByRole('link', { name: 'DO estate (do)' });
      await account.waitFor();
      expect(await account.getAttribute('href')).toBe(`/settings/configs/${cloudId}`);
      expect(await owner.content()).not.toContain(TOKENS.do);
      const id = new URL(owner.url()).pathname.split('/').pop()!;
      const stored = (await (await api('GET', `/v1/asset/enumerate/${id}`)).json()).data;
      expect([stored.enumeration_type, stored.cloudlist_provider_name]).toEqual(['cloudlist', 'do']);
      expect(JSON.stringify(stored)).not.toContain(TOKENS.do);
      // The list shows its type, providers and account name.
      await owner.goto(base + '/assets');
      await owner.getByTestId('enumerations-table').getByRole('link', { name: 'E2E cloud' }).waitFor();
      expect(await owner.getByTestId('enumeration-type').textContent()).toBe('cloudlistdo');
      await expect.poll(() => owner.getByTestId('enumeration-roots').textContent(), SLOW).toBe('DO estate');

      // An alert policy with an alerting config picked by name; its page names the config and links to it.
      const hook = await api('POST', '/v1/scans/config', {
        name: 'Droplet hook',
        config_type: 'alerting',
        config: `provider: webhook\nevents: [asset_policy_match]\nwebhook:\n  url: http://127.0.0.1:${shop.port}/hook\n`,
      });
      expect(hook.status).toBe(200);
      const hookId = (await hook.json()).id as string;
      // A config that does not send asset_policy_match is offered disabled, saying why.
      const scanHook = await api('POST', '/v1/scans/config', {
        name: 'Scan hook',
        config_type: 'alerting',
        config: `provider: webhook\nevents: [scan_finished]\nwebhook:\n  url: http://127.0.0.1:${shop.port}/hook\n`,
      });
      expect(scanHook.status).toBe(200);
      await owner.goto(base + '/assets/policies/new');
      await owner.getByLabel(/^Name/).fill('Alert on droplets');
      await owner.getByRole('combobox', { name: /^Alerting configurations/ }).click();
      expect(await owner.getByRole('option', { name: /^DO estate/ }).count()).toBe(0); // only alerting configs
      const deaf = owner.getByRole('option', { name: 'Scan hook (webhook) (does not receive asset_policy_match)' });
      expect(await deaf.getAttribute('aria-disabled')).toBe('true');
      await owner.getByRole('option', { name: 'Droplet hook (webhook)' }).click();
      await owner.keyboard.press('Escape');
      await owner.getByLabel('IP addresses').fill('127.0.0.11');
      await owner.getByTestId('create-policy').click();
      await owner.waitForURL((u) => /^\/assets\/policies\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith('/new'));
      const policyId = owner.url().split('/').pop()!;
      expect((await (await api('GET', `/v1/asset/policy/${policyId}`)).json()).data).toMatchObject({
        name: 'Alert on droplets',
        policy_type: 'alert',
        alerting_config_ids: [hookId],
        policies: { ip: '127.0.0.11' },
      });
      await owner.getByTestId('policy-alerting').getByRole('link', { name: 'Droplet hook (webhook)' }).click();
      await owner.waitForURL((u) => u.pathname === `/settings/configs/${hookId}`);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
