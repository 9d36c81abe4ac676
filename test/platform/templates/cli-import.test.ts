// `vigil templates import DIR` as a real process on a PGlite data folder, then the data checked directly.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../../src/db/connection.ts';
import { makeCatalogue, SMALL } from './fixtures.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const vigil = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [path.join(repoRoot, 'bin/vigil.mjs'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', VIGIL_DB_SCHEMA: '', ...env },
    timeout: 240_000,
  });

describe('vigil templates import', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vigil-data-'));
  const cat = makeCatalogue(SMALL);
  afterAll(() => {
    cat.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a folder with progress and a summary, then re-imports incrementally', async () => {
    cat.write('http/broken.yaml', 'id: broken\ninfo:\n  name: B\n  author: x\nhttp:\n  - method: FETCH\n');
    const first = await vigil(['templates', 'import', cat.dir, '--data-dir', dataDir]);
    expect(first.stderr).toMatch(/reading 11\/11/);
    expect(first.stderr).toMatch(/rejected http\/broken\.yaml: .*method/);
    expect(first.stdout).toMatch(/imported 10 templates .*10 added, 0 updated, 0 unchanged, 0 removed, 1 rejected/);

    cat.remove('dns/caa-fingerprint.yaml');
    const second = await vigil(['templates', 'import', cat.dir, '--data-dir', dataDir, '--early']);
    // An early import does not touch the generally available templates; nothing of its own was there.
    expect(second.stdout).toMatch(/imported 0 templates .*\(early access\)/);
    const third = await vigil(['templates', 'import', cat.dir, '--data-dir', dataDir]);
    expect(third.stdout).toMatch(/imported 9 templates .*0 added, 0 updated, 9 unchanged, 1 removed/);

    const db = await connect({ dataDir: path.join(dataDir, 'pg') });
    try {
      const rows = (await db.query<{ uri: string }>('SELECT uri FROM templates ORDER BY uri')).rows.map((r) => r.uri);
      expect(rows).toEqual(
        Object.keys(SMALL)
          .filter((u) => u !== 'dns/caa-fingerprint.yaml')
          .sort(),
      );
    } finally {
      await db.close();
    }
  }, 300_000);

  it('fails with a clear message on a missing folder', async () => {
    const err = await vigil(['templates', 'import', path.join(cat.dir, 'nope'), '--data-dir', dataDir]).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/template folder not found/);
  }, 300_000);
});
