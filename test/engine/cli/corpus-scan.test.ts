// `vigil scan` over the whole http/ folder of the public corpus against one local server: it finishes,
// says which templates it skipped and why, and — with the templates that contact third parties by design
// left out (self-contained ones are off unless -esc; -etags osint,intrusive) — never connects or resolves
// anything but the loopback addresses. A guard loaded into the process refuses (and records) any other
// connection or lookup before a packet leaves.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const corpus = path.resolve(root, '../shared/corpus/nuclei-templates/http');
const guard = path.join(root, 'test/helpers/loopback-guard.mjs');
if (!existsSync(corpus)) console.warn(`skipping the corpus scan test: ${corpus} is not there`);

describe.skipIf(!existsSync(corpus))('vigil scan over the corpus http/ folder', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startHttpServer((_q, res) => res.end('<html><title>ok</title>ok</html>'));
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-guard-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes, reports what it skipped, and talks to 127.0.0.1 only', async () => {
    const log = path.join(dir, 'guard.log');
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          path.join(root, 'bin/vigil.mjs'),
          'scan',
          '-t',
          corpus,
          '-u',
          server.url,
          '-rl',
          '0',
          '-c',
          '50',
          '--timeout',
          '3',
          '--retries',
          '0',
          '-etags',
          'osint,intrusive',
          // dns blocks (multi-protocol templates) ask a loopback resolver, never the machine's.
          '-r',
          '127.0.0.1:9',
        ],
        {
          cwd: root,
          timeout: 240_000,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, NODE_OPTIONS: `--import=${guard}`, VIGIL_GUARD_LOG: log },
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/\d+ template\(s\) could not be loaded and were skipped/);
    expect(r.stderr).toMatch(/\d+ self-contained template\(s\) not run/);
    expect(r.stderr).toMatch(/\d+ template\(s\) not run: \d+ uses/);
    // Per protocol: http ran (most of the folder, flows included); what was left out says why.
    expect(r.stderr).toMatch(/templates by protocol: http: \d{4,} ran/);
    expect(r.stderr).toMatch(/templates by protocol: dns\+http: 1 ran/);
    expect(server.requests.length).toBeGreaterThan(5_000);
    const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
    expect(strays).toBe('');
  }, 300_000);
});
