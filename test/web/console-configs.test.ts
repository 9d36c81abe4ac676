// The console's configurations, schedules and finding links end to end: a real `vigil serve` (PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set), a local HTTP target that also receives the alert webhook, and
// Debian's Chromium. An Admin writes a config with a YAML error (the server's 400 shown, naming the key,
// and its line marked in the editor), fixes it, adds an alerting config and sees its deliveries; creates a
// scan with configs and a schedule (a bad start time refused with the field named, then fixed), reads its
// configuration as a list, sees the schedule in the scans list, changes and removes it on the scan's
// page; opens a finding straight from its URL; and a Member sees config names and types but no
// text and no create, edit or delete controls. Screenshots go to .vigil-tmp/console-shots/ (from the PGlite run;
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
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const MEMBER_PASSWORD = 'member password 8910';
const SLOW = { timeout: 30_000 };
const STEP = 180_000;

const TEMPLATE = `id: e2e-hello
info:
  name: E2E hello page
  author: vigil-e2e
  severity: medium
  tags: e2e
http:
  - method: GET
    path:
      - "{{BaseURL}}/hello"
    matchers:
      - type: word
        words:
          - "hello vigil"
`;

describe.each(dbKinds())('console configurations, schedules and finding links on %s', (kind) => {
  let dir: string;
  let target: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  let scanId = '';
  let alertingId = '';
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  /** The API with the owner's key, from the test (for setting up and for checking what the server kept). */
  const apiCall = async (method: string, url: string, body?: unknown, key = bootstrapKey) => {
    const res = await fetch(base + url, {
      method,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as any };
  };
  /** Replaces the text of the CodeMirror editor on the page. */
  const typeYaml = async (page: Page, text: string) => {
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-cfg-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/e2e'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/e2e/hello.yaml'), TEMPLATE);
    target = await startHttpServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/hello') return res.end('<html><body>hello vigil</body></html>');
      if (req.url === '/hook' && req.method === 'POST') return res.end('ok');
      res.statusCode = 404;
      res.end('not found');
    });
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_MONITOR_INTERVAL: '1',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(150_000);
    await serve.waitFor(/template catalogue imported/, 120_000);

    await addMember(base, bootstrapKey, 'member@example.com', MEMBER_PASSWORD);
    browser = await launchChromium();
    const viewport = { width: 1360, height: 900 };
    owner = (await newPage(browser, viewport)).page;
    member = (await newPage(browser, viewport)).page;
    watchPages([owner, member], browserProblems);
    await signInWithKey(owner, base, bootstrapKey, 'OWNER');
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [target], kind, schema, dir }), STEP);

  it(
    'a scan config with a YAML error: the 400 names the key and its line; fixed, it saves; filter and search the list',
    async () => {
      await owner.goto(base + '/settings/configs');
      await owner.getByText('The team has no configurations yet').waitFor();
      await owner.getByTestId('new-config').click();
      await owner.locator('.cm-content').waitFor();
      await owner.getByLabel('Name').fill('Gentle engine');
      await typeYaml(owner, 'concurrency: 5\nrate-limit: fast\nretries: 1\n');
      await owner.getByTestId('save-config').click();
      const error = owner.getByTestId('config-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/config\.rate-limit.*\(line 2\)/);
      // The line is marked inside the editor too (underline and gutter marker), as the template editor
      // marks the validator's problems.
      const marked = owner.locator('.cm-line:has(.cm-lintRange-error)');
      await marked.first().waitFor();
      expect(await marked.count()).toBe(1);
      expect(await marked.textContent()).toBe('rate-limit: fast');
      expect(await owner.locator('.cm-gutter-lint .cm-lint-marker-error').count()).toBe(1);
      await shot(owner, 'config-editor');
      expect(owner.url()).toContain('/settings/configs/new');

      await typeYaml(owner, 'concurrency: 5\nrate-limit: 20\nretries: 1\n');
      await owner.getByTestId('save-config').click();
      await owner.waitForURL((u) => /\/settings\/configs\/[0-9a-f-]{36}$/.test(u.pathname));
      await owner.getByTestId('config-title').getByText('Gentle engine').waitFor();
      const id = owner.url().split('/').pop()!;
      expect((await apiCall('GET', `/v1/scans/config/${id}`)).json).toMatchObject({
        name: 'Gentle engine',
        config_type: 'scan',
        config: 'concurrency: 5\nrate-limit: 20\nretries: 1\n',
      });

      // An edit that breaks it is refused too, and the stored text stays.
      await typeYaml(owner, 'concurrency: 5\nrate-limit: 20\nretries: lots\n');
      await owner.getByTestId('save-config').click();
      await expect
        .poll(() => owner.getByTestId('config-error').textContent(), SLOW)
        .toMatch(/config\.retries.*\(line 3\)/);
      await expect.poll(() => marked.textContent(), SLOW).toBe('retries: lots');
      expect(await marked.count()).toBe(1);
      expect((await apiCall('GET', `/v1/scans/config/${id}`)).json.config).toContain('retries: 1');
      await typeYaml(owner, 'concurrency: 4\nrate-limit: 20\nretries: 1\n');
      await owner.getByTestId('save-config').click();
      await owner.getByTestId('config-saved').waitFor();
      expect(await marked.count()).toBe(0);
      expect((await apiCall('GET', `/v1/scans/config/${id}`)).json.config).toContain('concurrency: 4');

      // An alerting config that posts to the local receiver when a scan finishes.
      await owner.goto(base + '/settings/configs/new');
      await owner.locator('.cm-content').waitFor();
      await owner.getByLabel('Name').fill('Hook on finish');
      await owner.getByTestId('config-type').click();
      await owner.getByRole('option', { name: 'alerting', exact: true }).click();
      await owner.getByTestId('config-mode').getByText('YAML').click(); // the form is the default for integrations
      await typeYaml(owner, `provider: webhook\nevents: [scan_finished]\nwebhook:\n  url: ${target.url}/hook\n`);
      await owner.getByTestId('save-config').click();
      await owner.waitForURL((u) => /\/settings\/configs\/[0-9a-f-]{36}$/.test(u.pathname));
      alertingId = owner.url().split('/').pop()!;
      await owner.getByText('Nothing sent yet').waitFor();

      // A read-only config (made through the API): shown, but no save or delete, and the editor is locked.
      const locked = await apiCall('POST', '/v1/scans/config', {
        name: 'Locked tracker',
        config_type: 'reporting',
        config: 'github: {owner: acme, project-name: web, token: ghp_locked}\n',
        read_only: true,
      });
      expect(locked.status).toBe(200);
      await owner.goto(base + `/settings/configs/${locked.json.id}`);
      await owner.getByTestId('read-only').waitFor();
      const before = await owner.locator('.cm-content').textContent();
      expect(before).toContain('ghp_locked');
      await owner.locator('.cm-content').click();
      await owner.keyboard.insertText('typed ');
      expect(await owner.locator('.cm-content').textContent()).toBe(before);
      expect(await owner.getByTestId('save-config').count()).toBe(0);
      expect(await owner.getByTestId('delete-config').count()).toBe(0);

      // The list: a type filter and a name search, both in the address.
      await owner.goto(base + '/settings/configs');
      const rows = owner.getByTestId('configs-table').locator('tbody tr');
      await expect.poll(() => rows.count(), SLOW).toBe(3);
      await owner.getByTestId('config-type-filter').click();
      await owner.getByRole('option', { name: 'alerting', exact: true }).click();
      await expect.poll(() => rows.count(), SLOW).toBe(1);
      expect(await rows.first().textContent()).toContain('Hook on finish');
      expect(owner.url()).toContain('type=alerting');
      await owner.goto(base + '/settings/configs?q=gentle');
      await expect.poll(() => rows.count(), SLOW).toBe(1);
      expect(await rows.first().textContent()).toContain('Gentle engine');
      await owner.goto(base + '/settings/configs');
      await expect.poll(() => rows.count(), SLOW).toBe(3);
      await shot(owner, 'configs');
    },
    STEP,
  );

  it(
    'a scan with configs and a schedule: a bad start time is refused naming it, then set; changed and removed on the scan',
    async () => {
      await owner.goto(base + '/scans/new');
      await owner.getByLabel('Name').fill('Scheduled scan');
      await owner.getByLabel(/^Targets/).fill(target.url);
      await owner.getByLabel('search templates to add').fill('e2e');
      await owner.getByTestId('template-pick').getByRole('button', { name: 'Add' }).first().click();
      await owner.getByRole('combobox', { name: 'Scan, template, remediation and scoring configs' }).click();
      await owner.getByRole('option', { name: /Gentle engine/ }).click();
      await owner.keyboard.press('Escape');
      await owner.getByRole('combobox', { name: 'Alerting configs' }).click();
      await owner.getByRole('option', { name: /Hook on finish/ }).click();
      await owner.keyboard.press('Escape');
      await owner.getByTestId('schedule-frequency').click();
      await owner.getByRole('option', { name: 'daily', exact: true }).click();
      await owner.getByLabel('Start time (UTC)').fill('25:61');
      await owner.getByTestId('create-scan').click();
      // The schedule is checked before anything is created: a refused one leaves no scan behind.
      const refused = owner.getByTestId('scan-error');
      await refused.waitFor();
      expect(await refused.textContent()).toMatch(/start_time must be a UTC time of day/);
      expect((await apiCall('GET', '/v1/scans?search=Scheduled')).json.data).toHaveLength(0);
      await refused.scrollIntoViewIfNeeded();
      await shot(owner, 'new-scan');

      await owner.getByLabel('Start time (UTC)').fill('06:30');
      await owner.getByTestId('create-scan').click();
      await owner.waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname) && u.pathname !== '/scans/new');
      scanId = owner.url().split('/').pop()!.split('?')[0]!;
      await expect
        .poll(() => owner.getByTestId('schedule-summary').textContent(), SLOW)
        .toBe('daily from 06:30:00 UTC');
      expect(await owner.getByTestId('schedule-next').textContent()).not.toBe('—');
      // One scan, with its schedule.
      const listed = await apiCall('GET', '/v1/scans?search=Scheduled');
      expect(listed.json.data).toHaveLength(1);
      const stored = await apiCall('GET', `/v1/scans/${scanId}`);
      expect(stored.json.schedule).toMatchObject({ scan_frequency: 'daily', start_time: '06:30:00' });
      expect(stored.json.scan_config_ids).toHaveLength(1);
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      await shot(owner, 'scan-schedule');
      // The Configuration tab reads as a list: targets, templates, the configs with their types (links to
      // their pages), options; no raw JSON.
      await owner.getByRole('tab', { name: 'Configuration' }).click();
      const cfg = owner.getByTestId('scan-config');
      await cfg.waitFor();
      expect(await cfg.getByTestId('config-targets').textContent()).toContain(target.url);
      const templateLink = cfg.getByTestId('config-templates').getByRole('link', { name: 'http/e2e/hello.yaml' });
      expect(await templateLink.getAttribute('href')).toMatch(/^\/templates\?view=http%2Fe2e%2Fhello\.yaml$/);
      expect(await cfg.getByTestId('config-templates').textContent()).toContain('e2e-hello');
      const scanRefs = cfg.getByTestId('config-refs-scan');
      expect(await scanRefs.textContent()).toBe('Scan configsGentle enginescan');
      const engineId = stored.json.scan_config_ids[0];
      expect(await scanRefs.getByRole('link', { name: 'Gentle engine' }).getAttribute('href')).toBe(
        `/settings/configs/${engineId}`,
      );
      expect(await cfg.getByTestId('config-refs-alerting').textContent()).toBe(
        'Alerting configsHook on finishalertingwebhook',
      );
      expect(await cfg.getByTestId('config-refs-reporting').textContent()).toBe('Reporting configsnone');
      expect(await cfg.getByTestId('config-options').textContent()).toBe('Optionsdefaults');
      expect(await cfg.textContent()).not.toMatch(/[{}"]/);
      await shot(owner, 'scan-config');
      await scanRefs.getByRole('link', { name: 'Gentle engine' }).click();
      await owner.waitForURL((u) => u.pathname === `/settings/configs/${engineId}`);
      await owner.getByTestId('config-title').getByText('Gentle engine').waitFor();
      await owner.goBack();
      await owner.getByTestId('scan-schedule').waitFor();

      // Change it: custom weekdays; then a refused hourly frequency (named), then a good one.
      await owner.getByTestId('edit-schedule').click();
      const dialog = owner.getByRole('dialog');
      await dialog.getByTestId('schedule-frequency').click();
      await owner.getByRole('option', { name: 'custom', exact: true }).click();
      await dialog.getByText('Mon', { exact: true }).click();
      await dialog.getByText('Wed', { exact: true }).click();
      await dialog.getByTestId('save-schedule').click();
      await expect
        .poll(() => owner.getByTestId('schedule-summary').textContent(), SLOW)
        .toBe('on Mon, Wed from 06:30:00 UTC');
      await owner.getByTestId('edit-schedule').click();
      await dialog.getByTestId('schedule-frequency').click();
      await owner.getByRole('option', { name: 'hourly', exact: true }).click();
      await dialog.getByLabel('Every N hours').fill('30');
      await dialog.getByTestId('save-schedule').click();
      await expect
        .poll(() => dialog.getByTestId('schedule-save-error').textContent(), SLOW)
        .toMatch(/hourly_frequency must be an integer from 1 to 24/);
      await dialog.getByLabel('Every N hours').fill('6');
      await dialog.getByTestId('save-schedule').click();
      await expect
        .poll(() => owner.getByTestId('schedule-summary').textContent(), SLOW)
        .toBe('every 6 hour(s) from 06:30:00 UTC');
      expect((await apiCall('GET', `/v1/scans/${scanId}`)).json.schedule).toMatchObject({
        scan_frequency: 'hourly',
        hourly_frequency: 6,
      });

      // The scans list marks it with its frequency and next run; a scan stored to run later (status
      // scheduled, no schedule) has no badge. The list links to Settings › Schedules for the scheduled ones.
      const storedOnly = await apiCall('POST', '/v1/scans', {
        name: 'Stored only',
        targets: [target.url],
        templates: ['http/e2e/hello.yaml'],
        schedule_only: true,
      });
      expect(storedOnly.status, JSON.stringify(storedOnly.json)).toBe(200);
      const next = (await apiCall('GET', `/v1/scans/${scanId}`)).json.schedule.schedule_next_run as string;
      await owner.goto(base + '/scans');
      const scanRows = owner.getByTestId('scans-table').locator('tbody tr');
      await expect.poll(() => scanRows.count(), SLOW).toBe(2);
      const scheduledRow = scanRows.filter({ hasText: 'Scheduled scan' });
      const badge = scheduledRow.getByTestId('scan-scheduled');
      expect(await badge.textContent()).toBe(
        `↻every 6 hour(s) from 06:30:00 UTCnext ${await owner.evaluate((iso) => new Date(iso).toLocaleString(), next)}`,
      );
      expect(await scanRows.filter({ hasText: 'Stored only' }).getByTestId('scan-scheduled').count()).toBe(0);
      await shot(owner, 'scans-schedule');
      await owner.getByTestId('scheduled-scans-link').click();
      await owner.waitForURL((u) => u.pathname === '/settings/schedules');

      // Settings › Schedules lists it.
      await owner.goto(base + '/settings/schedules');
      await owner.getByTestId('schedules-table').getByText('Scheduled scan').waitFor();
      expect(await owner.getByTestId('schedules-table').textContent()).toContain('every 6 hour(s)');
      await shot(owner, 'schedules');

      // The alerting config sent scan_finished to the receiver, and its page lists the delivery.
      await owner.goto(base + `/settings/configs/${alertingId}`);
      await expect
        .poll(
          async () => {
            await owner.getByRole('button', { name: 'Refresh' }).click();
            return owner
              .getByTestId('deliveries-table')
              .textContent({ timeout: 1000 })
              .catch(() => '');
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toMatch(/scan_finished.*delivered/);
      expect(target.requests.filter((r) => r.url === '/hook' && r.method === 'POST').length).toBeGreaterThan(0);
      await shot(owner, 'config-deliveries');

      // Remove the schedule.
      await owner.goto(base + `/scans/${scanId}`);
      await owner.getByTestId('remove-schedule').click();
      await expect.poll(() => owner.getByTestId('schedule-summary').textContent(), SLOW).toBe('Not scheduled');
      expect((await apiCall('GET', `/v1/scans/${scanId}`)).json.schedule).toBeUndefined();
      expect((await apiCall('GET', '/v1/scans/schedule')).json.schedules).toEqual([]);
    },
    STEP,
  );

  it(
    "a finding opens straight from its URL, on its own page and in the list's drawer off the current page",
    async () => {
      const results = await apiCall('GET', `/v1/scans/results?scan_id=${scanId}`);
      expect(results.json.data).toHaveLength(1);
      const vulnId = results.json.data[0].vuln_id as string;
      // A fresh tab, nothing loaded before: the address alone.
      const page = await owner.context().newPage();
      page.on('pageerror', (e) => browserProblems.push(`${e.name}: ${e.message}`));
      await page.goto(base + `/findings/${vulnId}`);
      await page.getByTestId('finding-detail').waitFor();
      expect(await page.getByTestId('finding-request').textContent()).toContain('GET /hello');
      await page.getByRole('tab', { name: 'Response' }).click();
      expect(await page.getByTestId('finding-response').textContent()).toContain('hello vigil');
      await shot(page, 'finding-page');
      // The list's drawer link, on a page of the list that does not hold it.
      await page.goto(base + `/findings?page=7&finding=${vulnId}`);
      await page.getByRole('dialog').getByTestId('finding-detail').waitFor();
      expect(await page.getByRole('dialog').getByTestId('finding-request').textContent()).toContain('GET /hello');
      // An id that names nothing: the server's 404 message.
      await page.goto(base + '/findings/987654321');
      await expect
        .poll(() => page.getByTestId('error-state').textContent(), SLOW)
        .toContain('finding 987654321 not found');
      await page.close();
    },
    STEP,
  );

  it(
    'a Member sees config names and types, never the text, and no create, edit, delete or schedule controls',
    async () => {
      await member.goto(base + '/settings/configs');
      const table = member.getByTestId('configs-table');
      await table.getByText('Gentle engine').waitFor();
      expect(await table.textContent()).toMatch(/Hook on finish.*alerting.*webhook/);
      expect(await member.getByTestId('new-config').count()).toBe(0);
      await table.getByText('Gentle engine').click();
      await member.getByTestId('config-hidden').waitFor();
      expect(await member.locator('.cm-content').count()).toBe(0);
      expect(await member.getByTestId('save-config').count()).toBe(0);
      expect(await member.getByTestId('delete-config').count()).toBe(0);
      expect(await member.content()).not.toContain('rate-limit');
      await shot(member, 'config-member');
      await member.goto(base + '/settings/configs/new');
      await member.getByText(/role MEMBER may not add configurations/).waitFor();
      await member.goto(base + `/scans/${scanId}`);
      await member.getByTestId('scan-schedule').waitFor();
      expect(await member.getByTestId('edit-schedule').count()).toBe(0);

      // The API itself: no text for a Member (list and one), and changes refused by role.
      const answers = await member.evaluate(async () => {
        const s = await (await fetch('/v1/auth/session')).json();
        const list = await (await fetch('/v1/scans/config')).json();
        const one = await (await fetch(`/v1/scans/config/${list[0].id}`)).json();
        const write = (method: string, url: string, body?: unknown) =>
          fetch(url, {
            method,
            headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrf_token },
            body: body ? JSON.stringify(body) : undefined,
          }).then((r) => r.status);
        return {
          texts: [...list.map((c: { config: string }) => c.config), one.config],
          create: await write('POST', '/v1/scans/config', { name: 'x', config_type: 'scan', config: 'retries: 1' }),
          patch: await write('PATCH', `/v1/scans/config/${list[0].id}`, { name: 'y' }),
          remove: await write('DELETE', `/v1/scans/config/${list[0].id}`),
        };
      });
      expect(answers.texts).toHaveLength(4);
      expect(answers.texts.every((t) => t === '')).toBe(true);
      expect(answers).toMatchObject({ create: 403, patch: 403, remove: 403 });
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
