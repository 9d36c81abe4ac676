// `vigil templates validate` as a user runs it: a real process on a temp folder.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../../..');
let dir: string;

function vigil(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/vigil.mjs', 'templates', 'validate', ...args], { cwd: repo }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-validate-'));
  writeFileSync(
    path.join(dir, 'good.yaml'),
    'id: good-one\ninfo:\n  name: Good\n  author: me\n  severity: info\nhttp:\n  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n',
  );
  writeFileSync(
    path.join(dir, 'bad.yaml'),
    'id: bad-one\ninfo:\n  name: Bad\n  author: me\n  severity: info\nhttp:\n  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n      - type: wordz\n        words: [x]\n',
  );
  writeFileSync(path.join(dir, 'config.yml'), 'extends: default\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vigil templates validate', () => {
  it('prints each failure and the summary, exits 1 when a template is invalid', { timeout: 60_000 }, async () => {
    const r = await vigil(dir);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^${path.join(dir, 'bad.yaml')}: http\\[0\\]\\.matchers\\[1\\]\\.type: .*wordz`),
    );
    expect(lines.at(-1)).toBe('1 valid, 1 invalid, 1 skipped (not templates)');
    expect(r.code).toBe(1);
  });

  it('exits 0 when every template is valid', { timeout: 60_000 }, async () => {
    const r = await vigil(path.join(dir, 'good.yaml'));
    expect(r.stdout.trim()).toBe('1 valid, 0 invalid');
    expect(r.code).toBe(0);
  });

  it(
    'warns about a missing payload file by default, and counts it invalid with --strict-payloads',
    { timeout: 60_000 },
    async () => {
      const sub = mkdtempSync(path.join(tmpdir(), 'vigil-validate-payload-'));
      try {
        const file = path.join(sub, 'words.yaml');
        writeFileSync(
          file,
          'id: needs-words\ninfo:\n  name: Words\n  author: me\n  severity: info\nhttp:\n  - path: ["{{BaseURL}}/{{w}}"]\n    payloads:\n      w: helpers/wordlists/absent.txt\n    matchers:\n      - type: status\n        status: [200]\n',
        );
        const lenient = await vigil(file);
        expect(lenient.code).toBe(0);
        expect(lenient.stdout).toMatch(
          /^warning: .*words\.yaml: http\[0\]\.payloads\.w: payload file "helpers\/wordlists\/absent\.txt" not found/m,
        );
        expect(lenient.stdout.trim().split('\n').at(-1)).toBe('1 valid, 0 invalid');
        const strict = await vigil('--strict-payloads', file);
        expect(strict.code).toBe(1);
        expect(strict.stdout.trim().split('\n').at(-1)).toBe('0 valid, 1 invalid');
      } finally {
        rmSync(sub, { recursive: true, force: true });
      }
    },
  );

  it('exits 2 on bad usage', { timeout: 60_000 }, async () => {
    const none = await vigil();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give at least one template');
    const missing = await vigil(path.join(dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or folder');
    const flag = await vigil('--no-such-flag', dir);
    expect(flag.code).toBe(2);
  });
});
