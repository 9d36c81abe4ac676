// The agent console pages end to end: a real `vigil serve --no-worker` (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set; no worker, so only the agent can run the scan), a real `vigil agent` process on
// 127.0.0.1, a local HTTP target, and Debian's Chromium. Settings › Agents lists the agent with its state,
// tags and networks; New scan picks it (by name, with tags and mirror) and the scan runs on it (each
// finding with its agent_id); a Member sees the list without a Remove button; the Owner removes it.
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
const TEMPLATE = `id: agent-e2e
info:
  name: Agent e2e page
  author: vigil-e2e
  severity: medium
  tags: e2e
http:
  - method: GET
    path:
      - "{{BaseURL}}/inside"
    matchers:
      - type: word
        words:
          - "only the agent sees this"
`;

describe.each(dbKinds())('console agent pages on %s', (kind) => {
  let dir: string;
  let target: TestServer;
  let serve: VigilProcess;
  let agent: VigilProcess | undefined;
  let agentId = '';
  let base: string;
  let browser: Browser;
  let owner: Page;
  let member: Page;
  const browserProblems: string[] = [];
  const bootstrapKey = 'vgl_' + randomBytes(24).toString('base64url');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const shot = screenshotter(kind === 'pglite');
  const apiCall = apiCaller(() => base, bootstrapKey);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-console-agents-'));
    const catalogue = path.join(dir, 'catalogue');
    mkdirSync(path.join(catalogue, 'http/e2e'), { recursive: true });
    writeFileSync(path.join(catalogue, 'http/e2e/agent-e2e.yaml'), TEMPLATE);
    target = await startHttpServer((req, res) => {
      res.end(req.url === '/inside' ? 'only the agent sees this' : 'nothing');
    });
    serve = spawnVigil(['serve', '--port', '0', '--no-worker'], {
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
    agent = spawnVigil(['agent', '--server', base, '--key', bootstrapKey, '--name', 'lab-agent', '--tags', 'lab,red'], {
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
    });
    agentId = (await agent.waitFor(/agent \S+ \((agt_[0-9a-f]+)\) of team/, 120_000))[1]!;
    await agent.waitFor(/agent ready/, 60_000);

    await addMember(base, bootstrapKey, 'member@example.com', MEMBER_PASSWORD);
    browser = await launchChromium();
    const viewport = { width: 1360, height: 900 };
    owner = (await newPage(browser, viewport)).page;
    member = (await newPage(browser, viewport)).page;
    watchPages([owner, member], browserProblems);
    await signInWithKey(owner, base, bootstrapKey, 'OWNER');
    await signInWithPassword(member, base, 'member@example.com', MEMBER_PASSWORD, 'MEMBER');
  }, 300_000);

  afterAll(async () => {
    await agent?.kill();
    await endConsoleRun({ browser, serve, targets: [target], kind, schema, dir });
  }, STEP);

  it(
    'Settings › Agents lists the agent online with its tags; New scan sends a scan to it and it runs there',
    async () => {
      await owner.goto(base + '/settings/agents');
      const table = owner.getByTestId('agents-table');
      await table.waitFor(SLOW);
      const row = table.locator('tbody tr').filter({ hasText: 'lab-agent' });
      await row.getByText('online').waitFor(SLOW);
      expect(await row.textContent()).toContain(agentId);
      expect(await row.locator('.mantine-Badge-root').allTextContents()).toEqual(['online', 'lab', 'red']);
      expect(await row.getByRole('button', { name: 'Remove' }).count()).toBe(1);
      expect(await axeViolations(owner)).toEqual([]);
      await shot(owner, 'agents');

      await owner.goto(base + '/scans/new');
      await owner.getByLabel('Name').fill('Agent scan');
      await owner.getByLabel(/^Targets/).fill(target.url);
      await owner.getByLabel('search templates to add').fill('agent-e2e');
      await owner.getByTestId('template-pick').getByRole('button', { name: 'Add' }).first().click();
      const where = owner.getByTestId('scan-agents');
      await where.getByLabel('Agent', { exact: true }).click();
      await owner.getByRole('option', { name: 'lab-agent' }).click();
      await where.getByLabel('Agent tags (agents having all of them)').fill('lab');
      await owner.keyboard.press('Enter');
      await where.getByText('Mirror').click();
      expect(await axeViolations(owner)).toEqual([]);
      await owner.getByTestId('create-scan').click();
      await owner.waitForURL((u) => /^\/scans\/[^/]+$/.test(u.pathname) && u.pathname !== '/scans/new');
      const scanId = owner.url().split('/').pop()!.split('?')[0]!;
      const stored = (await apiCall('GET', `/v1/scans/${scanId}/config`)).json;
      expect(stored).toMatchObject({ agent_id: agentId, agent_tags: ['lab'], agent_behavior: 'mirror' });
      // No worker runs here: the finding can only come from the agent, and says so.
      await owner.getByTestId('scan-status').filter({ hasText: 'finished' }).waitFor({ timeout: 150_000 });
      const results = (await apiCall('GET', `/v1/scans/results?scan_id=${scanId}`)).json.data;
      expect(results.map((r: { template_id: string; agent_id: string }) => [r.template_id, r.agent_id])).toEqual([
        ['agent-e2e', agentId],
      ]);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );

  it(
    'a Member sees the agents but no Remove; the Owner removes the agent and the list says there is none',
    async () => {
      await member.goto(base + '/settings/agents');
      const table = member.getByTestId('agents-table');
      await table.locator('tbody tr').filter({ hasText: 'lab-agent' }).waitFor(SLOW);
      expect(await member.getByRole('button', { name: 'Remove' }).count()).toBe(0);

      await owner.goto(base + '/settings/agents');
      owner.once('dialog', (d) => void d.accept());
      await owner.getByTestId('agents-table').getByRole('button', { name: 'Remove' }).click();
      await owner.getByText('No agent registered yet').waitFor(SLOW);
      await waitFor(async () => (await apiCall('GET', '/v1/agents')).json.agents.length === 0, 20_000);
      expect(browserProblems).toEqual([]);
    },
    STEP,
  );
});
