// The built console served by the API: its page at / and at every deep link, with a Content-Security-
// Policy that allows no inline script, while API paths keep their JSON 404; and each page's own copy of
// the page (its chunks named as modulepreload links) for a visitor with a session. Needs web/dist (npm
// install builds it).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { CONSOLE_DIST } from '../../src/platform/console/routes.ts';

describe('console files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  }, 120_000);
  afterAll(() => t?.close());

  it('serves the page at / and at deep links, with a CSP that forbids inline scripts', async () => {
    for (const url of ['/', '/scans/some-id?tab=log', '/templates/private/new', '/sign-in']) {
      const res = await t.request({ method: 'GET', url, key: null });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Every script of the page is a file: no inline code for the CSP to block.
      const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).toMatch(/src="\/assets\//);
        expect(body!.trim()).toBe('');
      }
    }
  });

  it("gives a signed-in visitor each page's copy, naming the page's chunks; others get the plain page", async () => {
    const index = readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');
    const listed = JSON.parse(readFileSync(path.join(CONSOLE_DIST, 'pages.json'), 'utf8')) as {
      path: string;
      file: string;
      signedIn: boolean;
    }[];
    // Every page of the router has its copy (the sign-in page's code is in the main bundle).
    expect(listed.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/', '/scans', '/scans/new', '/scans/$scanId', '/settings', '/assets/policies']),
    );
    const preloads = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]!);
    const cookie = 'vigil_session=anything';
    const cases: [string, RegExp][] = [
      ['/', /\/assets\/Overview-/],
      ['/scans', /\/assets\/Scans-/],
      ['/scans/', /\/assets\/Scans-/],
      ['/scans/new', /\/assets\/NewScan-/], // the fixed segment wins over /scans/$scanId
      ['/scans/0123abc?tab=log', /\/assets\/ScanDetail-/],
      ['/settings/configs/new', /\/assets\/ConfigEditor-/],
      ['/assets/policies', /\/assets\/Policies-/],
      ['/assets/0123456789abcdef0123', /\/assets\/EnumerationDetail-/],
      ['/templates/private/new', /\/assets\/TemplateEditor-/],
    ];
    for (const [url, chunk] of cases) {
      const res = await t.request({ method: 'GET', url, key: null, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(String(res.headers.vary), url).toMatch(/cookie/i);
      const links = preloads(res.body);
      expect(
        links.some((l) => chunk.test(l)),
        `${url}: ${links.join(' ')}`,
      ).toBe(true);
      // The copy is the page plus links: the same scripts, and every linked file is served.
      expect(res.body.replace(/\s*<link rel="modulepreload"[^>]*>/g, '')).toBe(
        index.replace(/\s*<link rel="modulepreload"[^>]*>/g, ''),
      );
      for (const l of links) {
        const file = await t.request({ method: 'GET', url: l, key: null });
        expect(file.statusCode, l).toBe(200);
        expect(file.headers['content-type'], l).toMatch(/javascript/);
      }
    }
    // Without a session the signed-in pages show sign-in (main bundle): the plain page, nothing extra.
    for (const url of ['/', '/scans', '/scans/new', '/settings']) {
      const res = await t.request({ method: 'GET', url, key: null });
      expect(res.body, url).toBe(index);
    }
    // The invite page needs no session: its copy either way. Unknown pages and sign-in: the plain page.
    const invite = await t.request({ method: 'GET', url: '/invite?token=x', key: null });
    expect(preloads(invite.body).some((l) => /\/assets\/Invite-/.test(l))).toBe(true);
    for (const url of ['/sign-in', '/no/such/page', '/scans/a/b/c']) {
      const res = await t.request({ method: 'GET', url, key: null, headers: { cookie } });
      expect(res.body, url).toBe(index);
    }
  });

  it('serves the built assets, and API paths keep their JSON errors', async () => {
    const js = readdirSync(path.join(CONSOLE_DIST, 'assets')).find((f) => f.endsWith('.js'))!;
    const asset = await t.request({ method: 'GET', url: `/assets/${js}`, key: null });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect(asset.body).toBe(readFileSync(path.join(CONSOLE_DIST, 'assets', js), 'utf8'));
    expect((await t.request({ method: 'GET', url: '/assets/nope.js', key: null })).statusCode).toBe(404);
    // The console's Assets pages live under the same prefix: without a file extension, the page.
    for (const url of ['/assets', '/assets/0123456789abcdef0123', '/assets/policies/abc?page=2']) {
      const res = await t.request({ method: 'GET', url, key: null });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
    }
    // No way out of the build folder: at most the page comes back, never a file of the repository.
    for (const url of ['/assets/../../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json']) {
      const res = await t.request({ method: 'GET', url, key: null });
      expect(res.body, url).not.toContain('"name": "vigil"');
    }
    const api = await t.request({ method: 'GET', url: '/v1/nope', key: null });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found', status: 404 });
    // Known API routes still need their key.
    expect((await t.request({ method: 'GET', url: '/v1/scans', key: null })).statusCode).toBe(401);
  });
});
