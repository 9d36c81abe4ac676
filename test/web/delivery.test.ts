// How the console reaches the browser: the build's brotli and gzip copies sent to whoever asks for them
// (the file itself otherwise), one cached answer per encoding (Vary), hashed files cached for a year and
// the page itself revalidated; and a budget on what a cold first page actually transfers in Chromium
// (under 250 KB for the sign-in page and for the overview after signing in). Real HTTP on 127.0.0.1
// against the built console (web/dist; npm install builds it).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { launchChromium, loadCold, newPage, signInWithKey } from '../helpers/browser.ts';
import { CONSOLE_DIST } from '../../src/platform/console/routes.ts';

const FIRST_PAGE_BUDGET = 250 * 1024;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, urlPath: string, acceptEncoding?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    http
      .get(base + urlPath, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decoded(a: Answer): Buffer {
  const enc = a.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(a.body);
  if (enc === 'gzip') return gunzipSync(a.body);
  expect(enc).toBeUndefined();
  return a.body;
}

describe('console delivery', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const assets = () => readdirSync(path.join(CONSOLE_DIST, 'assets'));
  /** The largest script and the stylesheet: what matters most on the wire. */
  const bigFiles = () => {
    const js = assets().filter((f) => f.endsWith('.js'));
    js.sort(
      (a, b) =>
        readFileSync(path.join(CONSOLE_DIST, 'assets', b)).length -
        readFileSync(path.join(CONSOLE_DIST, 'assets', a)).length,
    );
    return [js[0]!, assets().find((f) => f.endsWith('.css'))!].map((f) => `assets/${f}`);
  };

  it('the build wrote a brotli and a gzip copy of each script, stylesheet and the page', () => {
    for (const f of [
      ...assets()
        .filter((n) => /\.(js|css)$/.test(n))
        .map((n) => `assets/${n}`),
      'index.html',
    ]) {
      const raw = readFileSync(path.join(CONSOLE_DIST, f));
      const br = path.join(CONSOLE_DIST, `${f}.br`);
      const gz = path.join(CONSOLE_DIST, `${f}.gz`);
      // Copies are skipped only where they would not be smaller (a few tiny files).
      if (raw.length > 1024) {
        expect(existsSync(br), f).toBe(true);
        expect(existsSync(gz), f).toBe(true);
      }
      if (existsSync(br)) expect(brotliDecompressSync(readFileSync(br)).equals(raw), f).toBe(true);
      if (existsSync(gz)) expect(gunzipSync(readFileSync(gz)).equals(raw), f).toBe(true);
    }
  });

  it('sends br to whoever asks for br, gzip for gzip, the file itself otherwise; the same bytes once decoded', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['br', 'br'],
      ['gzip, deflate, br, zstd', 'br'], // Chromium's header
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const f of [...bigFiles(), 'index.html']) {
      const raw = readFileSync(path.join(CONSOLE_DIST, f));
      for (const [ask, expected] of cases) {
        const a = await get(base, f === 'index.html' ? '/' : `/${f}`, ask);
        const label = `${f} asked ${ask ?? '(nothing)'}`;
        expect(a.status, label).toBe(200);
        expect(a.headers['content-encoding'], label).toBe(expected);
        expect(String(a.headers.vary), label).toMatch(/accept-encoding/i);
        expect(a.headers['content-type'], label).toMatch(
          f.endsWith('.js') ? /javascript/ : f.endsWith('.css') ? /text\/css/ : /text\/html/,
        );
        expect(Number(a.headers['content-length']), label).toBe(a.body.length);
        if (expected) expect(a.body.length, label).toBeLessThan(f === 'index.html' ? raw.length : raw.length / 2);
        expect(decoded(a).equals(raw), label).toBe(true);
        // The security headers stay on every encoding.
        expect(a.headers['x-content-type-options'], label).toBe('nosniff');
        expect(a.headers['content-security-policy'], label).toMatch(/script-src 'self'/);
      }
    }
  });

  it('caches hashed files for a year, and revalidates the page at / and at every deep link', async () => {
    for (const f of bigFiles()) {
      for (const ask of ['br', 'gzip', undefined]) {
        const a = await get(base, `/${f}`, ask);
        expect(a.headers['cache-control'], f).toBe('public, max-age=31536000, immutable');
      }
    }
    for (const url of ['/', '/sign-in', '/scans/abc?tab=log', '/assets/0123456789abcdef0123']) {
      for (const ask of ['br', 'gzip', undefined]) {
        const a = await get(base, url, ask);
        expect(a.status, url).toBe(200);
        expect(a.headers['content-type'], url).toMatch(/text\/html/);
        expect(a.headers['cache-control'], url).toBe('no-cache');
        expect(decoded(a).equals(readFileSync(path.join(CONSOLE_DIST, 'index.html'))), url).toBe(true);
      }
    }
  });

  it('never serves the compressed copies by their own names', async () => {
    const [js] = bigFiles();
    for (const url of [`/${js}.br`, `/${js}.gz`]) expect((await get(base, url, 'br, gzip')).status, url).toBe(404);
    // Outside assets/ such a name is just another page path: the page comes back, not the copy's bytes.
    const page = readFileSync(path.join(CONSOLE_DIST, 'index.html'));
    for (const url of ['/index.html.br', '/index.html.gz']) {
      const a = await get(base, url, 'br, gzip');
      expect(a.headers['content-type'], url).toMatch(/text\/html/);
      expect(decoded(a).equals(page), url).toBe(true);
    }
    // Asking for a compressed answer opens no way out of the build folder either.
    for (const url of [
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      for (const ask of ['br', 'gzip']) {
        const a = await get(base, url, ask);
        const body = a.status === 200 ? decoded(a).toString() : a.body.toString();
        expect(body, url).not.toContain('"name": "vigil"');
      }
    }
  });

  it('a cold first page transfers under 250 KB: the sign-in page, and the overview once signed in', async () => {
    browser = await launchChromium();
    const signIn = await loadCold(browser, base + '/', (p) =>
      p.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor(),
    );
    // Every script and stylesheet came compressed.
    for (const r of signIn.responses.filter((x) => /\.(js|css)$/.test(x.url))) expect(r.encoding, r.url).toBe('br');
    expect(signIn.bytes, JSON.stringify(signIn.responses)).toBeLessThan(FIRST_PAGE_BUDGET);

    const { context, page } = await newPage(browser);
    await signInWithKey(page, base, t.owner.key, 'OWNER');
    const state = await context.storageState();
    await context.close();
    const overview = await loadCold(browser, base + '/', (p) => p.getByTestId('severity-card').waitFor(), state);
    expect(overview.responses.some((r) => /\/assets\/Overview-/.test(r.url))).toBe(true);
    expect(overview.bytes, JSON.stringify(overview.responses)).toBeLessThan(FIRST_PAGE_BUDGET);
    // The editor (CodeMirror, its own chunk) loads only with the pages that use it.
    for (const load of [signIn, overview])
      expect(load.responses.filter((r) => /\/assets\/YamlEditor-/.test(r.url))).toEqual([]);
    const editor = await loadCold(
      browser,
      base + '/templates/private/new',
      (p) => p.locator('.cm-editor').waitFor(),
      state,
    );
    expect(editor.responses.some((r) => /\/assets\/YamlEditor-/.test(r.url))).toBe(true);

    // A signed-in deep link asks for its page's chunks with the main bundle (named in the page it got),
    // not in a second wave after the main bundle has run and the session has come back; the session is
    // asked for once, by the boot script (before the main bundle runs), and that answer is the one used.
    const watched = async (url: string, ready: (p: Page) => Promise<unknown>, team?: string) => {
      const ctx = await browser!.newContext({ storageState: state });
      try {
        if (team) await ctx.addInitScript((id) => localStorage.setItem('vigil.team', id), team);
        const p = await ctx.newPage();
        const cdp = await ctx.newCDPSession(p);
        const asked: { path: string; by: string }[] = [];
        cdp.on('Network.requestWillBeSent', (e) =>
          asked.push({ path: new URL(e.request.url).pathname, by: e.initiator.stack?.callFrames[0]?.url ?? '' }),
        );
        await cdp.send('Network.enable');
        await p.goto(base + url);
        await ready(p);
        await p.waitForLoadState('networkidle');
        return {
          asked,
          page: p,
          role: await p
            .getByTestId('me-role')
            .textContent()
            .catch(() => null),
        };
      } finally {
        await ctx.close();
      }
    };
    const settings = await watched('/settings', (p) =>
      p.getByRole('heading', { name: 'Settings', exact: true }).waitFor(),
    );
    const paths = settings.asked.map((a) => a.path);
    const chunk = paths.findIndex((u) => /^\/assets\/Settings-/.test(u));
    const sessions = settings.asked.filter((a) => a.path === '/v1/auth/session');
    expect(chunk, paths.join(' ')).toBeGreaterThan(0);
    expect(chunk, paths.join(' ')).toBeLessThan(paths.indexOf('/v1/auth/session'));
    expect(sessions.length, paths.join(' ')).toBe(1);
    expect(sessions[0]!.by).toMatch(/\/assets\/boot-[\w-]+\.js$/);
    expect(settings.role).toBe('OWNER');
    // A remembered team the user is not in: the early answer (403) is taken, then the default team's.
    const stale = await watched(
      '/settings',
      (p) => p.getByTestId('me-role').filter({ hasText: 'OWNER' }).waitFor(),
      'no-such-team',
    );
    expect(stale.asked.filter((a) => a.path === '/v1/auth/session').length).toBe(2);
    // The sign-in page asks for no session at all.
    const signInPage = await loadCold(browser, base + '/sign-in', (p) =>
      p.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor(),
    );
    expect(signInPage.responses.filter((r) => r.url.includes('/v1/auth/session'))).toEqual([]);
  }, 180_000);
});
