// `vigil templates validate PATH...`: checks template files and folders, prints each problem as
// `file: field: reason` and a summary line. Exit 0 = all valid, 1 = some invalid, 2 = bad usage.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { TemplateIssue } from '../engine/index.ts';

interface ValidateFlags {
  warnings?: boolean;
  strictPayloads?: boolean;
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
    .option('--strict-payloads', 'a payload file that cannot be found makes the template invalid (default: a warning)')
    // Kept for scripts written against the earlier default; it is the default now.
    .option('--allow-missing-payloads', 'accepted for compatibility: missing payload files are warnings by default')
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
      // A payload file missing from this copy of the templates (word lists are often left out of mirrors) is
      // a problem of the environment, not of the template: a warning that is always shown, unless
      // --strict-payloads asks to fail on it.
      const { loadTemplates } = await import('../engine/index.ts');
      const result = await loadTemplates(paths, {}, { missingPayloadFile: flags.strictPayloads ? 'error' : 'warn' });
      if (!flags.quiet) {
        for (const issue of result.issues) console.log(line(issue));
        for (const w of result.warnings) {
          if (flags.warnings || isMissingPayload(w)) console.log(`warning: ${line(w)}`);
        }
      }
      const noPayload = new Set(result.warnings.filter(isMissingPayload).map((w) => w.file)).size;
      if (noPayload > 0)
        console.log(`${noPayload} valid templates miss a payload file here (--strict-payloads to count them invalid)`);
      let summary = `${result.valid} valid, ${result.invalid} invalid`;
      if (result.skipped.length > 0) summary += `, ${result.skipped.length} skipped (not templates)`;
      console.log(summary);
      process.exitCode = result.invalid > 0 ? 1 : 0;
    });
}

function isMissingPayload(w: TemplateIssue): boolean {
  return /payload file .* not found/.test(w.reason);
}
