// `vigil scan` end to end: the real CLI in a child process against a server in this process.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const testdata = path.join(root, 'test/engine/protocols/http/testdata');

function vigil(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/vigil.mjs'), 'scan', ...args],
      { cwd: root, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('vigil scan', { timeout: 120_000 }, () => {
  let server: TestServer;
  let tmp: string;
  beforeAll(async () => {
    server = await startHttpServer((q, res) =>
      res.end(q.url === '/' ? 'This is test matcher text' : `${q.headers.test ?? ''}`),
    );
    tmp = mkdtempSync(path.join(tmpdir(), 'vigil-cli-'));
  });
  afterAll(async () => server.close());

  it('prints nuclei-style plain lines and exits 0', async () => {
    const r = await vigil(['-u', server.url, '-t', path.join(testdata, 'get.yaml'), '-rl', '0', '-bs', '5', '-c', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([`[basic-get] [http] [info] ${server.url}`]);
  });

  it('prints matcher and extractor names and extracted values', async () => {
    const t = path.join(tmp, 'named.yaml');
    writeFileSync(
      t,
      `id: named\ninfo:\n  name: named\n  author: vigil\n  severity: high\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n    matchers:\n      - type: word\n        name: textfound\n        words:\n          - matcher\n    extractors:\n      - type: regex\n        regex:\n          - "test [a-z]+"\n`,
    );
    const r = await vigil(['-u', server.url, '-t', t]);
    expect(r.stdout.trim()).toBe(`[named:textfound] [http] [high] ${server.url} [test matcher]`);
  });

  it('-j writes one JSON object per result with nuclei fields, -o copies them to a file', async () => {
    const out = path.join(tmp, 'out.jsonl');
    const r = await vigil(['-u', server.url, '-t', path.join(testdata, 'get.yaml'), '-j', '-o', out]);
    expect(r.code).toBe(0);
    const ev = JSON.parse(r.stdout.trim());
    expect(ev).toMatchObject({
      'template-id': 'basic-get',
      type: 'http',
      host: server.url,
      'matched-at': server.url,
      'matcher-status': true,
      ip: '127.0.0.1',
    });
    expect(ev.info.name).toBe('Plain GET');
    expect(typeof ev.timestamp).toBe('string');
    expect(ev.request).toContain('GET / HTTP/1.1');
    expect(readFileSync(out, 'utf8')).toBe(r.stdout);
  });

  it('--ms and -ms also print templates that did not match', async () => {
    const t = path.join(testdata, 'matcher-status-and.yaml');
    expect((await vigil(['-u', server.url, '-t', t])).stdout.trim()).toBe('');
    for (const flag of ['--ms', '-ms']) {
      const r = await vigil(['-u', server.url, '-t', t, flag, '-j']);
      const ev = JSON.parse(r.stdout.trim());
      expect(ev['matcher-status']).toBe(false);
      expect(ev['template-id']).toBe('matcher-status-and');
    }
  });

  it('reads targets from -l and variables from -V / --var', async () => {
    const list = path.join(tmp, 'targets.txt');
    writeFileSync(list, `# comment\n${server.url}/a\n\n`);
    const t = path.join(tmp, 'var.yaml');
    writeFileSync(
      t,
      `id: var-echo\ninfo:\n  name: v\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n    headers:\n      test: "{{who}}"\n    matchers:\n      - type: word\n        words:\n          - from-cli\n`,
    );
    expect((await vigil(['-l', list, '-t', t, '-V', 'who=from-cli'])).stdout).toContain('[var-echo]');
    expect((await vigil(['-l', list, '-t', t, '--var', 'who=other'])).stdout.trim()).toBe('');
  });

  it('-lna refuses connections to non-public addresses, names included; without it they are scanned', async () => {
    const before = server.requests.length;
    const byName = server.url.replace('127.0.0.1', 'localhost');
    const r = await vigil(['-u', byName, '-t', path.join(testdata, 'get.yaml'), '-lna', '-ms', '-j']);
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(JSON.parse(r.stdout.trim()).error).toMatch(
      /^connection to localhost \((127\.0\.0\.1|::1)\) port \d+ refused: not a public address \(loopback\)$/,
    );
    expect((await vigil(['-u', byName, '-t', path.join(testdata, 'get.yaml')])).stdout).toContain('[basic-get]');
  });

  it('filters by --severity and --tags', async () => {
    const r = await vigil(['-u', server.url, '-t', path.join(testdata, 'get.yaml'), '--severity', 'high']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('');
  });

  it('exits non-zero for an invalid template, an unreadable list, a bad --var and no targets', async () => {
    const bad = path.join(tmp, 'bad.yaml');
    writeFileSync(
      bad,
      'id: bad template\ninfo:\n  name: x\n  author: y\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n',
    );
    const invalid = await vigil(['-u', server.url, '-t', bad]);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('bad.yaml');
    const noList = await vigil(['-l', path.join(tmp, 'missing.txt'), '-t', path.join(testdata, 'get.yaml')]);
    expect(noList.code).not.toBe(0);
    expect(noList.stderr).toContain('missing.txt');
    expect((await vigil(['-u', server.url, '-t', path.join(testdata, 'get.yaml'), '-V', 'novalue'])).code).not.toBe(0);
    expect((await vigil(['-t', path.join(testdata, 'get.yaml')])).code).not.toBe(0);
  });

  it('skips templates of a folder that cannot be loaded, says how many and why, and scans the rest', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cli-mixed-'));
    writeFileSync(
      path.join(dir, 'good.yaml'),
      `id: good\ninfo:\n  name: good\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n    matchers:\n      - type: word\n        words: [matcher]\n`,
    );
    writeFileSync(
      path.join(dir, 'bad-id.yaml'),
      'id: bad template\ninfo:\n  name: x\n  author: y\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n',
    );
    writeFileSync(path.join(dir, 'bad-yaml.yaml'), 'id: [unclosed\n');
    const r = await vigil(['-u', server.url, '-t', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`[good] [http] [info] ${server.url}`);
    expect(r.stderr).toContain('bad-id.yaml');
    expect(r.stderr).toContain('2 template(s) could not be loaded and were skipped');
    // --strict keeps the old behaviour: nothing is scanned.
    const strict = await vigil(['-u', server.url, '-t', dir, '--strict']);
    expect(strict.code).not.toBe(0);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain('nothing was scanned');
  });

  it('many skipped templates: each reason with its count names the files it is about (first few, then how many more)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cli-payloads-'));
    writeFileSync(
      path.join(dir, 'good.yaml'),
      `id: good\ninfo:\n  name: good\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}"\n    matchers:\n      - type: word\n        words: [matcher]\n`,
    );
    // 25 templates whose payload file is missing: 20 name one file, 2 another, one each three more.
    const wordlists = [
      ...Array<string>(20).fill('wordlists/common.txt'),
      'wordlists/users.txt',
      'wordlists/users.txt',
      'a.txt',
      'b.txt',
      'c.txt',
    ];
    wordlists.forEach((file, n) =>
      writeFileSync(
        path.join(dir, `payload-${n}.yaml`),
        `id: payload-${n}\ninfo:\n  name: p\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/{{word}}"\n` +
          `    payloads:\n      word: ${file}\n    matchers:\n      - type: word\n        words: [matcher]\n`,
      ),
    );
    const r = await vigil(['-u', server.url, '-t', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`[good] [http] [info] ${server.url}`);
    const line = r.stderr.split('\n').find((l) => l.startsWith('[WRN] 25 x payload file "…" not found'));
    expect(line, r.stderr).toBeDefined();
    expect(line).toMatch(
      /: "wordlists\/common\.txt" \(20\), "wordlists\/users\.txt" \(2\), "[abc]\.txt" \(1\) and 2 more$/,
    );
    expect(r.stderr).toContain('25 template(s) could not be loaded and were skipped');
  });
});
