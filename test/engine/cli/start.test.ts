// How `vigil scan` starts from the build (bin/vigil.mjs): the CommonJS bundle dist/cli/scan.cjs compiled
// with a V8 code cache beside it. The cache is made by a first run, used by later ones, and a cache V8
// refuses is replaced; scans give the same results whichever way they start, and what the bundle loads
// on demand (the SOCKS client, through import()) still loads.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, startHttpsServer, startSocks5, type TestServer } from '../../helpers/targets.ts';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

// A copy of the build of its own (bin/, dist/, an empty src/ older than it), made in beforeAll, so that
// no other test's scan makes or uses this cache meanwhile.
let install = '';
const cacheFile = () => path.join(install, 'dist/cli/scan.cjs.cache');

function copyBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-install-'));
  cpSync(path.join(repo, 'bin'), path.join(dir, 'bin'), { recursive: true });
  mkdirSync(path.join(dir, 'src'));
  cpSync(path.join(repo, 'dist'), path.join(dir, 'dist'), { recursive: true });
  rmSync(path.join(dir, 'dist/cli/scan.cjs.cache'), { force: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

function vigil(
  args: string[],
  env: Record<string, string> = {},
  root = install,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/vigil.mjs'), 'scan', ...args],
      {
        cwd: root,
        timeout: 60_000,
        env: { ...process.env, VIGIL_DEBUG_START: '1', ...env },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const cacheState = (stderr: string) => /vigil: code cache (\w+)/.exec(stderr)?.[1];

// The repository's own build must be current for the copy to test today's code: with sources edited
// since `npm run build`, bin/vigil.mjs runs them through tsx, and these tests are skipped.
const fromBuild = cacheState((await vigil(['--help'], {}, repo)).stderr) !== undefined;
if (!fromBuild)
  console.warn('start.test: dist/ is older than src/ (run `npm run build`); the code-cache tests are skipped');

describe.skipIf(!fromBuild)('vigil scan from the build', { timeout: 120_000 }, () => {
  let server: TestServer;
  let tmp: string;
  let template: string;
  beforeAll(async () => {
    install = copyBuild();
    server = await startHttpServer((q, res) => res.end(q.url === '/admin' ? '<title>Admin</title>' : 'nothing'));
    tmp = mkdtempSync(path.join(tmpdir(), 'vigil-start-'));
    template = path.join(tmp, 'admin.yaml');
    writeFileSync(
      template,
      `id: admin\ninfo: { name: admin, author: vigil, severity: low }\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/{{p}}']\n    payloads:\n      p: [a, admin, b]\n    matchers:\n      - type: word\n        words: ['<title>Admin</title>']\n`,
    );
  });
  afterAll(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
    rmSync(install, { recursive: true, force: true });
  });

  it("keeps no cache from a scan that lowered V8's tiering budget (other starts would refuse it), and such a scan uses one made by another", async () => {
    const heavy = path.join(tmp, 'heavy.yaml');
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(', ');
    writeFileSync(
      heavy,
      `id: heavy\ninfo: { name: heavy, author: vigil, severity: low }\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/{{p}}']\n    payloads:\n      p: [${words}, admin]\n    matchers:\n      - type: word\n        words: ['<title>Admin</title>']\n`,
    );
    const first = await vigil(['-u', server.url, '-t', heavy, '-rl', '0']);
    expect(cacheState(first.stderr)).toBe('absent');
    expect(first.stdout.trim()).toBe(`[heavy] [http] [low] ${server.url}/admin`);
    expect(existsSync(cacheFile())).toBe(false);
    // A light scan makes it; the heavy one then uses it and leaves it as it is.
    await vigil(['-u', server.url, '-t', template]);
    const made = statSync(cacheFile()).mtimeMs;
    const again = await vigil(['-u', server.url, '-t', heavy, '-rl', '0']);
    expect(cacheState(again.stderr)).toBe('used');
    expect(again.stdout).toBe(first.stdout);
    expect(statSync(cacheFile()).mtimeMs).toBe(made);
    rmSync(cacheFile());
  });

  it('makes the cache on a first run and uses it afterwards, with the same results', async () => {
    const first = await vigil(['-u', server.url, '-t', template, '-j']);
    expect(first.code).toBe(0);
    expect(cacheState(first.stderr)).toBe('absent');
    expect(existsSync(cacheFile())).toBe(true);
    const second = await vigil(['-u', server.url, '-t', template, '-j']);
    expect(cacheState(second.stderr)).toBe('used');
    expect(second.code).toBe(0);
    const matched = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)['matched-at']);
    expect(matched(first.stdout)).toEqual([`${server.url}/admin`]);
    expect(matched(second.stdout)).toEqual(matched(first.stdout));
    // From the TypeScript sources: the same finding.
    const source = await vigil(['-u', server.url, '-t', template, '-j'], { VIGIL_SOURCE: '1' }, repo);
    expect(cacheState(source.stderr)).toBeUndefined();
    expect(matched(source.stdout)).toEqual(matched(first.stdout));
  });

  it('replaces a cache V8 refuses, and scans as usual meanwhile', async () => {
    writeFileSync(cacheFile(), Buffer.from('not a code cache at all'));
    const refused = await vigil(['-u', server.url, '-t', template]);
    expect(cacheState(refused.stderr)).toBe('refused');
    expect(refused.stdout.trim()).toBe(`[admin] [http] [low] ${server.url}/admin`);
    expect(statSync(cacheFile()).size).toBeGreaterThan(1000);
    const after = await vigil(['-u', server.url, '-t', template]);
    expect(cacheState(after.stderr)).toBe('used');
    expect(after.stdout).toBe(refused.stdout);
  });

  it('runs a flow with JavaScript statements from the bundle and from the sources (sandbox thread and QuickJS found)', async () => {
    const flow = path.join(tmp, 'js-flow.yaml');
    writeFileSync(
      flow,
      `id: js-flow\ninfo: { name: js flow, author: vigil, severity: low }\nflow: |\n  for (const p of iterate("a", "admin")) { set("p", p); http(1); }\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/{{p}}']\n    matchers:\n      - type: word\n        words: ['<title>Admin</title>']\n`,
    );
    const bundled = await vigil(['-u', server.url, '-t', flow]);
    expect(cacheState(bundled.stderr)).toBeDefined();
    expect(bundled.stdout.trim()).toBe(`[js-flow] [http] [low] ${server.url}/admin`);
    const source = await vigil(['-u', server.url, '-t', flow], { VIGIL_SOURCE: '1' }, repo);
    expect(source.stdout).toBe(bundled.stdout);
  });

  it('loads the built-ins an http scan does not use only when used: no tls, child_process, dgram or dns at a plain http scan; tls for https', async () => {
    // A preload that writes, at exit, the public built-in modules loaded after it.
    const preload = path.join(tmp, 'modules.cjs');
    writeFileSync(
      preload,
      `const before = new Set(process.moduleLoadList);\nprocess.on('exit', () => process.stderr.write('MODULES ' + process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13)).join(' ') + '\\n'));\n`,
    );
    const loaded = (stderr: string) => new Set(/MODULES (.*)/.exec(stderr)?.[1]?.split(' ') ?? []);
    const plain = await vigil(['-u', server.url, '-t', template], { NODE_OPTIONS: `--require ${preload}` });
    expect(plain.stdout.trim()).toBe(`[admin] [http] [low] ${server.url}/admin`);
    const modules = loaded(plain.stderr);
    expect(modules.has('net')).toBe(true); // the preload saw the scan's modules
    for (const m of ['tls', 'child_process', 'dgram', 'dns/promises']) expect(modules.has(m), m).toBe(false);

    const secure = await startHttpsServer((q, res) => res.end(q.url === '/admin' ? '<title>Admin</title>' : 'nothing'));
    try {
      const r = await vigil(['-u', secure.url, '-t', template], { NODE_OPTIONS: `--require ${preload}` });
      expect(r.stdout.trim()).toBe(`[admin] [http] [low] ${secure.url}/admin`);
      expect(loaded(r.stderr).has('tls')).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('loads what the bundle imports on demand: a scan through a SOCKS5 proxy', async () => {
    const proxy = await startSocks5();
    try {
      const r = await vigil(['-u', server.url, '-t', template, '--proxy', `socks5://127.0.0.1:${proxy.port}`]);
      expect(r.stderr).not.toMatch(/ERR_|TypeError/);
      expect(r.stdout.trim()).toBe(`[admin] [http] [low] ${server.url}/admin`);
      expect(proxy.seen).toContain(new URL(server.url).host);
    } finally {
      await proxy.close();
    }
  });
});
