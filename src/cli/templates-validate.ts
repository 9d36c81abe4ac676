// `vigil templates validate PATH...`: checks template files and folders, prints each problem as
// `file: field: reason` and a summary line. Exit 0 = all valid, 1 = some invalid, 2 = bad usage.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadTemplates } from '../engine/template/index.ts';
import type { TemplateIssue } from '../engine/template/types.ts';

interface ValidateFlags {
  warnings?: boolean;
  allowMissingPayloads?: boolean;
  quiet?: boolean;
}

function line(i: TemplateIssue): string {
  return i.field ? `${i.file}: ${i.field}: ${i.reason}` : `${i.file}: ${i.reason}`;
}

export function registerTemplatesValidate(templates: Command): void {
  templates
    .command('validate')
    .description('check nuclei-format templates (files or folders, searched recursively for .yaml/.yml)')
    .argument('[paths...]', 'template files or folders')
    .option('-w, --warnings', 'also print warnings (e.g. missing severity)')
    .option('--allow-missing-payloads', 'a payload file that cannot be found is a warning, not an error')
    .option('-q, --quiet', 'print only the summary line')
    .exitOverride((err) => {
      // Help and version exit 0; any commander usage error exits 2 like our own usage errors.
      process.exit(err.exitCode === 0 ? 0 : 2);
    })
    .action(async (paths: string[], flags: ValidateFlags) => {
      if (paths.length === 0) {
        console.error('vigil templates validate: give at least one template file or folder');
        process.exitCode = 2;
        return;
      }
      const missing = paths.filter((p) => !existsSync(p));
      if (missing.length > 0) {
        for (const p of missing) console.error(`vigil templates validate: ${p}: no such file or folder`);
        process.exitCode = 2;
        return;
      }
      const result = await loadTemplates(paths, {}, { missingPayloadFile: flags.allowMissingPayloads ? 'warn' : 'error' });
      if (!flags.quiet) {
        for (const issue of result.issues) console.log(line(issue));
        if (flags.warnings) for (const w of result.warnings) console.log(`warning: ${line(w)}`);
      }
      let summary = `${result.valid} valid, ${result.invalid} invalid`;
      if (result.skipped.length > 0) summary += `, ${result.skipped.length} skipped (not templates)`;
      console.log(summary);
      process.exitCode = result.invalid > 0 ? 1 : 0;
    });
}
