// The console end to end: a real `vigil serve` (PGlite data folder, and PostgreSQL when TEST_DATABASE_URL
// is set) with a small template catalogue and real CVE/KEV data, a local HTTP target on 127.0.0.1, and
// Debian's Chromium. It walks what people do: set the owner's password from the first-start link, sign in,
// invite a member who sets a password, create and run a scan and watch it finish, open a finding with its
// request and response, search templates with a facet, edit a private template (error shown at its line,
// then fixed), look up a CVE, and check that a Member sees no create/delete controls and that the API
// refuses them. Screenshots of the main pages go to .vigil-tmp/console-shots/ (from the PGlite run;
// `npm run docs:screenshots` sends them to docs/console/).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { endConsoleRun, launchChromium, newPage, screenshotter, watchPages } from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { runVigil, spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { hasShared, sharedDir } from '../helpers/shared.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const CVE = 'CVE-2021-26086';
const OWNER_PASSWORD = 'owner password 0123';
const MEMBER_PASSWORD = 'member password 4567';
/** CI runs other test files beside this one on two cores: waits are generous. */
const SLOW = { timeout: 30_000 };
const STEP = 180_000;

/** A small catalogue: one template per severity, two of which match the target. */
const CATALOGUE: Record<string, string> = {
  'http/e2e/hello-page.yaml': `id: ${CVE}
info:
  name: E2E hello page (stand-in check for ${CVE})
  author: vigil-e2e
  severity: high
  description: Test template that matches the local target's hello page; it names a real CVE so the finding shows its record.
  tags: e2e,cve
  classification:
    cve-id: ${CVE}
http:
  - method: GET
    path:
      - "{{BaseURL}}/hello"
    matchers:
      - type: word
        name: hello-word
        words:
          - "hello vigil"
`,
  'http/e2e/page-title.yaml': `id: e2e-page-title
info:
  name: E2E page title
  author: vigil-e2e
  severity: info
  tags: e2e,tech
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        part: body
        words:
          - "<title>"
    extractors:
      - type: regex
        part: body
        group: 1
        regex:
          - "<title>([^<]+)</title>"
`,
  'http/e2e/admin-panel.yaml': `id: e2e-admin-panel
info:
  name: E2E admin panel
  author: vigil-e2e
  severity: low
  tags: e2e,panel
http:
  - method: GET
    path:
      - "{{BaseURL}}/admin"
    matchers:
      - type: status
        status:
          - 200
`,
};

const VALID_PRIVATE = `id: team-check
info:
  name: Team private check
  author: team
  severity: medium
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        words:
          - hello
`;

