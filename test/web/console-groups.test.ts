// Asset groups in the console, end to end: a real `vigil serve` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), two HTTP servers on 127.0.0.5 and 127.0.0.6 found by an enumeration, a
// template in the catalogue, and Debian's Chromium. The Owner creates a group by filter and a static one,
// edits the first (the stored filters checked through the API), scans it (only its asset is scanned) and
// deletes the static one; a Member sees the groups with no controls.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  addMember,
  axeViolations,
  endConsoleRun,
  launchChromium,
  newPage,
  screenshotter,
  signInWithKey,
  signInWithPassword,
  watchPages,
  apiCaller,
} from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const MEMBER_PASSWORD = 'member password 8910';
const SLOW = { timeout: 30_000 };
const STEP = 240_000;
const TEMPLATE = `id: group-e2e
info:
  name: Group e2e page
  author: vigil-e2e
  severity: low
  tags: e2e
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        words:
          - "<title>"
`;

describe.each(dbKinds())('console asset groups on %s', (kind) => {
  let dir: string;
  let shop: TestServer;
  let admin: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const apiCall = apiCaller(() => base, bootstrapKey);
  const groups = async () =>
    (await apiCall('GET', '/v1/asset/enumerate/group?limit=100')).json.data as {
      id: string;
      name: string;
      static: boolean;
      filters: Record<string, unknown>;
      total_assets?: number;
    }[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-groups-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/e2e'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/e2e/group-e2e.yaml'), TEMPLATE);
    shop = await startHttpServer((_req, res) => res.end('<title>Shop</title>'), { host: '127.0.0.5' });
    admin = await startHttpServer((_req, res) => res.end('<title>Admin</title>'), { host: '127.0.0.6' });
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_MONITOR_INTERVAL: '1',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(300_000);
    await serve.waitFor(/template catalogue imported/, 120_000);
    const made = await apiCall('POST', '/v1/asset/enumerate', {
      name: 'estate',
      root_domains: ['127.0.0.5', '127.0.0.6'],
      enumeration_ports: `${shop.port},${admin.port}`,
      steps: ['port_scan', 'http_probe'],
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    await waitFor(
      async () => (await apiCall('GET', `/v1/asset/enumerate/${made.json.id}`)).json.data.status === 'finished',
      120_000,
    );

    await addMember(base, bootstrapKey, 'member@example.com', MEMBER_PASSWORD);
    browser = await launchChromium();
    const viewport = { width: 1360, height: 900 };
    owner = (await newPage(browser, viewport)).page;
    member = (await newPage(browser, viewport)).page;
    watchPages([owner, member], browserProblems);
    await signInWithKey(owner, base, bootstrapKey, 'OWNER');
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 600_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [shop, admin], kind, schema, dir }), STEP);

  it(
    'the Owner creates a group by filter and a static one, edits, scans and deletes them',
    async () => {
      await owner.goto(base + '/assets/groups');
      await owner.getByText('No asset groups yet').waitFor(SLOW);
      expect(await axeViolations(owner)).toEqual([]);

      // By filter: the shop's host.
      await owner.getByRole('button', { name: 'New group' }).click();
      const dialog = owner.getByRole('dialog');
      await dialog.getByLabel(/^Name/).fill('Shop');
      await dialog.getByLabel('Host contains').fill('127.0.0.5');
      expect(await axeViolations(owner)).toEqual([]);
      await dialog.getByRole('button', { name: 'Create group' }).click();
      const table = owner.getByTestId('groups-table');
      const shopRow = table.locator('tbody tr').filter({ hasText: 'Shop' });
      await shopRow.getByText('by filter').waitFor(SLOW);
      expect(await shopRow.textContent()).toContain('host: 127.0.0.5');

      // Static: every asset now.
      await owner.getByRole('button', { name: 'New group' }).click();
      await dialog.getByLabel(/^Name/).fill('Everything');
      await dialog.getByLabel(/^Static/).check();
      await dialog.getByRole('button', { name: 'Create group' }).click();
      const allRow = table.locator('tbody tr').filter({ hasText: 'Everything' });
      await allRow.getByText('static').waitFor(SLOW);
      expect(await allRow.locator('td').nth(3).textContent()).toBe('2');
      expect((await groups()).map((g) => [g.name, g.static]).sort()).toEqual([
        ['Everything', true],
        ['Shop', false],
      ]);

      // Edit: a new name and a label filter added; the whole group is replaced.
      await owner.getByRole('button', { name: 'Edit Shop' }).click();
      await dialog.getByLabel(/^Name/).fill('Shop front');
      await dialog.getByLabel('Text', { exact: true }).fill('Shop');
      await dialog.getByRole('button', { name: 'Save group' }).click();
      await table.locator('tbody tr').filter({ hasText: 'Shop front' }).waitFor(SLOW);
      const front = (await groups()).find((g) => g.name === 'Shop front')!;
      expect(front.filters).toEqual({ host: '127.0.0.5', search: 'Shop' });
      await shot(owner, 'asset-groups');

      // Scan the group: only the shop is a target.
      await owner.getByRole('button', { name: 'Scan Shop front' }).click();
      await dialog.getByLabel('search templates to add').fill('group-e2e');
      await dialog.getByTestId('template-pick').getByRole('button', { name: 'Add' }).first().click();
      await dialog.getByRole('button', { name: 'Start scan' }).click();
      await owner.waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname));
      const scanId = owner.url().split('/').pop()!.split('?')[0]!;
      expect((await apiCall('GET', `/v1/scans/${scanId}/config`)).json.assets_lists).toEqual([front.id]);
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      const found = (await apiCall('GET', `/v1/scans/results?scan_id=${scanId}`)).json.data;
      expect(found.map((r: { target: string }) => r.target)).toEqual([shop.url]);

      // Delete the static group: its assets stay.
      await owner.goto(base + '/assets/groups');
      await owner.getByRole('button', { name: 'Delete Everything' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await allRow.waitFor({ state: 'detached', ...SLOW });
      expect((await groups()).map((g) => g.name)).toEqual(['Shop front']);
      expect((await apiCall('GET', '/v1/asset/enumerate/contents?limit=10')).json.data).toHaveLength(2);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    'a Member sees the groups and no create, edit, scan or delete control',
    async () => {
      await member.goto(base + '/assets/groups');
      await member.getByTestId('groups-table').locator('tbody tr').filter({ hasText: 'Shop front' }).waitFor(SLOW);
      for (const name of ['New group', 'Scan Shop front', 'Edit Shop front', 'Delete Shop front'])
        expect(await member.getByRole('button', { name }).count(), name).toBe(0);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
