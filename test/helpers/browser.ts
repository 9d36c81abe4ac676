// Debian's Chromium driven by playwright-core (never a downloaded browser). Tests that need it call
// launchChromium(); without /usr/bin/chromium they fail with the install command to run.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { dropSchema } from './db.ts';
import type { VigilProcess } from './process.ts';

export const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\``);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// What the console's end-to-end tests share: screenshots, pages watched for CSP refusals and uncaught
// errors, and signing in with a key or a password.
//
// Tests never modify tracked files: screenshots go to the git-ignored .vigil-tmp/console-shots/ (handy
// when a run fails). `npm run docs:screenshots` (scripts/docs-screenshots.ts) runs these same walks with
// VIGIL_SCREENSHOTS_DIR set to docs/console, which is how the docs' images are made.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS_DIR = path.resolve(repoRoot, process.env.VIGIL_SCREENSHOTS_DIR ?? '.vigil-tmp/console-shots');

/** Takes <SHOTS_DIR>/<name>.png when `enabled` (one database's run takes them). */
export function screenshotter(enabled: boolean): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    if (!enabled) return;
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
  };
}

/** Under the server's Content-Security-Policy nothing may be refused, and no page may throw. */
export function watchPages(pages: Page[], problems: string[]): void {
  for (const p of pages) {
    p.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    p.on('pageerror', (e) => problems.push(`${e.name}: ${e.message}`));
  }
}

/** A page in a context of its own (its own cookies), with the tests' wait. */
export async function newPage(
  browser: Browser,
  viewport = { width: 1360, height: 860 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(Number(process.env.E2E_WAIT ?? 60_000));
  return { context, page: await context.newPage() };
}

/** Signs in on the sign-in page (opened unless the page is on it already, e.g. sent there with ?next=). */
export async function signInWithKey(page: Page, base: string, key: string, role: string): Promise<void> {
  if (!new URL(page.url(), base).pathname.startsWith('/sign-in')) await page.goto(base + '/sign-in');
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.locator('input[name=api_key]').fill(key);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
  await page.getByTestId('me-role').filter({ hasText: role }).waitFor();
}

export async function signInWithPassword(
  page: Page,
  base: string,
  email: string,
  password: string,
  role: string,
): Promise<void> {
  await page.goto(base + '/sign-in');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('me-role').filter({ hasText: role }).waitFor();
}

/**
 * The tests' own API calls beside the browser: `base` is read at call time (the server's address is known
 * only once it listens), the answer's JSON is returned untyped for the test to inspect.
 */
export function apiCaller(
  base: () => string,
  key: string,
): (method: string, url: string, body?: unknown) => Promise<{ status: number; json: any }> {
  return async (method, url, body) => {
    const res = await fetch(base() + url, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as any };
  };
}

/** A member with a password, made through the API (invite, then accept); the console's own invite flow is console.test.ts's. */
export async function addMember(base: string, ownerKey: string, email: string, password: string): Promise<void> {
  const invited = await fetch(base + '/v1/user/team/member', {
    method: 'POST',
    headers: { 'x-api-key': ownerKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, role: 'MEMBER' }),
  });
  if (invited.status !== 200) throw new Error(`invite failed: ${invited.status} ${await invited.text()}`);
  const accepted = await fetch(base + '/v1/user/invite/accept', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: ((await invited.json()) as { invite_token: string }).invite_token, password }),
  });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
}

/**
 * The end of a console end-to-end file: the browser, the `vigil serve` process, the target servers, the
 * PostgreSQL schema it ran in (kind 'postgres') and its data folder. Anything that never started is skipped.
 */
export async function endConsoleRun(r: {
  browser?: Browser;
  serve?: VigilProcess;
  targets: ({ close(): Promise<unknown> } | undefined)[];
  kind: string;
  schema: string;
  dir?: string;
}): Promise<void> {
  await r.browser?.close().catch(() => {});
  await r.serve?.kill();
  await Promise.all(r.targets.map((t) => t?.close().catch(() => {})));
  if (r.kind === 'postgres') await dropSchema(process.env.TEST_DATABASE_URL!, r.schema).catch(() => {});
  if (r.dir) rmSync(r.dir, { recursive: true, force: true });
}

export interface ColdLoad {
  /** Bytes on the wire (CDP Network.loadingFinished.encodedDataLength, summed over every response). */
  bytes: number;
  /** Milliseconds from navigation start until `content` resolved (the page's first meaningful element visible). */
  ms: number;
  /** Every response: its URL, bytes on the wire and Content-Encoding. */
  responses: { url: string; bytes: number; encoding: string }[];
}

/**
 * Opens `url` in a fresh context (empty cache; with the cookies of `storageState` when given), waits for
 * `content`, then for the network to go quiet (late chunks count too), and reports what was transferred.
 */
export async function loadCold(
  browser: Browser,
  url: string,
  content: (page: Page) => Promise<unknown>,
  storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
  extraHTTPHeaders?: Record<string, string>,
): Promise<ColdLoad> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, storageState, extraHTTPHeaders });
  context.setDefaultTimeout(Number(process.env.E2E_WAIT ?? 60_000));
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const seen = new Map<string, { url: string; encoding: string }>();
    const responses: ColdLoad['responses'] = [];
    cdp.on('Network.responseReceived', (e) => {
      const encoding =
        Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? '';
      seen.set(e.requestId, { url: e.response.url, encoding: String(encoding) });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = seen.get(e.requestId);
      responses.push({ url: r?.url ?? '?', encoding: r?.encoding ?? '', bytes: e.encodedDataLength });
    });
    await cdp.send('Network.enable');
    const started = Date.now();
    await page.goto(url);
    await content(page);
    const ms = Date.now() - started;
    await page.waitForLoadState('networkidle');
    return { bytes: responses.reduce((n, r) => n + r.bytes, 0), ms, responses };
  } finally {
    await context.close();
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core on the page as it is: the serious and critical violations, one line each. */
export async function axeViolations(p: Page): Promise<string[]> {
  if (!(await p.evaluate(() => 'axe' in window))) await p.evaluate(AXE_SOURCE);
  // A dialog or menu still fading in has its text at part opacity, which axe reports as low contrast: on a
  // busy machine the check could run mid-transition. Let the transitions that will end (not spinners) end.
  await p.evaluate(async () => {
    for (let frame = 0; frame < 2; frame++) await new Promise((r) => requestAnimationFrame(r));
    const ending = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
      .map((a) => a.finished.catch(() => undefined));
    await Promise.race([Promise.all(ending), new Promise((r) => setTimeout(r, 5000))]);
  });
  const violations = await p.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')})`,
    );
}
