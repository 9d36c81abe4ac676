// The console as a first-time visitor gets it: a real `vigil serve` on PGlite in a temporary data folder,
// an owner signed in (API key), and Debian's Chromium loading each page cold (a fresh context: empty cache,
// only the session cookie). For each page it prints the bytes transferred (CDP encodedDataLength over every
// response: page, scripts, styles, API answers), the same load without compression (the browser asks for
// identity; the baseline in the same run), and the time until the page's first meaningful element is
// visible. Goals (issue 28): the first page under 250 KB transferred, every page's content under 1 s.
// `npm run bench:console` (needs web/dist, built by npm install, and /usr/bin/chromium).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, loadCold, newPage, signInWithKey } from '../test/helpers/browser.ts';
import { spawnVigil } from '../test/helpers/process.ts';
import { figures } from './figures.ts';

const FIRST_PAGE_KB = 250;
const CONTENT_MS = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const heading = (name: string) => (p: Page) => p.getByRole('heading', { name, exact: true }).waitFor();

/** Each page, its address and what shows it has arrived (the editor pages: the editor itself). */
const PAGES: { name: string; url: string; content: (p: Page) => Promise<unknown>; signedIn: boolean }[] = [
  { name: 'sign-in (first page)', url: '/', content: heading('Sign in to Vigil'), signedIn: false },
  {
    name: 'overview (first page signed in)',
    url: '/',
    content: (p) => p.getByTestId('severity-card').waitFor(),
    signedIn: true,
  },
  { name: 'scans', url: '/scans', content: heading('Scans'), signedIn: true },
  { name: 'new scan', url: '/scans/new', content: heading('New scan'), signedIn: true },
  { name: 'findings', url: '/findings', content: heading('Findings'), signedIn: true },
  { name: 'templates', url: '/templates', content: heading('Templates'), signedIn: true },
  {
    name: 'template editor',
    url: '/templates/private/new',
    content: (p) => p.locator('.cm-editor').waitFor(),
    signedIn: true,
  },
  { name: 'vulnerabilities', url: '/vulnerabilities', content: heading('Vulnerabilities'), signedIn: true },
  { name: 'assets', url: '/assets', content: heading('Assets'), signedIn: true },
  { name: 'asset policies', url: '/assets/policies', content: heading('Assets'), signedIn: true },
  { name: 'settings', url: '/settings', content: heading('Settings'), signedIn: true },
  { name: 'configurations', url: '/settings/configs', content: heading('Configurations'), signedIn: true },
  {
    name: 'configuration editor',
    url: '/settings/configs/new',
    content: (p) => p.locator('.cm-editor').waitFor(),
    signedIn: true,
  },
  { name: 'schedules', url: '/settings/schedules', content: heading('Schedules'), signedIn: true },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-console-'));
  const key = `vigil_bench_${randomBytes(16).toString('hex')}`;
  const serve = spawnVigil(['serve', '--host', '127.0.0.1', '--port', '0'], {
    VIGIL_DATA_DIR: dir,
    VIGIL_BOOTSTRAP_API_KEY: key,
    VIGIL_SHUTDOWN_TIMEOUT: '5',
  });
  let browser: Browser | undefined;
  try {
    const base = await serve.listening(150_000);
    browser = await launchChromium();
    const { context, page } = await newPage(browser);
    await signInWithKey(page, base, key, 'OWNER');
    const session = await context.storageState();
    await context.close();

    // One warm-up load so the server's first answers (and Chromium's start) do not count.
    await loadCold(browser, base + '/', PAGES[1]!.content, session);

    const rows: string[][] = [];
    const out = figures('console');
    let slowest = 0;
    let firstOk = true;
    let contentOk = true;
    for (const p of PAGES) {
      const state = p.signedIn ? session : undefined;
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await loadCold(browser, base + p.url, p.content, state));
      const plain = await loadCold(browser, base + p.url, p.content, state, { 'accept-encoding': 'identity' });
      const bytes = median(runs.map((r) => r.bytes));
      const ms = median(runs.map((r) => r.ms));
      const first = p.name.includes('first page');
      if (first && bytes >= FIRST_PAGE_KB * 1024) firstOk = false;
      if (p === PAGES[0]) out.set('first_page_kb', bytes / 1024);
      slowest = Math.max(slowest, ms);
      if (ms >= CONTENT_MS) contentOk = false;
      rows.push([
        p.name,
        p.url,
        kb(bytes),
        kb(plain.bytes),
        `${(plain.bytes / bytes).toFixed(1)}x`,
        String(runs[0]!.responses.length),
        `${ms} ms`,
        `${first ? `< ${FIRST_PAGE_KB} KB, ` : ''}< ${CONTENT_MS} ms`,
      ]);
    }
    const head = ['page', 'address', 'transferred', 'uncompressed', 'saved', 'responses', 'time to content', 'goal'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) =>
      r.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
    console.log(
      `\nconsole pages loaded cold in Chromium (median of ${ROUNDS}; uncompressed: the same load asking for identity)\n`,
    );
    console.log(line(head));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of rows) console.log(line(r));
    out.set('slowest_content_ms', slowest);
    out.print();
    console.log(
      `\nfirst page under ${FIRST_PAGE_KB} KB: ${firstOk ? 'yes' : 'NO'}; every page's content under ${CONTENT_MS} ms: ${contentOk ? 'yes' : 'NO'}`,
    );
  } finally {
    await browser?.close().catch(() => {});
    await serve.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
