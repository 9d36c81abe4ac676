// A template shared by link, in the console: a real `vigil serve` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set) and Debian's Chromium. The link (/templates/shared#<token>) opens the template
// read-only for a Member (no copy action, an editor that cannot be typed into); the Owner copies it to the
// team's templates and lands in the editor with its own copy; a revoked or wrong token shows the server's
// error.
import { mkdtempSync } from 'node:fs';
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
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';

const MEMBER_PASSWORD = 'member password 8910';
const SLOW = { timeout: 30_000 };
const STEP = 180_000;
const TEMPLATE = `id: shared-check
info:
  name: Shared check
  author: vigil-e2e
  severity: medium
http:
  - method: GET
    path:
      - "{{BaseURL}}/shared"
    matchers:
      - type: status
        status:
          - 200
`;

describe.each(dbKinds())('console shared template on %s', (kind) => {
  let dir: string;
  let serve: VigilProcess;
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  let link = '';
  let templateId = '';
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const apiCall = apiCaller(() => base, bootstrapKey);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-share-'));
    serve = spawnVigil(['serve', '--port', '0'], {
      VIGIL_DATA_DIR: dir,
      VIGIL_BOOTSTRAP_API_KEY: bootstrapKey,
      VIGIL_SHUTDOWN_TIMEOUT: '5',
      ...(kind === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, VIGIL_DB_SCHEMA: schema } : {}),
    });
    base = await serve.listening(150_000);
    const created = await apiCall('POST', '/v1/template', { template: TEMPLATE, filename: 'shared-check.yaml' });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    templateId = created.json.template_id;
    const shared = await apiCall('POST', '/v1/template/share', { template_id: templateId, ttl: '2d' });
    expect(shared.status, JSON.stringify(shared.json)).toBe(200);
    link = `${base}/templates/shared#${shared.json.result.share_token}`;

    await addMember(base, bootstrapKey, 'member@example.com', MEMBER_PASSWORD);
    browser = await launchChromium();
    owner = (await newPage(browser)).page;
    member = (await newPage(browser)).page;
    watchPages([owner, member], browserProblems);
    await signInWithKey(owner, base, bootstrapKey, 'OWNER');
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 300_000);

  afterAll(() => endConsoleRun({ browser, serve, targets: [], kind, schema, dir }), STEP);

  it(
    'a Member reads the shared template read-only, with no copy action',
    async () => {
      await member.goto(link);
      await member.getByRole('heading', { name: 'Shared check' }).waitFor(SLOW);
      await member.getByText('read-only').waitFor();
      const editor = member.locator('.cm-content');
      await editor.waitFor();
      await editor.click();
      await member.keyboard.type('typed');
      expect(await editor.textContent()).not.toContain('typed');
      expect(await editor.textContent()).toContain('id: shared-check');
      expect(await member.getByRole('button', { name: 'Copy to my templates' }).count()).toBe(0);
      expect(await axeViolations(member)).toEqual([]);
      await shot(member, 'template-shared');
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    "the Owner copies it to the team's templates and edits the copy; a wrong token shows the server's error",
    async () => {
      await owner.goto(link);
      await owner.getByRole('button', { name: 'Copy to my templates' }).click();
      await owner.waitForURL((u) => /^\/templates\/private\/[^/]+$/.test(u.pathname));
      const copyId = owner.url().split('/').pop()!;
      expect(copyId).not.toBe(templateId);
      const mine = (await apiCall('GET', `/v1/template/${copyId}`)).json;
      expect(JSON.stringify(mine)).toContain('shared-check');
      await owner.locator('.cm-content').filter({ hasText: 'id: shared-check' }).waitFor(SLOW);

      await owner.goto(`${base}/templates/shared#not-a-token`);
      await owner.getByText('The link does not open a template').waitFor(SLOW);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
