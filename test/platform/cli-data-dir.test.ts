// Every command that opens the data folder takes --data-dir; a folder `vigil serve` holds is refused in
// one line, never with a stack trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runVigil, spawnVigil, type VigilProcess } from '../helpers/process.ts';

describe('CLI commands and --data-dir', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-datadir-'));
  const procs: VigilProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('users and intel take --data-dir; a held folder is a one-line error', async () => {
    const serve = spawnVigil(['serve', '--port', '0', '--data-dir', dir, '--no-worker']);
    procs.push(serve);
    await serve.listening(150_000);
    for (const args of [['users', 'list', '--data-dir', dir], ['intel', 'rebuild', '--data-dir', dir], ['intel', 'import', '--feed', 'kev', '--data-dir', dir, '/nonexistent.json']]) {
      const r = await runVigil(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/vigil serve/);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(await serve.kill('SIGTERM')).toBe(0);
    const list = await runVigil(['users', 'list', '--data-dir', dir]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^owner@localhost\tOWNER\t/m);
  }, 240_000);
});
