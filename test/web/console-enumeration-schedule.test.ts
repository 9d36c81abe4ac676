// The enumeration's rescan schedule on its console page, end to end: a real `vigil serve` (PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set) and Debian's Chromium. The owner schedules rescans (a bad
// start time refused with the server's message, then fixed), changes them to custom weekdays and removes
// them; labels an asset in its drawer and filters the list by label; what the server keeps is checked
// through the API; a Member sees the schedule and labels but no controls.
import { mkdtempSync } from 'node:fs';
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
  signInWithKey,
  signInWithPassword,
  watchPages,
  apiCaller,
} from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { waitFor } from '../helpers/wait.ts';

const MEMBER_PASSWORD = 'member password 2468';
const SLOW = { timeout: 30_000 };
const STEP = 180_000;

describe.each(dbKinds())('console enumeration schedule on %s', (kind) => {
  let dir: string;
  let web: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  let enumId = '';
  const browserProblems: string[] = [];
  const key = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const apiCall = apiCaller(() => base, key);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-enum-sched-'));
    web = await startHttpServer((_req, res) => res.end('<title>Scheduled</title>'), { host: '127.0.0.21' });
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: key,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(150_000);
    await addMember(base, key, 'member@example.com', MEMBER_PASSWORD);
    const made = await apiCall('POST', '/v1/asset/enumerate', {
      name: 'nightly estate',
      root_domains: ['127.0.0.21'],
      enumeration_ports: String(web.port),
      steps: ['port_scan', 'http_probe'],
      enumeration_config: { technology_templates: [] },
    });
    expect(made.status).toBe(200);
    enumId = made.json.id;
    await waitFor(
      async () => (await apiCall('GET', `/v1/asset/enumerate/${enumId}`)).json.data.status === 'finished',
      90_000,
    );
    browser = await launchChromium();
    owner = (await newPage(browser)).page;
    member = (await newPage(browser)).page;
    watchPages([owner, member], browserProblems);
    await signInWithKey(owner, base, key, 'OWNER');
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [web], kind, schema, dir }), STEP);

  it(
    'the owner schedules rescans (a bad start time refused), changes and removes them; a Member only reads',
    async () => {
      await owner.goto(`${base}/assets/${enumId}`);
      const summary = owner.getByTestId('enumeration-schedule-summary');
      await expect.poll(() => summary.textContent(), SLOW).toBe('No rescan schedule');
      await owner.getByTestId('edit-enumeration-schedule').click();
      const dialog = owner.getByRole('dialog');
      await dialog.getByLabel('Start time (UTC)').fill('25:99');
      await dialog.getByTestId('save-enumeration-schedule').click();
      await expect
        .poll(() => dialog.getByTestId('enumeration-schedule-error').textContent(), SLOW)
        .toMatch(/start_time/);
      await dialog.getByLabel('Start time (UTC)').fill('06:30');
      await dialog.getByTestId('save-enumeration-schedule').click();
      await expect.poll(() => summary.textContent(), SLOW).toBe('daily from 06:30:00 UTC');
      expect(await owner.getByTestId('enumeration-schedule-next').textContent()).not.toBe('—');
      const stored = (await apiCall('GET', '/v1/enumeration/schedule')).json.schedules;
      expect(stored).toMatchObject([{ enumeration_id: enumId, scan_frequency: 'daily', start_time: '06:30:00Z' }]);

      // Custom weekdays.
      await owner.getByTestId('edit-enumeration-schedule').click();
      await dialog.getByTestId('schedule-frequency').click();
      await owner.getByRole('option', { name: 'custom', exact: true }).click();
      await dialog.getByText('Tue', { exact: true }).click();
      await dialog.getByText('Sat', { exact: true }).click();
      await dialog.getByTestId('save-enumeration-schedule').click();
      await expect.poll(() => summary.textContent(), SLOW).toBe('on Tue, Sat from 06:30:00 UTC');

      // A Member sees it, with no controls.
      await member.goto(`${base}/assets/${enumId}`);
      await expect
        .poll(() => member.getByTestId('enumeration-schedule-summary').textContent(), SLOW)
        .toBe('on Tue, Sat from 06:30:00 UTC');
      expect(await member.getByTestId('edit-enumeration-schedule').count()).toBe(0);
      expect(await member.getByTestId('remove-enumeration-schedule').count()).toBe(0);

      await owner.getByTestId('remove-enumeration-schedule').click();
      await expect.poll(() => summary.textContent(), SLOW).toBe('No rescan schedule');
      expect((await apiCall('GET', '/v1/enumeration/schedule')).json.schedules).toEqual([]);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    'the owner labels an asset in its drawer; the labels filter finds it; a Member has no editor',
    async () => {
      await owner.goto(`${base}/assets/${enumId}`);
      const row = owner.locator('[data-testid=assets-table] tbody tr').first();
      await row.getByRole('button').first().click();
      await owner.getByTestId('asset-detail').waitFor();
      const input = owner.getByTestId('asset-labels-input');
      await input.fill('pci');
      await input.press('Enter');
      await input.fill('internal');
      await input.press('Enter');
      await owner.getByTestId('save-asset-labels').click();
      await expect
        .poll(
          async () => (await apiCall('GET', `/v1/asset/enumerate/${enumId}/contents`)).json.data[0].labels.sort(),
          SLOW,
        )
        .toEqual(['internal', 'pci']);
      await row.getByText('pci', { exact: true }).waitFor();
      await owner.keyboard.press('Escape');

      await owner.getByLabel('labels').fill('pci');
      await expect.poll(() => owner.locator('[data-testid=assets-table] tbody tr').count(), SLOW).toBe(1);
      await owner.getByLabel('labels').fill('nothing-like-it');
      await owner.getByText('No asset matches').waitFor();
      expect(owner.url()).toContain('labels=nothing-like-it');

      await member.goto(`${base}/assets/${enumId}`);
      await member.locator('[data-testid=assets-table] tbody tr').first().getByRole('button').first().click();
      await member.getByTestId('asset-detail').waitFor();
      expect(await member.getByTestId('asset-labels').count()).toBe(0);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
