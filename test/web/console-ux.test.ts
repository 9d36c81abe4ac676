// The console's fit and finish end to end (issue 28's last bullets): a real `vigil serve` (PGlite: nothing
// here depends on the database), a local HTTP target, real CVE/KEV records from ../shared when present,
// and Debian's Chromium. Unknown addresses show "Page not found" inside the layout (or the sign-in frame
// without a session); every tab is titled "<Page> · Vigil"; the colour scheme follows the system, can be
// set to auto, light or dark in the header and stays so after a reload; "Skip to content" is the first
// thing Tab reaches and moves focus to the page; at 390 px the navigation collapses behind a burger, the
// header leaves the page alone, badges and CVE ids are whole and a KEV date is a date; and axe-core, injected
// into every page in light and in dark mode, finds no serious or critical violation.
// Screenshots go to .vigil-tmp/console-shots/ (ux-*.png).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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
  axeViolations,
  apiCaller,
} from '../helpers/browser.ts';
import { runVigil, spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { hasShared, sharedDir } from '../helpers/shared.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { waitFor } from '../helpers/wait.ts';

const CVE = 'CVE-2021-26086';
/** Its dateAdded in CISA's KEV catalogue (../shared/data/vuln/kev). */
const KEV_ADDED = '2024-11-12';
const STEP = 240_000;
// Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.

const TEMPLATE = `id: ${CVE}
info:
  name: UX check for ${CVE}
  author: vigil-e2e
  severity: critical
  tags: e2e,cve
  classification:
    cve-id: ${CVE}
http:
  - method: GET
    path:
      - "{{BaseURL}}/hello"
    matchers:
      - type: word
        words:
          - "hello vigil"
`;

describe('console fit and finish: 404, titles, dark mode, skip link, 390 px, accessibility', () => {
  let dir: string;
  let target: TestServer;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let page: Page;
  let scanId = '';
  let findingId = '';
  const problems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const withCve = hasShared('data/vuln');
  const shot = screenshotter(true);
  const apiCall = apiCaller(() => base, bootstrapKey);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-ux-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/e2e'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/e2e/cve.yaml'), TEMPLATE);
    target = await startHttpServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/hello') return res.end('<html><body>hello vigil</body></html>');
      res.statusCode = 404;
      res.end('not found');
    });
    if (withCve) {
      const vuln = path.join(sharedDir, 'data/vuln');
      const imported = await runVigil(
        [
          'intel',
          'import',
          path.join(vuln, 'cve5/2021/26xxx', `${CVE}.json`),
          path.join(vuln, 'kev/known_exploited_vulnerabilities.json'),
        ],
        { VIGIL_DATA_DIR: dir },
      );
      expect(imported.code, imported.stderr).toBe(0);
    }
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_TEMPLATES_DIR: catalogue,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    });
    base = await serve.listening(150_000);
    await serve.waitFor(/template catalogue imported/, 120_000);
    const created = await apiCall('POST', '/v1/scans', {
      name: 'Nightly shop scan',
      targets: [target.url],
      templates: ['http/e2e/cve.yaml'],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    scanId = created.json.id;
    await waitFor(
      async () => ['finished', 'failed'].includes((await apiCall('GET', `/v1/scans/${scanId}`)).json.status),
      120_000,
      250,
    );
    const results = await apiCall('GET', `/v1/scans/results?scan_id=${scanId}`);
    findingId = results.json.data[0].vuln_id;

    browser = await launchChromium();
    ({ page } = await newPage(browser));
    watchPages([page], problems);
    await signInWithKey(page, base, bootstrapKey, 'OWNER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [target], kind: 'pglite', schema: '', dir }), STEP);

  /** Every page of the console, its address, what shows it has loaded and its tab title. */
  const pages = () => [
    { path: '/', ready: 'Findings by severity', title: 'Overview · Vigil' },
    { path: '/scans', ready: 'Nightly shop scan', title: 'Scans · Vigil' },
    { path: '/scans/new', ready: 'Targets', title: 'New scan · Vigil' },
    { path: `/scans/${scanId}`, ready: 'Nightly shop scan', title: 'Nightly shop scan · Vigil' },
    { path: '/findings', ready: `UX check for ${CVE}`, title: 'Findings · Vigil' },
    { path: `/findings/${findingId}`, ready: `UX check for ${CVE}`, title: `Finding ${findingId} · Vigil` },
    { path: '/templates', ready: `UX check for ${CVE}`, title: 'Templates · Vigil' },
    { path: '/templates/private/new', ready: 'New private template', title: 'New private template · Vigil' },
    {
      path: `/vulnerabilities?q=${CVE}`,
      ready: withCve ? 'Known exploited (KEV)' : 'is not in the vulnerability data',
      title: 'Vulnerabilities · Vigil',
    },
    { path: '/assets', ready: 'Assets', title: 'Assets · Vigil' },
    { path: '/assets/new', ready: 'New enumeration', title: 'New enumeration · Vigil' },
    { path: '/assets/inventory', ready: 'Assets', title: 'Asset inventory · Vigil' },
    { path: '/assets/policies', ready: 'Assets', title: 'Asset policies · Vigil' },
    { path: '/assets/policies/new', ready: 'New asset policy', title: 'New asset policy · Vigil' },
    { path: '/settings', ready: 'API key', title: 'Settings · Vigil' },
    { path: '/settings/configs', ready: 'Configurations', title: 'Configurations · Vigil' },
    { path: '/settings/configs/new', ready: 'New configuration', title: 'New configuration · Vigil' },
    { path: '/settings/schedules', ready: 'Schedules', title: 'Schedules · Vigil' },
    { path: '/no/such/page', ready: 'Page not found', title: 'Page not found · Vigil' },
  ];

  /** Opens a page and waits for its content and for the network to go quiet (its late queries answered). */
  const open = async (p: Page, address: string, ready: string) => {
    await p.goto(base + address);
    await p.getByText(ready).first().waitFor();
    await p.waitForLoadState('networkidle');
  };

  const axe = axeViolations;

  it(
    'an unknown address shows "Page not found" inside the layout, with the navigation and a link home',
    async () => {
      const res = await page.goto(base + '/no/such/page');
      expect(res?.status()).toBe(200);
      const panel = page.getByTestId('not-found');
      await panel.waitFor();
      expect(await panel.textContent()).toContain('/no/such/page');
      await page.getByRole('link', { name: 'Scans' }).waitFor(); // the navigation is there
      expect(await page.getByTestId('me-role').textContent()).toBe('OWNER');
      await shot(page, 'ux-not-found');
      await panel.getByRole('link', { name: 'Go to the overview' }).click();
      await page.waitForURL(base + '/');
      await page.getByText('Findings by severity').waitFor();
    },
    STEP,
  );

  it(
    'signed out, an unknown address shows the panel in the sign-in frame with a way to sign in',
    async () => {
      const { context, page: anon } = await newPage(browser);
      try {
        watchPages([anon], problems);
        await anon.goto(base + '/nothing-here');
        await anon.getByTestId('not-found').waitFor();
        expect(await anon.getByTestId('me-role').count()).toBe(0);
        expect(await anon.title()).toBe('Page not found · Vigil');
        await anon.getByRole('link', { name: 'Sign in' }).click();
        await anon.waitForURL(/\/sign-in/);
        await anon.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        expect(await anon.title()).toBe('Sign in · Vigil');
      } finally {
        await context.close();
      }
    },
    STEP,
  );

  it(
    'every page has its own tab title, a scan its name',
    async () => {
      for (const p of pages()) {
        await open(page, p.path, p.ready);
        await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(p.title);
      }
    },
    STEP,
  );

  it(
    'the colour scheme follows the system, and auto / light / dark in the header is remembered',
    async () => {
      const { context, page: p } = await newPage(browser);
      try {
        watchPages([p], problems);
        await signInWithKey(p, base, bootstrapKey, 'OWNER');
        const scheme = () => p.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
        const background = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
        // Auto: the system's preference decides, and changes with it.
        await p.emulateMedia({ colorScheme: 'light' });
        await expect.poll(scheme).toBe('light');
        const lightBg = await background();
        await p.emulateMedia({ colorScheme: 'dark' });
        await expect.poll(scheme).toBe('dark');
        expect(await background()).not.toBe(lightBg);
        // Chosen light while the system is dark; kept after a reload (localStorage).
        const toggle = p.getByTestId('color-scheme');
        await toggle.getByText('Light', { exact: true }).click();
        await expect.poll(scheme).toBe('light');
        await p.reload();
        await p.getByTestId('me-role').waitFor();
        await expect.poll(scheme).toBe('light');
        expect(await p.evaluate(() => localStorage.getItem('vigil-color-scheme'))).toBe('light');
        await p.getByTestId('color-scheme').getByText('Dark', { exact: true }).click();
        await p.emulateMedia({ colorScheme: 'light' });
        await expect.poll(scheme).toBe('dark');
        await shot(p, 'ux-dark-overview');
        // Back to auto: the system's light again.
        await p.getByTestId('color-scheme').getByText('Auto', { exact: true }).click();
        await expect.poll(scheme).toBe('light');
      } finally {
        await context.close();
      }
    },
    STEP,
  );

  it(
    '"Skip to content" is the first thing Tab reaches and moves focus to the page',
    async () => {
      for (const [address, ready] of [
        ['/scans', 'Nightly shop scan'],
        ['/sign-in', 'Sign in to Vigil'],
      ] as const) {
        const { context, page: p } = address === '/sign-in' ? await newPage(browser) : { context: undefined, page };
        try {
          await open(p, address, ready);
          await p.keyboard.press('Tab');
          const focused = () =>
            p.evaluate(() => ({ text: document.activeElement?.textContent, id: document.activeElement?.id }));
          expect((await focused()).text).toBe('Skip to content');
          expect(await p.getByTestId('skip-link').isVisible()).toBe(true);
          await p.keyboard.press('Enter');
          expect((await focused()).id).toBe('main');
          // The next Tab goes into the page, not back through the header.
          await p.keyboard.press('Tab');
          expect(await p.evaluate(() => !!document.activeElement?.closest('#main'))).toBe(true);
        } finally {
          await context?.close();
        }
      }
    },
    STEP,
  );

  it(
    'at 390 px: a burger instead of the navigation, the header clear of the page, whole badges and CVE ids, KEV dates as dates',
    async () => {
      const { context, page: p } = await newPage(browser, { width: 390, height: 844 });
      try {
        watchPages([p], problems);
        await signInWithKey(p, base, bootstrapKey, 'OWNER');
        // The navigation is behind the burger; opening it shows the links and the colour scheme.
        await open(p, `/scans/${scanId}`, 'Nightly shop scan');
        // Collapsed, the navigation sits off the screen's left edge.
        const offScreen = async () => {
          const b = await p.locator('nav').first().boundingBox();
          return !!b && b.x + b.width <= 0;
        };
        expect(await offScreen()).toBe(true);
        const burger = p.getByRole('button', { name: 'navigation' });
        expect(await burger.isVisible()).toBe(true);
        const header = await p.locator('header').boundingBox();
        const title = await p.getByTestId('scan-name').boundingBox();
        expect(title!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
        // Nothing sticks out of the screen sideways.
        const wide = await p.evaluate(() =>
          [...document.querySelectorAll('#main *')]
            .filter((e) => e.getBoundingClientRect().right > 391)
            .slice(0, 5)
            .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
        );
        expect(await p.evaluate(() => document.documentElement.scrollWidth), wide.join('; ')).toBeLessThanOrEqual(390);
        await shot(p, 'ux-390-scan');
        await burger.click();
        await expect.poll(offScreen).toBe(false);
        await p.getByRole('link', { name: 'Findings', exact: true }).click();
        await p.getByText(`UX check for ${CVE}`).first().waitFor();
        await expect.poll(offScreen).toBe(true); // closed again after the choice
        // Badges show their whole word.
        const badges = p.locator('.mantine-Badge-label');
        await badges.first().waitFor();
        const clipped = await badges.evaluateAll((els) =>
          els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
        );
        expect(clipped).toEqual([]);
        expect(await p.getByText('critical', { exact: true }).first().isVisible()).toBe(true);
        await shot(p, 'ux-390-findings');
        if (withCve) {
          await open(p, `/vulnerabilities?q=is_kev:true`, CVE);
          // A CVE id on one line.
          const cve = p.getByRole('button', { name: CVE, exact: true }).first();
          const box = await cve.boundingBox();
          const lineHeight = await cve.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || 20);
          expect(box!.height).toBeLessThan(lineHeight * 1.5);
          // The record: KEV's dateAdded is a day, not midnight.
          await open(p, `/vulnerabilities?q=${CVE}`, 'Known exploited (KEV)');
          const record = await p.getByTestId('vuln-record').textContent();
          expect(record).not.toMatch(/12:00:00\s*AM|00:00:00/);
          expect(record).toContain(
            `added ${await p.evaluate((d) => new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC' }), KEV_ADDED)}`,
          );
          await shot(p, 'ux-390-vulnerability');
        }
      } finally {
        await context.close();
      }
    },
    STEP,
  );

  it('axe-core finds no serious or critical violation on any page, in light and in dark mode', async () => {
    const found: string[] = [];
    const anonPages = [
      { path: '/sign-in', ready: 'Sign in to Vigil' },
      { path: '/invite', ready: 'invite link' },
      { path: '/nowhere', ready: 'Page not found' },
    ];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const p of pages()) {
        await open(page, p.path, p.ready);
        expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe(
          scheme,
        );
        for (const v of await axe(page)) found.push(`${scheme} ${p.path}: ${v}`);
      }
      const { context, page: anon } = await newPage(browser);
      try {
        await anon.emulateMedia({ colorScheme: scheme });
        for (const p of anonPages) {
          await open(anon, p.path, p.ready);
          for (const v of await axe(anon)) found.push(`${scheme} ${p.path} (signed out): ${v}`);
        }
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 600_000);

  it('no page was refused anything by the Content-Security-Policy or threw', () => {
    expect(problems).toEqual([]);
  });
});
