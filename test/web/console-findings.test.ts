// Working findings in the console, end to end: a real `vigil serve` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), a local HTTP target the test fixes, and Debian's Chromium. The Owner sees a
// status column, marks selected findings accepted_risk in bulk, filters by status, opens a finding, changes
// its status and labels, retests it after the target is fixed (it turns fixed) and reads its changelog; a
// Member sees the status and the changelog but no controls.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
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
const STEP = 180_000;

const template = (id: string, path: string) => `id: ${id}
info:
  name: ${id} page
  author: vigil-e2e
  severity: high
  tags: e2e
http:
  - method: GET
    path:
      - "{{BaseURL}}${path}"
    matchers:
      - type: word
        words:
          - "broken"
`;

describe.each(dbKinds())('console finding triage on %s', (kind) => {
  let dir: string;
  let target: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  let broken = true;
  const ids: Record<string, string> = {};
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const apiCall = apiCaller(() => base, bootstrapKey);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-triage-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(catalogue, { recursive: true });
    target = await startHttpServer((req, res) => {
      res.end(broken && (req.url === '/a' || req.url === '/b') ? 'broken' : 'fine');
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
    await addMember(base, bootstrapKey, 'member@example.com', MEMBER_PASSWORD);

    const scan = await apiCall('POST', '/v1/scans', {
      targets: [target.url],
      private_templates: [
        { name: 'a.yaml', contents: template('e2e-bug-a', '/a') },
        { name: 'b.yaml', contents: template('e2e-bug-b', '/b') },
      ],
    });
    expect(scan.status, JSON.stringify(scan.json)).toBe(200);
    await waitFor(async () => (await apiCall('GET', `/v1/scans/${scan.json.id}`)).json.status === 'finished', 60_000);
    for (const r of (await apiCall('GET', `/v1/scans/results?scan_id=${scan.json.id}`)).json.data)
      ids[r.template_id] = r.vuln_id;
    expect(Object.keys(ids).sort()).toEqual(['e2e-bug-a', 'e2e-bug-b']);

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
    'the Owner sets the status of selected findings in bulk and filters the list by status',
    async () => {
      await owner.goto(base + '/findings');
      const table = owner.getByTestId('findings-table');
      await table.waitFor(SLOW);
      expect(await table.getByTestId('vuln-status').allTextContents()).toEqual(['Open', 'Open']);
      await owner.getByLabel('Select every finding on this page').check();
      await owner.getByPlaceholder('Set status to…').click();
      await owner.getByRole('option', { name: 'Accepted risk' }).click();
      await owner.getByRole('button', { name: 'Apply to selected' }).click();
      await waitFor(
        async () => (await table.getByTestId('vuln-status').allTextContents()).every((s) => s === 'Accepted risk'),
        20_000,
      );
      for (const id of Object.values(ids))
        expect((await apiCall('GET', `/v1/scans/vuln/${id}`)).json.vuln_status).toBe('accepted_risk');

      // Filter: open findings: none now.
      await owner.getByRole('combobox', { name: 'Status', exact: true }).click({ force: true });
      await owner.getByRole('option', { name: 'Open' }).click();
      await owner.getByText('No findings match').waitFor(SLOW);
      expect(owner.url()).toContain('status=open');
      await shot(owner, 'findings-status-filter');

      // The whole filter at once: every finding of one template, whatever page it is on.
      await owner.goto(base + '/findings?template=e2e-bug-b');
      await table.waitFor(SLOW);
      await owner.getByPlaceholder('Set status to…').click();
      await owner.getByRole('option', { name: 'Duplicate' }).click();
      await owner.getByRole('button', { name: 'Apply to all 1 matching' }).click();
      await waitFor(
        async () => (await apiCall('GET', `/v1/scans/vuln/${ids['e2e-bug-b']}`)).json.vuln_status === 'duplicate',
        20_000,
      );
      expect((await apiCall('GET', `/v1/scans/vuln/${ids['e2e-bug-a']}`)).json.vuln_status).toBe('accepted_risk');
      await table.getByTestId('vuln-status').filter({ hasText: 'Duplicate' }).waitFor(SLOW);
    },
    STEP,
  );

  it(
    'on a finding: status, labels, a retest after the fix (fixed), and its changelog with the actor',
    async () => {
      const a = ids['e2e-bug-a']!;
      await owner.goto(`${base}/findings/${a}`);
      const triage = owner.getByTestId('finding-triage');
      await triage.waitFor(SLOW);
      await triage.getByRole('combobox', { name: 'Status' }).click();
      await owner.getByRole('option', { name: 'Triaged' }).click();
      await waitFor(async () => (await apiCall('GET', `/v1/scans/vuln/${a}`)).json.vuln_status === 'triaged', 20_000);
      await triage.getByLabel('Labels').fill('payments');
      await owner.keyboard.press('Enter');
      await waitFor(
        async () => (await apiCall('GET', `/v1/scans/vuln/${a}`)).json.labels.join() === 'payments',
        20_000,
      );

      broken = false;
      await triage.getByRole('button', { name: 'Retest' }).click();
      await owner.getByTestId('retest-state').filter({ hasText: 'not matched' }).waitFor({ timeout: 60_000 });
      await waitFor(
        async () => (await triage.getByRole('combobox', { name: 'Status' }).inputValue()) === 'Fixed',
        20_000,
      );

      await owner.getByRole('tab', { name: 'Changelog' }).click();
      const log = owner.getByTestId('finding-changelog');
      await log.waitFor(SLOW);
      const rows = await log.locator('tbody tr').allTextContents();
      expect(rows).toHaveLength(4);
      expect(rows[0]).toMatch(/owner@localhost.*retest: not matched; status: Triaged → Fixed/);
      expect(rows[1]).toMatch(/owner@localhost.*labels:.*payments/);
      expect(rows[2]).toMatch(/owner@localhost \(platform\).*status: Accepted risk → Triaged/);
      expect(rows[3]).toMatch(/owner@localhost \(platform\).*status: Open → Accepted risk/);
      await shot(owner, 'finding-changelog');

      // The console's changes are in the audit log as the console's (platform).
      const audit = (await apiCall('GET', '/v1/team/audit_log?source=platform')).json.data;
      expect(audit.map((e: any) => e.action)).toEqual(
        expect.arrayContaining([
          'PATCH /v1/scans/vulns',
          'PATCH /v1/scans/vulns/labels',
          'POST /v1/scans/:vuln_id/retest',
        ]),
      );
    },
    STEP,
  );

  it(
    'a Member sees status, labels and the changelog, and no controls',
    async () => {
      await member.goto(`${base}/findings/${ids['e2e-bug-a']}`);
      const triage = member.getByTestId('finding-triage');
      await triage.waitFor(SLOW);
      expect(await triage.getByTestId('vuln-status').textContent()).toBe('Fixed');
      expect(await triage.getByRole('button', { name: 'Retest' }).count()).toBe(0);
      expect(await triage.getByRole('combobox', { name: 'Status' }).count()).toBe(0);
      await member.getByRole('tab', { name: 'Changelog' }).click();
      await member.getByTestId('finding-changelog').waitFor(SLOW);
      await member.goto(base + '/findings');
      await member.getByTestId('findings-table').waitFor(SLOW);
      // A Member selects findings only to export them: no status, label or retest control.
      const actions = member.getByTestId('bulk-actions');
      await actions.waitFor(SLOW);
      expect(await member.getByRole('button', { name: 'Apply to selected' }).count()).toBe(0);
      expect(await actions.getByRole('button', { name: 'Set labels' }).count()).toBe(0);
      expect(await actions.getByRole('button', { name: 'Retest' }).count()).toBe(0);
      expect(await actions.getByRole('button', { name: 'Export selected' }).count()).toBe(1);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    'the audit log under Settings shows who changed what through the console, and searches it',
    async () => {
      await member.goto(base + '/settings');
      const log = member.getByTestId('audit-log');
      await log.waitFor(SLOW);
      const text = await log.textContent();
      expect(text).toContain(`PATCH /v1/scans/vulns`);
      expect(text).toContain(`POST /v1/scans/${ids['e2e-bug-a']}/retest`);
      expect(text).toContain('owner@localhost');
      expect(text).toContain('console');
      await member.getByLabel('Search').fill('labels');
      await member.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => log.locator('tbody tr').count(), SLOW).toBe(1);
      expect(await log.textContent()).toContain('PATCH /v1/scans/vulns/labels');
      await shot(member, 'audit-log');
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
  it(
    'bulk labels, retest and export, on the selection and on the whole filter; a Member exports too',
    async () => {
      const [a, b] = [ids['e2e-bug-a']!, ids['e2e-bug-b']!];
      const vuln = async (id: string) => (await apiCall('GET', `/v1/scans/vuln/${id}`)).json;
      await owner.goto(base + '/findings');
      const actions = owner.getByTestId('bulk-actions');
      await actions.waitFor(SLOW);
      expect(await axeViolations(owner)).toEqual([]);

      // Labels on the selection: both findings.
      await owner.getByLabel('Select every finding on this page').check();
      await actions.getByLabel('Labels to set').fill('q4');
      await owner.keyboard.press('Enter');
      await actions.getByRole('button', { name: 'Set labels' }).click();
      await waitFor(
        async () => (await vuln(a)).labels.join() === 'q4' && (await vuln(b)).labels.join() === 'q4',
        20_000,
      );

      // Labels on the whole filter (one template): only its finding changes.
      await owner.goto(base + '/findings?template=e2e-bug-b');
      await actions.waitFor(SLOW);
      await actions.getByText('All 1 matching').click();
      await actions.getByLabel('Labels to set').fill('edge');
      await owner.keyboard.press('Enter');
      await actions.getByRole('button', { name: 'Set labels' }).click();
      await waitFor(async () => (await vuln(b)).labels.join() === 'edge', 20_000);
      expect((await vuln(a)).labels).toEqual(['q4']);

      // Retest of the whole filter: the target is fixed by now, so the duplicate turns fixed.
      await actions.getByRole('button', { name: 'Retest' }).click();
      await actions.getByTestId('bulk-note').filter({ hasText: '1 retest started' }).waitFor(SLOW);
      await waitFor(async () => (await apiCall('GET', `/v1/retest/${b}`)).json.retest_status === 'not_matched', 60_000);
      expect((await vuln(b)).vuln_status).toBe('fixed');
      await shot(owner, 'findings-bulk');

      // Export: the selection as SARIF (one result per finding), the filter as CSV.
      const exported = async (page: Page, button: string, format: string) => {
        await page.getByTestId('bulk-actions').getByRole('button', { name: button }).click();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('menuitem', { name: format }).click(),
        ]);
        return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
      };
      await owner.goto(base + '/findings');
      await actions.waitFor(SLOW);
      await owner.getByLabel('Select every finding on this page').check();
      const sarif = await exported(owner, 'Export selected', 'SARIF 2.1.0');
      expect(sarif.name).toMatch(/\.sarif$/);
      const doc = JSON.parse(sarif.text);
      expect(doc.version).toBe('2.1.0');
      expect(doc.runs[0].results).toHaveLength(2);

      await member.goto(base + '/findings?template=e2e-bug-a');
      await member.getByTestId('bulk-actions').getByText('All 1 matching').click();
      const csv = await exported(member, 'Export all matching', 'CSV');
      expect(csv.name).toMatch(/\.csv$/);
      const lines = csv.text.trim().split(/\r?\n/);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain('e2e-bug-a');

      // One finding's own page has the same menu.
      await member.goto(`${base}/findings/${a}`);
      await member.getByTestId('finding-triage').waitFor(SLOW);
      await member.getByRole('button', { name: 'Export', exact: true }).click();
      const [one] = await Promise.all([
        member.waitForEvent('download'),
        member.getByRole('menuitem', { name: 'Markdown' }).click(),
      ]);
      expect(one.suggestedFilename()).toBe(`finding-${a}.md`);
      // Markdown escapes the template id's hyphens.
      expect(readFileSync((await one.path())!, 'utf8')).toMatch(
        /e2e\\-bug\\-a \| http:\/\/127\.0\.0\.1:\d+\/a \| fixed \|/,
      );
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
