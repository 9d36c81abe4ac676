import type { Command } from 'commander';
import { configFromEnv } from '../platform/config.ts';

// `vigil templates import DIR`: loads a nuclei template repository checkout into the public catalogue.
// Uses the database of `vigil serve` (DATABASE_URL or the PGlite data folder), so with PGlite it must run
// while serve is stopped (openDatabase says so when the folder is busy).
export function registerTemplatesImport(templates: Command): void {
  templates
    .command('import')
    .argument('<dir>', 'template repository checkout, e.g. ../shared/corpus/nuclei-templates')
    .description('import a template folder into the public catalogue (incremental: unchanged files are skipped, removed ones deleted)')
    .option('--early', 'mark these templates as early access (is_early); replaces the previous early import')
    .option('--data-dir <dir>', 'Vigil data folder (default: VIGIL_DATA_DIR or ./data)')
    .option('--database-url <url>', 'PostgreSQL server instead of the embedded database (default: DATABASE_URL)')
    .option('--show-failed <n>', 'how many rejected template files to list', '20')
    .action(async (dir: string, opts: { early?: boolean; dataDir?: string; databaseUrl?: string; showFailed: string }) => {
      const path = await import('node:path');
      const config = configFromEnv();
      if (opts.dataDir) config.dataDir = path.resolve(opts.dataDir);
      if (opts.databaseUrl) config.databaseUrl = opts.databaseUrl;
      const { openDatabase } = await import('../platform/start.ts');
      const { importCatalogueAndRelink } = await import('../platform/catalogue.ts');
      let db;
      try {
        db = await openDatabase(config, process.env.VIGIL_DB_SCHEMA || undefined);
      } catch (err) {
        console.error(`vigil: ${(err as Error).message}`);
        process.exit(1);
      }
      const tty = process.stderr.isTTY;
      try {
        const s = await importCatalogueAndRelink(db, dir, {
          early: !!opts.early,
          progressEvery: tty ? 100 : 2000,
          onProgress: (p) => {
            const line = `${p.phase === 'read' ? 'reading' : 'writing'} ${p.done}/${p.total}`;
            if (tty) process.stderr.write(`\r${line}   ${p.done === p.total ? '\n' : ''}`);
            else process.stderr.write(`${line}\n`);
          },
        });
        const shown = Math.max(0, Number(opts.showFailed) || 0);
        for (const f of s.failed.slice(0, shown)) console.error(`rejected ${f.file}: ${f.message}`);
        if (s.failed.length > shown) console.error(`... and ${s.failed.length - shown} more rejected (--show-failed ${s.failed.length})`);
        const where = s.ref ? ` at ${s.release_tag ?? 'untagged'} ${s.ref.slice(0, 12)}` : '';
        console.log(
          `imported ${s.templates} templates from ${s.dir}${where}${opts.early ? ' (early access)' : ''} in ${(s.ms / 1000).toFixed(1)}s: ` +
            `${s.added} added, ${s.updated} updated, ${s.unchanged} unchanged, ${s.removed} removed, ` +
            `${s.failed.length} rejected, ${s.skipped} other YAML files skipped; ` +
            `${s.intel.records_changed} vulnerability records relinked`,
        );
      } catch (err) {
        console.error(`vigil: ${(err as Error).message}`);
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