describe.each(dbKinds())('web console end to end on %s', (kind) => {
  let dir: string;
  let target: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let memberCtx: BrowserContext;
  let member: Page;
  let scanUrl = '';
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const withCve = hasShared('data/vuln');
  const shot = screenshotter(kind === 'pglite');
  const env = () => ({
    VIGIL_DATA_DIR: dir,
    ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
  });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-'));
    const catalogue = path.join(dir, 'catalogue');
    for (const [file, text] of Object.entries(CATALOGUE)) {
      mkdirSync(path.dirname(path.join(catalogue, file)), { recursive: true });
      writeFileSync(path.join(catalogue, file), text);
    }
    target = await startHttpServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/hello')
        return res.end('<html><head><title>Hello page</title></head><body>hello vigil</body></html>');
      if (req.url === '/') return res.end('<html><head><title>Vigil E2E target</title></head><body>home</body></html>');
      res.statusCode = 404;
      res.end('not found');
    });
    if (withCve) {
      // Real records: the CVE (CVE JSON 5) and CISA's KEV catalogue, imported before the server starts.
      // Plus its public PoC links and an EPSS score in FIRST's CSV shape (../shared has no EPSS file).
      const vuln = path.join(sharedDir, 'data/vuln');
      const epss = path.join(dir, 'epss.csv');
      writeFileSync(
        epss,
        `#model_version:v2025.03.14,score_date:2025-08-20T00:00:00+0000\ncve,epss,percentile\n${CVE},0.94123,0.99876\n`,
      );
      const imported = await runVigil(
        [
          'intel',
          'import',
          path.join(vuln, 'cve5/2021/26xxx', `${CVE}.json`),
          path.join(vuln, 'kev/known_exploited_vulnerabilities.json'),
          path.join(vuln, 'pocs/2021', `${CVE}.json`),
          epss,
        ],
        env(),
      );
      expect(imported.code, imported.stderr).toBe(0);
    }
    serve = spawnVigil(['serve', '--port', '0'], {
      ...env(),
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
    });
    base = await serve.listening(150_000);
    await serve.waitFor(/template catalogue imported/, 120_000);
    browser = await launchChromium();
    ({ page: owner } = await newPage(browser));
    ({ context: memberCtx, page: member } = await newPage(browser));
    watchPages([owner, member], browserProblems);
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [target], kind, schema, dir }), STEP);

  it(
    'the owner sets a password from the first-start link, and signs in with it and with the API key',
    async () => {
      const link = readFileSync(path.join(dir, 'owner-password-link'), 'utf8').trim();
      expect(link).toMatch(/\/invite#vgi_/);
      // The link's host is the server's; the token is after '#', so it never reaches the server's log.
      await owner.goto(base + '/invite#' + link.split('#')[1]);
      await owner.getByLabel('New password (at least 12 characters)').fill(OWNER_PASSWORD);
      await owner.getByLabel('Repeat it').fill(OWNER_PASSWORD);
      await owner.getByRole('button', { name: 'Set password and sign in' }).click();
      await owner.getByRole('button', { name: 'Continue to the console' }).click();
      await expect.poll(() => owner.getByTestId('me-role').textContent(), SLOW).toBe('OWNER');
      expect(owner.url()).not.toContain('vgi_');

      // Sign out, then in again with the password.
      await owner.getByRole('button', { name: 'Sign out' }).click();
      await owner.waitForURL(/\/sign-in/);
      await owner.locator('input[name=email]').fill('owner@localhost');
      await owner.locator('input[name=password]').fill('not the password');
      await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect
        .poll(() => owner.getByTestId('sign-in-error').textContent(), SLOW)
        .toContain('wrong email or password');
      await shot(owner, 'sign-in');
      await owner.locator('input[name=password]').fill(OWNER_PASSWORD);
      await owner.getByRole('button', { name: 'Sign in', exact: true }).click();
      await owner.getByTestId('me-email').waitFor();
      expect(await owner.getByTestId('me-email').textContent()).toBe('owner@localhost');

      // And with the API key (another context, so the owner's session stays).
      const keyCtx = await browser.newContext();
      keyCtx.setDefaultTimeout(60_000);
      const p = await keyCtx.newPage();
      await p.goto(base + '/scans');
      await p.waitForURL(/\/sign-in\?next=%2Fscans/);
      await p.getByRole('tab', { name: 'API key' }).click();
      await p.locator('input[name=api_key]').fill(bootstrapKey);
      await p.getByRole('button', { name: 'Sign in with key' }).click();
      await p.waitForURL(/\/scans$/);
      const cookies = await keyCtx.cookies();
      const session = cookies.find((c) => c.name === 'vigil_session')!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      await keyCtx.close();
      expect(serve.stdout + serve.stderr).not.toContain(bootstrapKey);
      expect(serve.stdout + serve.stderr).not.toContain(session.value);
      // The refused try is in the log for the operator, without the password tried.
      expect(serve.stdout + serve.stderr).toMatch(/console sign-in refused/);
      expect(serve.stdout + serve.stderr).not.toContain('not the password');
      expect(serve.stdout + serve.stderr).not.toContain(OWNER_PASSWORD);
    },
    STEP,
  );

  it(
    'the owner invites a member, who sets a password on the invite link',
    async () => {
      await owner.goto(base + '/settings');
      // Each role says what it may do, beside the members and under the invite's role picker.
      expect(await owner.getByTestId('role-descriptions').textContent()).toContain('MEMBER: Sees scans');
      expect(await owner.getByTestId('invite-role-info').textContent()).toMatch(/changes nothing/);
      await owner.getByLabel('Invite by email').fill('member@example.com');
      await owner.getByRole('button', { name: 'Invite' }).click();
      const link = (await owner.getByTestId('invite-link').textContent())!;
      expect(link).toMatch(/\/invite#vgi_/);
      await owner.getByTestId('members-table').getByText('member@example.com').waitFor();
      await shot(owner, 'settings');

      await member.goto(link);
      await member.getByLabel('New password (at least 12 characters)').fill(MEMBER_PASSWORD);
      await member.getByLabel('Repeat it').fill(MEMBER_PASSWORD);
      await member.getByRole('button', { name: 'Set password and sign in' }).click();
      expect(await member.getByTestId('new-api-key').textContent()).toMatch(/^vgl_/);
      await member.getByRole('button', { name: 'Continue to the console' }).click();
      await expect.poll(() => member.getByTestId('me-role').textContent(), SLOW).toBe('MEMBER');
      // The invite is used up (asked without the session: with it, the CSRF token would be missing first).
      const again = await member.evaluate(
        async (token) =>
          (
            await fetch('/v1/user/invite/accept', {
              method: 'POST',
              credentials: 'omit',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ token, password: 'whatever long phrase 12345' }),
            })
          ).status,
        link.split('#')[1],
      );
      expect(again).toBe(404);
      // The invite token travels after '#' and in request bodies only: never in the server's log.
      expect(serve.stdout + serve.stderr).not.toContain(link.split('#')[1]!);
    },
    STEP,
  );

  it(
    'the owner creates a scan, watches it finish, and opens a finding with its request and response',
    async () => {
      await owner.goto(base + '/scans');
      await owner.getByTestId('new-scan').click();
      await owner.getByLabel('Name').fill('E2E scan');
      await owner.getByLabel(/^Targets/).fill(target.url);
      await owner.getByLabel('search templates to add').fill('e2e');
      const pick = owner.getByTestId('template-pick');
      await pick.getByRole('button', { name: 'Add' }).first().waitFor();
      // Narrowing by severity adds the filter to the query; then every result of the folder at once.
      await owner.locator('[data-facet="severity:high"]').click();
      await expect.poll(() => owner.getByTestId('template-pick-total').textContent(), SLOW).toBe('1 templates match');
      await owner.getByLabel('search templates to add').fill('e2e');
      await expect.poll(() => owner.getByTestId('template-pick-total').textContent(), SLOW).toBe('3 templates match');
      await owner.locator('[data-facet^="dir:"]').first().click();
      await expect.poll(() => owner.getByLabel('search templates to add').inputValue(), SLOW).toMatch(/^e2e dir:\S+$/);
      await expect.poll(() => owner.getByTestId('template-pick-total').textContent(), SLOW).toBe('3 templates match');
      await owner.getByTestId('add-all-results').click();
      await expect.poll(() => owner.getByTestId('picked-count').textContent(), SLOW).toBe('3 picked');
      await owner.getByTestId('create-scan').click();
      await owner.waitForURL((u) => u.pathname.startsWith('/scans/') && u.pathname !== '/scans/new');
      scanUrl = owner.url();
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      // Results grouped by template, the vulnerability before the information, each with its matcher name
      // and extracted values.
      const groups = owner.getByTestId('scan-results').getByTestId('result-group');
      await expect.poll(() => groups.count(), SLOW).toBe(2);
      expect(await owner.getByTestId('results-vulnerabilities').textContent()).toContain('E2E hello page');
      expect(await owner.getByTestId('results-information').textContent()).toContain('E2E page title');
      expect(await owner.getByTestId('result-matcher').allTextContents()).toEqual(['hello-word']);
      expect(await owner.getByTestId('result-extracted').allTextContents()).toEqual(['Vigil E2E target']);
      expect(await owner.getByTestId('scan-results-summary').textContent()).toBe(
        '2 finding(s) from 2 template(s) on 1 host(s)',
      );
      expect(await owner.getByTestId('scan-progress').textContent()).toBe('100%');
      await shot(owner, 'scan-detail');
      // The scan log: one record per target x template.
      await owner.getByRole('tab', { name: 'Log' }).click();
      await expect.poll(() => owner.getByTestId('scan-log').locator('tbody tr').count(), SLOW).toBe(3);
      expect(await owner.getByTestId('scan-log').textContent()).toContain('e2e-admin-panel');
      await owner.getByRole('tab', { name: 'Results' }).click();

      // A finding opens on its own page (which links back to the scan), not in a list with a hidden filter.
      await owner
        .getByTestId('results-vulnerabilities')
        .getByRole('link', { name: /\/hello$/ })
        .click();
      await owner.waitForURL((u) => /^\/findings\/\d+$/.test(u.pathname));
      await owner.getByRole('link', { name: 'Its scan' }).waitFor();
      const detail = owner.getByTestId('finding-detail');
      await detail.waitFor();
      expect(await owner.getByTestId('finding-request').textContent()).toContain('GET /hello');
      await owner.getByRole('tab', { name: 'Response' }).click();
      expect(await owner.getByTestId('finding-response').textContent()).toContain('hello vigil');
      if (withCve) {
        await owner.getByRole('tab', { name: 'CVE' }).click();
        await owner.getByTestId('vuln-record').waitFor();
        expect(await owner.getByTestId('vuln-record').textContent()).toContain('Known exploited (KEV)');
      }
      await owner.getByRole('tab', { name: 'Response' }).click();
      await shot(owner, 'finding');

      await owner.goto(base + '/scans');
      await owner.getByTestId('scans-table').getByText('E2E scan').waitFor();
      await shot(owner, 'scans');
      // A Member is shown the same page without the create button, and the form itself refuses them.
      await member.goto(base + '/scans/new');
      await member.getByText(/role MEMBER may not create scans/).waitFor();
      await owner.goto(base + '/');
      await owner.getByTestId('severity-card').getByText('high').waitFor();
      // Open findings by severity, counted once each; new and fixed per day over the chosen period.
      expect(await owner.getByTestId('severity-total').textContent()).toBe('2 open');
      expect(await owner.getByTestId('severity-high').textContent()).toBe('high1');
      await expect
        .poll(() => owner.getByTestId('per-day-totals').textContent(), SLOW)
        .toBe('2 new, 0 fixed in 30 days');
      await owner.getByText('7 days').click();
      await expect.poll(() => owner.getByTestId('per-day-totals').textContent(), SLOW).toBe('2 new, 0 fixed in 7 days');
      expect(await owner.getByTestId('top-templates-card').textContent()).toContain('E2E hello page');
      if (withCve) await owner.getByTestId('kev-card').getByText(CVE).waitFor();
      await shot(owner, 'overview');
    },
    STEP,
  );

  it(
    'templates: search with a facet, view one',
    async () => {
      await owner.goto(base + '/templates?q=e2e');
      await expect.poll(() => owner.getByTestId('template-total').textContent(), SLOW).toBe('3 templates');
      await owner.locator('[data-facet="severity:high"]').click();
      await expect.poll(() => owner.getByTestId('template-total').textContent(), SLOW).toBe('1 templates');
      expect(owner.url()).toContain('severity%3Ahigh');
      await shot(owner, 'templates');
      await owner
        .getByTestId('templates-table')
        .getByRole('button', { name: /E2E hello page/ })
        .click();
      await owner.getByTestId('template-viewer').getByText('hello vigil').first().waitFor();
    },
    STEP,
  );

  it(
    'a private template in the editor: the validator error at its line, then fixed, saved, updated and deleted',
    async () => {
      await owner.goto(base + '/templates?tab=private');
      await owner.getByTestId('new-template').click();
      const editor = owner.locator('.cm-content');
      await editor.waitFor();
      await editor.click();
      await owner.keyboard.press('Control+A');
      await owner.keyboard.insertText(VALID_PRIVATE.replace('type: word', 'type: wrd'));
      const problems = owner.getByTestId('template-problems');
      await problems.waitFor({ timeout: 30_000 });
      expect(await problems.textContent()).toMatch(/line 11: .*wrd/);
      // The editor marks the line too.
      await owner.locator('.cm-lintRange-error').first().waitFor();
      await shot(owner, 'template-editor');
      // Saving is refused by the server while it is wrong.
      await owner.getByTestId('save-template').click();
      expect(await owner.getByTestId('save-error').textContent()).toContain('invalid template');

      await editor.click();
      await owner.keyboard.press('Control+A');
      await owner.keyboard.insertText(VALID_PRIVATE);
      await owner.getByTestId('template-valid').waitFor({ timeout: 30_000 });
      await owner.getByTestId('save-template').click();
      await owner.waitForURL((u) => /\/templates\/private\/[0-9a-f-]{36}$/.test(u.pathname));
      // Update: the saved text is what the server keeps.
      await owner.getByTestId('template-valid').waitFor();
      await editor.click();
      await owner.keyboard.press('Control+A');
      await owner.keyboard.insertText(VALID_PRIVATE.replace('Team private check', 'Team private check v2'));
      await owner.getByTestId('template-valid').waitFor();
      await owner.getByTestId('save-template').click();
      await owner.getByTestId('saved').getByText('Template saved').waitFor();
      await owner.goto(base + '/templates?tab=private');
      await owner.getByTestId('private-templates').getByText('Team private check v2').click();
      // Delete, after confirming.
      await owner.getByTestId('delete-template').click();
      await owner.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await owner.waitForURL((u) => u.pathname === '/templates');
      await owner.getByText('The team has no private templates yet').waitFor();
    },
    STEP,
  );

  it(
    'looks up a CVE',
    async () => {
      if (!withCve) return; // the vulnerability data comes from ../shared (hasShared said so)
      await owner.goto(base + '/vulnerabilities');
      await owner.getByLabel('vulnerability query').fill(CVE.toLowerCase());
      await owner.getByRole('button', { name: 'Look up' }).click();
      const record = owner.getByTestId('vuln-record');
      await record.waitFor();
      expect(await record.textContent()).toContain(CVE);
      expect(await record.textContent()).toContain('Known exploited (KEV)');
      expect(await record.textContent()).toMatch(/0\.94123 \(percentile 0\.99876\)/);
      expect(await record.textContent()).toMatch(/Proofs of concept \(\d+\)/);
      await shot(owner, 'vulnerabilities');
    },
    STEP,
  );

  it(
    'the owner reruns the scan (the finding gains a history entry) and stops and deletes a scan',
    async () => {
      await owner.goto(scanUrl);
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor();
      await owner.getByTestId('scan-actions').getByRole('button', { name: 'Rescan' }).click();
      await owner.getByText('Runs').locator('..').getByText('2').waitFor();
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor({ timeout: 120_000 });
      await owner
        .getByTestId('results-vulnerabilities')
        .getByRole('link', { name: /\/hello$/ })
        .click();
      await owner.getByTestId('finding-detail').waitFor();
      await owner.getByRole('tab', { name: 'History' }).click();
      await expect.poll(() => owner.getByTestId('finding-history').locator('tbody tr').count(), SLOW).toBe(2);

      // A second scan, stored only: Stop does not apply; Delete (after confirming) removes it.
      await owner.goto(base + '/scans/new');
      await owner.getByLabel('Name').fill('Throwaway scan');
      await owner.getByLabel(/^Targets/).fill(target.url);
      await owner.getByLabel('search templates to add').fill('admin');
      await owner.getByTestId('template-pick').getByRole('button', { name: 'Add' }).first().click();
      await owner.getByLabel(/Only store it/).check();
      await owner.getByTestId('create-scan').click();
      await owner.waitForURL((u) => u.pathname.startsWith('/scans/') && u.pathname !== '/scans/new');
      await owner.getByTestId('scan-status').filter({ hasText: 'scheduled' }).waitFor();
      expect(await owner.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
      await owner.getByTestId('scan-actions').getByRole('button', { name: 'Delete' }).click();
      await owner.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await owner.waitForURL((u) => u.pathname === '/scans');
      await owner.getByTestId('scans-table').getByText('E2E scan').waitFor();
      expect(await owner.getByTestId('scans-table').getByText('Throwaway scan').count()).toBe(0);
    },
    STEP,
  );

  it(
    'the owner creates a workspace in Settings and switches between teams',
    async () => {
      await owner.goto(base + '/settings');
      // The instance owner may create workspaces and manages who else may.
      await owner.getByTestId('team-creators').waitFor();
      await owner.getByTestId('create-workspace').getByLabel('New workspace').fill('Second workspace');
      await owner.getByTestId('create-workspace').getByRole('button', { name: 'Create' }).click();
      await owner.getByRole('button', { name: 'Open it' }).click();
      await owner.waitForURL((u) => u.pathname === '/');
      await owner.goto(base + '/scans');
      await owner.getByText('No scans yet').waitFor();
      await owner.getByTestId('team-switch').click();
      await owner.getByRole('option', { name: 'Default team' }).click();
      await owner.waitForURL((u) => u.pathname === '/');
      await owner.goto(base + '/scans');
      await owner.getByTestId('scans-table').getByText('E2E scan').waitFor();
      await owner.getByTestId('team-switch').click();
      await owner.getByRole('option', { name: 'Second workspace' }).click();
      await owner.waitForURL((u) => u.pathname === '/');
      await expect.poll(() => owner.getByTestId('me-role').textContent(), SLOW).toBe('OWNER');
    },
    STEP,
  );

  it(
    'an existing account accepts an invite by signing in as itself on the invite page',
    async () => {
      // The owner, now in the second workspace, invites the member, who has an account already.
      await owner.goto(base + '/settings');
      await owner.getByLabel('Invite by email').fill('member@example.com');
      await owner.getByRole('button', { name: 'Invite' }).click();
      const link = (await owner.getByTestId('invite-link').textContent())!;
      await owner.getByText('They already have an account').waitFor();
      // Opened while signed in as someone else, the page says whose invite it is and changes nothing.
      await owner.goto(link);
      await owner.getByTestId('invite-other-account').filter({ hasText: 'signed in as owner@localhost' }).waitFor();
      expect(await owner.getByTestId('invite-for').textContent()).toContain('member@example.com');

      // The member, in a fresh browser (not signed in): the page asks to sign in as member@example.com.
      const ctx = await browser.newContext();
      ctx.setDefaultTimeout(60_000);
      const p = await ctx.newPage();
      await p.goto(link);
      await p.getByTestId('invite-for').filter({ hasText: 'member@example.com' }).waitFor();
      expect(await p.getByLabel('New password (at least 12 characters)').count()).toBe(0);
      expect(await p.locator('input[name=email]').inputValue()).toBe('member@example.com');
      await p.locator('input[name=password]').fill(MEMBER_PASSWORD);
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.getByText('You are a member of Second workspace').waitFor();
      await p.getByRole('button', { name: 'Continue to the console' }).click();
      await expect.poll(() => p.getByTestId('me-role').textContent(), SLOW).toBe('MEMBER');
      await ctx.close();
      // Settings tells the member why there is no create-workspace form.
      await member.goto(base + '/settings');
      await member.getByTestId('create-workspace-refused').waitFor();
      expect(await member.getByTestId('team-creators').count()).toBe(0);
      expect(await member.getByTestId('create-workspace').count()).toBe(0);
    },
    STEP,
  );

  it(
    'a Member sees no create or delete controls, and the API refuses them',
    async () => {
      await member.goto(base + '/scans');
      await member.getByTestId('scans-table').getByText('E2E scan').waitFor();
      expect(await member.getByTestId('new-scan').count()).toBe(0);
      await member.goto(scanUrl);
      await member.getByTestId('scan-name').waitFor();
      expect(await member.getByTestId('scan-actions').count()).toBe(0);
      await member.goto(base + '/templates?tab=private');
      await member.getByText('The team has no private templates yet').waitFor();
      expect(await member.getByTestId('new-template').count()).toBe(0);
      await member.goto(base + '/settings');
      await member.getByTestId('members-table').waitFor();
      expect(await member.getByTestId('invite-form').count()).toBe(0);
      expect(await member.getByRole('button', { name: 'Remove' }).count()).toBe(0);

      // Straight to the API with the member's session: refused by role; without the CSRF token, refused first.
      const scanId = scanUrl.split('/').pop()!;
      const answers = await member.evaluate(async (id) => {
        const s = await (await fetch('/v1/auth/session')).json();
        const post = (url: string, body: unknown, csrf?: string) =>
          fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) },
            body: JSON.stringify(body),
          }).then(async (r) => ({ status: r.status, code: (await r.json()).code }));
        const del = await fetch(`/v1/scans/${id}`, { method: 'DELETE', headers: { 'x-csrf-token': s.csrf_token } });
        return {
          create: await post('/v1/scans', { name: 'x', targets: ['http://127.0.0.1:9'] }, s.csrf_token),
          noCsrf: await post('/v1/scans', { name: 'x', targets: ['http://127.0.0.1:9'] }),
          remove: { status: del.status, code: (await del.json()).code },
        };
      }, scanId);
      expect(answers.create).toEqual({ status: 403, code: 'forbidden' });
      expect(answers.noCsrf).toEqual({ status: 403, code: 'csrf_failed' });
      expect(answers.remove).toEqual({ status: 403, code: 'forbidden' });

      // Every user sees and rotates their own key: the new one is shown once and works at once.
      await member.getByTestId('key-prefix').waitFor();
      await member.getByTestId('rotate-key').click();
      const fresh = (await member.getByTestId('new-key').textContent())!;
      expect(fresh).toMatch(/^vgl_/);
      expect((await fetch(base + '/v1/user', { headers: { 'x-api-key': fresh } })).status).toBe(200);
      await member.keyboard.press('Escape');

      // Sign-out ends the session on the server: the old cookie is refused afterwards.
      const cookie = (await memberCtx.cookies()).find((c) => c.name === 'vigil_session')!.value;
      await member.getByRole('button', { name: 'Sign out' }).click();
      await member.waitForURL(/\/sign-in/);
      const replay = await fetch(base + '/v1/user', { headers: { cookie: `vigil_session=${cookie}` } });
      expect(replay.status).toBe(401);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
