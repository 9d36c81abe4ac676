// `npm run check` keeps the architecture (docs/architecture.md): these prove that its ESLint rules and its
// cycles script fail on a deliberate breach, and stay quiet on the allowed form of the same code. The code
// is linted as text under a path in src/ (nothing is written); the cycles fixtures are in test/fixtures/cycles.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
}, 60_000);

/** The architecture rules (vigil/*) reported for `code` as if it were the file `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<{ rule: string; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId?.startsWith('vigil/'))
    .map((m) => ({ rule: m.ruleId!, message: m.message }));
}

describe('import boundaries', () => {
  it('the engine imports nothing outside src/engine', async () => {
    const errors = await boundaryErrors(
      'src/engine/architecture-probe.ts',
      "import { createScan } from '../platform/scans/service.ts';\nexport const x = createScan;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.rule).toBe('vigil/layers');
    expect(errors[0]!.message).toMatch(/engine \(src\/engine\/\) imports nothing outside itself/);
    expect(await boundaryErrors('src/engine/architecture-probe.ts', "export * from './template/types.ts';\n")).toEqual(
      [],
    );
  }, 60_000);

  it('discovery imports neither the platform nor the cli, even through a dynamic import', async () => {
    const errors = await boundaryErrors(
      'src/discovery/architecture-probe.ts',
      "export async function f() { return import('../cli/scan.ts'); }\n",
    );
    expect(errors.map((e) => e.rule)).toEqual(['vigil/layers']);
    expect(errors[0]!.message).toMatch(/Discovery \(src\/discovery\/\) imports only itself and the engine/);
  }, 60_000);

  it('the platform does not import the cli; the cli may import the platform', async () => {
    const up = await boundaryErrors('src/platform/scans/architecture-probe.ts', "export * from '../../cli/scan.ts';\n");
    expect(up.map((e) => e.rule)).toEqual(['vigil/layers']);
    expect(up[0]!.message).toMatch(/src\/platform\/ must not import src\/cli\//);
    expect(
      await boundaryErrors('src/cli/architecture-probe.ts', "export * from '../platform/scans/service.ts';\n"),
    ).toEqual([]);
  }, 60_000);

  it('outside the engine, only src/engine/index.ts is imported; tests may reach inside', async () => {
    const deep = "import { parseTemplate } from '../../engine/template/index.ts';\nexport const p = parseTemplate;\n";
    const errors = await boundaryErrors('src/platform/scans/architecture-probe.ts', deep);
    expect(errors.map((e) => e.rule)).toEqual(['vigil/engine-surface']);
    expect(errors[0]!.message).toMatch(/Outside the engine, import only from its surface "src\/engine\/index.ts"/);
    const surface = "import { runScan } from '../../engine/index.ts';\nexport const r = runScan;\n";
    expect(await boundaryErrors('src/platform/scans/architecture-probe.ts', surface)).toEqual([]);
    const fromTest =
      "import { parseTemplate } from '../../src/engine/template/index.ts';\nexport const p = parseTemplate;\n";
    expect(await boundaryErrors('test/engine/architecture-probe.ts', fromTest)).toEqual([]);
  }, 60_000);

  it('outside discovery, only src/discovery/index.ts is imported', async () => {
    const deep = "import { parseRoot } from '../../discovery/scope.ts';\nexport const p = parseRoot;\n";
    const errors = await boundaryErrors('src/platform/assets/architecture-probe.ts', deep);
    expect(errors.map((e) => e.rule)).toEqual(['vigil/engine-surface']);
    expect(errors[0]!.message).toMatch(/Outside discovery, import only from its surface "src\/discovery\/index.ts"/);
    const surface = "import { parseRoot } from '../../discovery/index.ts';\nexport const p = parseRoot;\n";
    expect(await boundaryErrors('src/platform/assets/architecture-probe.ts', surface)).toEqual([]);
  }, 60_000);
});

describe('the OAST server stands alone', () => {
  it('imports nothing of Vigil; the engine may not import it; others only through src/oast/index.ts', async () => {
    const out = await boundaryErrors(
      'src/oast/architecture-probe.ts',
      "import { runScan } from '../engine/index.ts';\nexport const r = runScan;\n",
    );
    expect(out.map((e) => e.rule)).toEqual(['vigil/layers']);
    expect(out[0]!.message).toMatch(/The OAST server \(src\/oast\/\) imports nothing outside itself/);
    const fromEngine = await boundaryErrors('src/engine/architecture-probe.ts', "export * from '../oast/index.ts';\n");
    expect(fromEngine.map((e) => e.rule)).toEqual(['vigil/layers']);
    const deep = await boundaryErrors(
      'src/platform/shared/architecture-probe.ts',
      "export * from '../../oast/dns.ts';\n",
    );
    expect(deep.map((e) => e.rule)).toEqual(['vigil/engine-surface']);
    expect(deep[0]!.message).toMatch(/Outside the OAST server, import only from its surface "src\/oast\/index.ts"/);
    expect(await boundaryErrors('src/cli/architecture-probe.ts', "export * from '../oast/index.ts';\n")).toEqual([]);
  }, 60_000);
});

describe('SQL only in stores', () => {
  const query =
    "import type { Db } from '../../db/connection.ts';\n" +
    "export async function count(db: Db) { return db.query('SELECT count(*) FROM scans'); }\n";

  it('a query outside a store is an error naming where it belongs', async () => {
    const errors = await boundaryErrors('src/platform/scans/architecture-probe.ts', query);
    expect(errors.map((e) => e.rule)).toEqual(['vigil/sql-in-stores']);
    expect(errors[0]!.message).toMatch(/SQL belongs in a store/);
    const tagged = 'declare const sql: (s: TemplateStringsArray) => string;\nexport const q = sql`SELECT 1`;\n';
    expect((await boundaryErrors('src/cli/architecture-probe.ts', tagged)).map((e) => e.rule)).toEqual([
      'vigil/sql-in-stores',
    ]);
  }, 60_000);

  it('the same query in store.ts or a *-store.ts is allowed, and so is a method of its own named query', async () => {
    expect(await boundaryErrors('src/platform/scans/store.ts', query)).toEqual([]);
    expect(await boundaryErrors('src/platform/scans/probe-store.ts', query)).toEqual([]);
    const own = 'export class Resolver { query(n: string) { return n; } ask() { return this.query("a"); } }\n';
    expect(await boundaryErrors('src/discovery/architecture-probe.ts', own)).toEqual([]);
  }, 60_000);
});

describe('cycles script', () => {
  const cycles = (...args: string[]) => run(process.execPath, ['scripts/cycles.mjs', ...args], { cwd: root });

  it('fails on two files importing each other, a dynamic import included', async () => {
    const err = await cycles('test/fixtures/cycles/loop').then(
      () => undefined,
      (e: { code: number; stdout: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err!.stdout).toContain('NEW cycles');
    expect(err!.stdout).toContain(
      ['report.ts', 'schedule.ts', 'report.ts']
        .map((f) => path.posix.join('test/fixtures/cycles/loop', f))
        .join(' -> '),
    );
  }, 60_000);

  it('fails on areas importing each other both ways though no two files do', async () => {
    const err = await cycles('--areas', 'test/fixtures/cycles/areas', 'test/fixtures/cycles/areas').then(
      () => undefined,
      (e: { code: number; stdout: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err!.stdout).toContain('files of test/fixtures/cycles/areas: no cycles');
    expect(err!.stdout).toMatch(/areas of test\/fixtures\/cycles\/areas: 1 tangle/);
  }, 60_000);

  it('passes on imports in one direction', async () => {
    const { stdout } = await cycles('test/fixtures/cycles/clean');
    expect(stdout).toContain('no new cycles');
  }, 60_000);
});
