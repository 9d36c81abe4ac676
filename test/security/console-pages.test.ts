// The console's per-page copies (src/platform/console/routes.ts): the copy is chosen from the address,
// which is never written into the answer; the list of copies (web/dist/pages.json) can name nothing but a
// file under pages/ (a doctored list is ignored, not followed out of the build folder); odd addresses get
// the plain page or a copy, never a file of the repository or a server error.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { CONSOLE_DIST, loadPageCopies, pageFile } from '../../src/platform/console/routes.ts';

describe('console page copies under attack', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-pages-'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never reflects the address into the page', async () => {
    const cookie = 'vigil_session=x';
    for (const url of [
      '/scans/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '/scans/"><img src=x onerror=alert(1)>',
      '/assets/%3Csvg%20onload%3Dalert(1)%3E',
      '/findings/<script>alert(1)</script>?x=<script>',
    ]) {
      const res = await t.request({ method: 'GET', url, key: null, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toMatch(/alert\(1\)|onerror|onload|<svg|<img/);
      // Every script and preload comes from the build's own files.
      for (const m of res.body.matchAll(/(?:src|href)="([^"]+)"/g))
        expect(m[1], url).toMatch(/^\/(assets\/[\w.-]+|favicon\.svg)$/);
    }
  });

  it('odd addresses get a page, never a repository file or a server error', async () => {
    for (const url of [
      '/pages/../../package.json',
      '/pages%2f..%2f..%2fpackage.json',
      '/scans/..%2f..%2fpackage.json',
      '/pages.json',
      '/pages/scans.html',
      '/' + 'a/'.repeat(2000),
      '/scans/' + '%'.repeat(10),
    ]) {
      const res = await t.request({ method: 'GET', url, key: null, headers: { cookie: 'vigil_session=x' } });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('"name": "vigil"');
      expect(res.body, url).not.toContain('"signedIn"');
    }
  });

  it('a doctored list of copies names nothing outside pages/', () => {
    mkdirSync(path.join(dir, 'pages'), { recursive: true });
    writeFileSync(path.join(dir, 'pages', 'ok.html'), '<html></html>');
    writeFileSync(
      path.join(dir, 'pages.json'),
      JSON.stringify([
        { path: '/a', file: '../package.json', signedIn: false },
        { path: '/b', file: '/etc/passwd', signedIn: false },
        { path: '/c', file: 'pages/../../x.html', signedIn: false },
        { path: '/d', file: 'pages/missing.html', signedIn: false },
        { path: '/e/(.*)', file: 'pages/ok.html', signedIn: false },
        { path: 42, file: 'pages/ok.html' },
        { path: '/ok/$id', file: 'pages/ok.html', signedIn: true },
      ]),
    );
    const copies = loadPageCopies(dir);
    for (const p of ['/a', '/b', '/c', '/d', '/e/anything']) expect(pageFile(copies, p, true), p).toBe('index.html');
    // A pattern's punctuation is literal: '/e/(.*)' matches only itself.
    expect(pageFile(copies, '/e/(.*)', true)).toBe('pages/ok.html');
    expect(pageFile(copies, '/ok/123', true)).toBe('pages/ok.html');
    expect(pageFile(copies, '/ok/123', false)).toBe('index.html');
    // No list, or one that is not JSON: every address gets the plain page.
    writeFileSync(path.join(dir, 'pages.json'), '{not json');
    expect(loadPageCopies(dir)).toEqual([]);
    expect(loadPageCopies(path.join(dir, 'nowhere'))).toEqual([]);
    // The real build's list passes the same checks.
    const real = JSON.parse(readFileSync(path.join(CONSOLE_DIST, 'pages.json'), 'utf8')) as unknown[];
    expect(loadPageCopies(CONSOLE_DIST).length).toBe(real.length);
  });
});
