import { InvalidArgumentError, type Command } from 'commander';
import path from 'node:path';
import { OFFICIAL_FEED_URLS as DEFAULT_FEED_URLS } from '../platform/updates/sources.ts';
import { databaseOptions, runCliTask, type DatabaseFlags } from './database.ts';

// `vigil intel import [sources...]`: files, folders, .gz/.zip archives or URLs; formats detected per file.
export function registerIntel(program: Command): void {
  const intel = program.command('intel').description('vulnerability intelligence feeds');
  intel
    .command('import')
    .argument('[sources...]', 'files, folders, .gz/.zip archives or http(s) URLs')
    .description(
      'import CVE JSON 5, NVD 2.0, CISA KEV, VulnCheck KEV, EPSS, PoC lists, CWE names, bounty counts, exposure',
    )
    .option(
      '--feed <name>',
      `force one format (${Object.keys(DEFAULT_FEED_URLS).join(', ')}, pocs, cwe, bounty, exposure); with no sources, download its official feed`,
    )
    .option(
      '--date <YYYY-MM-DD>',
      'the day a daily feed (EPSS, bounty counts) describes when the file does not say',
      (v) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new InvalidArgumentError('use YYYY-MM-DD');
        return v;
      },
    )
    .option('--json', 'print the report as JSON')
    .option('--data-dir <dir>', 'Vigil data folder (default: VIGIL_DATA_DIR or ./data)')
    .option('--database-url <url>', 'PostgreSQL server instead of the embedded database (default: DATABASE_URL)')
    .action(async (sources: string[], opts: { feed?: string; date?: string; json?: boolean } & DatabaseFlags) => {
      const { FEED_FORMATS } = await import('../platform/intel/feeds/types.ts');
      if (opts.feed && !FEED_FORMATS.includes(opts.feed as never)) {
        throw new InvalidArgumentError(`unknown feed "${opts.feed}"`);
      }
      let inputs = sources;
      if (!inputs.length && opts.feed) {
        const url = DEFAULT_FEED_URLS[opts.feed as keyof typeof DEFAULT_FEED_URLS];
        if (!url) throw new Error(`feed ${opts.feed} has no official address; give a file or folder`);
        inputs = [url];
      }
      if (!inputs.length) throw new Error('give files, folders or URLs to import (or --feed NAME to download it)');
      // Files and folders are read by whichever process runs the task (maybe the server): absolute paths.
      const absolute = inputs.map((i) => (/^https?:\/\//i.test(i) ? i : path.resolve(i)));
      await runCliTask(opts, 'intel import', { inputs: absolute, feed: opts.feed, date: opts.date, json: opts.json });
    });
  databaseOptions(
    intel
      .command('update')
      .description(
        'download the official feeds (CVE list, KEV, EPSS, PoCs; VulnCheck KEV with VIGIL_VULNCHECK_TOKEN; others from VIGIL_FEED_<NAME>_URL) and import them; a failed download changes nothing',
      )
      .option('--feed <name...>', 'only these feeds'),
  ).action(async (flags: DatabaseFlags & { feed?: string[] }) => {
    await runCliTask(flags, 'intel update', { feeds: flags.feed });
  });
  databaseOptions(
    intel
      .command('rebuild')
      .description(
        're-link templates of the catalogue and recompute every vulnerability record from the stored feed facts',
      ),
  ).action(async (flags: DatabaseFlags) => {
    await runCliTask(flags, 'intel rebuild', {});
  });
}
