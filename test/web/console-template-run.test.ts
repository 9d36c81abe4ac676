// The template editor's Run, in the console: a real `vigil serve` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), Debian's Chromium and an HTTP server on 127.0.0.1 started here. The Owner
// writes a template in the editor, runs it against the server and sees the request, the response, the
// matcher that fired and the extractor's value; the server's own port is refused with the deny list's
// message; an invalid template shows the validator's errors at their lines and is not run.
import { mkdtempSync } from 'node:fs';
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
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const SLOW = { timeout: 30_000 };
const STEP = 180_000;
const TEMPLATE = `id: run-check
info:
  name: Run check
  author: vigil-e2e
  severity: low
http:
  - method: GET
    path:
      - "{{BaseURL}}/panel"
    matchers:
      - type: word
        name: panel-title
        words:
          - "Control Panel"
      - type: status
        name: is-teapot
        status:
          - 418
    extractors:
      - type: regex
        name: build
        group: 1
        regex:
          - "build ([0-9]+)"
`;

describe.each(dbKinds())('console template run on %s', (kind) => {
  let dir: string;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let target: TestServer;
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');

  const typeYaml = async (page: Page, text: string) => {
    const editor = page.locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-run-'));
    target = await startHttpServer((req, res) => {
      if (req.url === '/panel') return res.end('<title>Control Panel</title> build 4711');
      res.statusCode = 404;
      res.end('no');
    });
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(150_000);
    browser = await launchChromium();
    owner = (await newPage(browser)).page;
    watchPages([owner], browserProblems);
    await signInWithKey(owner, base, bootstrapKey, 'OWNER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [target], kind, schema, dir }), STEP);

  it(
    'runs the template being edited: the request, the response, the matcher that fired, the extractor',
    async () => {
      await owner.goto(base + '/templates/private/new');
      await owner.locator('.cm-content').waitFor(SLOW);
      await typeYaml(owner, TEMPLATE);
      await owner.getByTestId('template-valid').waitFor(SLOW);
      await owner.getByTestId('run-target').fill(target.url);
      await owner.getByTestId('run-template').click();
      await owner.getByTestId('run-summary').getByText('Matched').waitFor(SLOW);
      expect(target.requests.some((r) => r.url === '/panel')).toBe(true);
      // The request line in the collapsed list; opened, its request and response.
      const step = owner.getByTestId('run-step').first();
      expect(await step.textContent()).toContain(`GET ${target.url}/panel`);
      await step.click();
      const request = owner.getByTestId('run-request').first();
      await request.waitFor();
      expect(await request.textContent()).toContain(`GET ${target.url}/panel`);
      expect(await owner.getByTestId('run-response').first().textContent()).toContain('Control Panel');
      const matchers = owner.getByTestId('run-matcher');
      expect(await matchers.nth(0).textContent()).toMatch(/panel-title.*fired/);
      expect(await matchers.nth(1).textContent()).toMatch(/is-teapot.*did not fire/);
      expect(await owner.getByTestId('run-extractors').textContent()).toContain('build (regex): 4711');
      expect(await owner.getByTestId('run-events').textContent()).toContain(`${target.url}/panel`);
      await shot(owner, 'template-run');
      expect(await axeViolations(owner)).toEqual([]);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    "a denied target (the platform's own port) is refused with the deny list's message; an invalid template is not run",
    async () => {
      await owner.getByTestId('run-target').fill(base);
      await owner.getByTestId('run-template').click();
      const err = owner.getByTestId('run-error');
      await err.getByText('Refused: the target is on the deny list').waitFor(SLOW);
      expect(await err.textContent()).toContain('denied');

      const before = target.requests.length;
      await typeYaml(owner, TEMPLATE.replace('type: status', 'type: stat'));
      await owner.getByTestId('run-target').fill(target.url);
      await owner.getByTestId('run-template').click();
      await owner.getByTestId('run-error').getByText('The template is invalid: it was not run').waitFor(SLOW);
      expect(await owner.getByTestId('template-problems').textContent()).toMatch(/line 15: .*'stat'/);
      expect(target.requests.length).toBe(before);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
