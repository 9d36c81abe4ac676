import path from 'node:path';
import type { Command } from 'commander';
import { runCliTask, type DatabaseFlags } from './database.ts';

// `vigil templates import DIR`: loads a nuclei template repository checkout into the public catalogue.
// Uses the database of `vigil serve` (DATABASE_URL or the PGlite data folder); while serve holds the
// data folder, the import runs inside it through the admin socket.
export function registerTemplatesImport(templates: Command): void {
  templates
    .command('import')
    .argument('<dir>', 'template repository checkout, e.g. ../shared/corpus/nuclei-templates')
    .description(
      'import a template folder into the public catalogue (incremental: unchanged files are skipped, removed ones deleted)',
    )
    .option('--early', 'mark these templates as early access (is_early); replaces the previous early import')
    .option('--data-dir <dir>', 'Vigil data folder (default: VIGIL_DATA_DIR or ./data)')
    .option('--database-url <url>', 'PostgreSQL server instead of the embedded database (default: DATABASE_URL)')
    .option('--show-failed <n>', 'how many rejected template files to list', '20')
    .action(async (dir: string, opts: { early?: boolean; showFailed: string } & DatabaseFlags) => {
      await runCliTask(opts, 'templates import', {
        dir: path.resolve(dir),
        early: !!opts.early,
        showFailed: Number(opts.showFailed) || 0,
      });
    });
}

// `vigil templates update`: the latest public template release (VIGIL_TEMPLATES_RELEASE_URL, an answer
// shaped like GitHub's releases API), downloaded, unpacked and imported incrementally.
export function registerTemplatesUpdate(templates: Command): void {
  templates
    .command('update')
    .description(
      'download the latest public template release and import it (skipped when that release is already imported)',
    )
    .option('--force', 'import even when the release is already imported')
    .option('--data-dir <dir>', 'Vigil data folder (default: VIGIL_DATA_DIR or ./data)')
    .option('--database-url <url>', 'PostgreSQL server instead of the embedded database (default: DATABASE_URL)')
    .action(async (opts: { force?: boolean } & DatabaseFlags) => {
      await runCliTask(opts, 'templates update', { force: !!opts.force });
    });
}
