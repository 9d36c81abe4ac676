// New scan's "Add profile …" end to end: a real `vigil serve --no-worker` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set) whose catalogue is a real subset of the corpus (every profiles/*.yml, the takeover
// templates and the CVE templates of 2021), and Debian's Chromium. The menu lists the profiles with their
// template counts (a profile selecting nothing here is disabled); picking one adds exactly the paths the API
// resolves it to, and the scan created stores them. No worker runs: the scan sends no traffic.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  axeViolations,
  endConsoleRun,
  launchChromium,
  newPage,
  screenshotter,
  signInWithKey,
  watchPages,
} from '../helpers/browser.ts';
import { dbKinds } from '../helpers/db.ts';
import { hasShared, sharedDir } from '../helpers/shared.ts';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';

const SLOW = { timeout: 30_000 };
const STEP = 180_000;
const corpus = path.join(sharedDir, 'corpus/nuclei-templates');

describe.skipIf(!hasShared('corpus/nuclei-templates/profiles')).each(dbKinds())(
  'console scan profiles on %s',
  (kind) => {
    let dir: string;
    let serve: VigilProcess;
    let base: string;
    let browser: Browser;
    let owner: Page;
    const browserProblems: string[] = [];
    const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const shot = screenshotter(kind === 'pglite');
    const apiCall = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { 'x-api-key': bootstrapKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json()) as any };
    };

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-profiles-'));
      const catalogue = path.join(dir, 'catalogue');
      for (const p of ['profiles', 'http/takeovers', 'http/cves/2021'])
        cpSync(path.join(corpus, p), path.join(catalogue, p), { recursive: true });
      serve = spawnVigil(['serve', '--port', '0', '--no-worker'], {
        VIGIL_DATA_DIR: dir,
        VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
        VIGIL_TEMPLATES_DIR: catalogue,
        VIGIL_SHUTDOWN_TIMEOUT: '5',
        ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
      });
      base = await serve.listening(150_000);
      await serve.waitFor(/template catalogue imported/, 150_000);
      browser = await launchChromium();
      owner = (await newPage(browser, { width: 1360, height: 900 })).page;
      watchPages([owner], browserProblems);
      await signInWithKey(owner, base, bootstrapKey, 'OWNER');
    }, 300_000);

    afterAll(async () => {
      await endConsoleRun({ browser, serve, targets: [], kind, schema, dir });
    }, STEP);

    it(
      'Add profile … lists the profiles with their counts and adds what one selects; the scan keeps those templates',
      async () => {
        const resolved = (await apiCall('GET', '/v1/template/profiles/subdomain-takeovers')).json;
        expect(resolved.templates.length).toBeGreaterThan(50);
        expect(resolved.templates.every((u: string) => u.startsWith('http/takeovers/'))).toBe(true);

        await owner.goto(base + '/scans/new');
        await owner.getByLabel('Name').fill('Takeover profile scan');
        await owner.getByLabel(/^Targets/).fill('http://127.0.0.1:9/');
        const select = owner.getByLabel('Add profile');
        const takeovers = select.locator('option[value="subdomain-takeovers"]');
        await takeovers.waitFor({ state: 'attached', ...SLOW });
        expect(await takeovers.textContent()).toBe(`subdomain-takeovers (${resolved.templates.length} templates)`);
        expect(await takeovers.getAttribute('title')).toMatch(/subdomain takeover/i);
        // The cloud profiles select only code templates, none of which are in this catalogue: not pickable.
        expect(await select.locator('option[value="aws-cloud-config"]').isDisabled()).toBe(true);
        expect(await select.locator('option[value]:not([value=""])').count()).toBe(
          (await apiCall('GET', '/v1/template/profiles')).json.count,
        );
        expect(await axeViolations(owner)).toEqual([]);
        await shot(owner, 'new-scan-profiles');
        await select.selectOption('subdomain-takeovers');

        await owner
          .getByTestId('profile-note')
          .filter({ hasText: `Added profile subdomain-takeovers: ${resolved.templates.length} templates` })
          .waitFor(SLOW);
        expect(await owner.getByTestId('picked-count').textContent()).toBe(`${resolved.templates.length} picked`);

        await owner.getByTestId('create-scan').click();
        await owner.waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname) && u.pathname !== '/scans/new');
        const scanId = owner.url().split('/').pop()!.split('?')[0]!;
        const stored = (await apiCall('GET', `/v1/scans/${scanId}/config`)).json;
        expect([...stored.public_templates].sort()).toEqual([...resolved.templates].sort());
        expect(browserProblems).toEqual([]);
      },
      STEP,
    );
  },
);
