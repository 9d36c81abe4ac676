// Reads secret files (.yaml, .yml or .json) and validates them all before any request is sent.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { SecretStore } from './store.ts';
import type { SecretEntry, SecretIssue } from './types.ts';
import { formatIssue, validateSecretDocument } from './validate.ts';

/** Thrown when any file has a problem; `issues` lists every one of them. */
export class SecretFileError extends Error {
  readonly issues: SecretIssue[];
  constructor(issues: SecretIssue[]) {
    super(
      `invalid secret file (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${issues.map((i) => '  ' + formatIssue(i)).join('\n')}`,
    );
    this.name = 'SecretFileError';
    this.issues = issues;
  }
}

export interface LoadSecretOptions {
  /**
   * Base for relative login template paths; defaults to the working directory. With several
   * directories the first one holding the file wins (`vigil scan`: each -t folder, then the cwd).
   */
  templatesDir?: string | string[];
}

/** A parse error without the snippet of file text parsers like to quote (it may hold a secret). */
function syntaxReason(ext: string, text: string, err: Error): string {
  if (ext === '.json') {
    const pos = /position (\d+)/.exec(err.message);
    if (!pos) return 'not valid JSON';
    const before = text.slice(0, Number(pos[1]));
    const line = before.split('\n').length;
    return `not valid JSON at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
  }
  // js-yaml's `reason` is the bare cause; its `message` quotes the offending lines, so it is not used.
  const { reason, mark } = err as Error & { reason?: string; mark?: { line: number; column: number } };
  return `not valid YAML${mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : ''}: ${reason ?? 'syntax error'}`;
}

async function parseFile(file: string): Promise<{ doc?: unknown; issue?: SecretIssue }> {
  const ext = path.extname(file).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(ext)) {
    return {
      issue: { file, field: '', reason: `unsupported file type "${ext || '(none)'}": use .yaml, .yml or .json` },
    };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return {
      issue: {
        file,
        field: '',
        reason: `cannot read the file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      },
    };
  }
  try {
    return { doc: ext === '.json' ? JSON.parse(text) : yaml.load(text) };
  } catch (err) {
    return { issue: { file, field: '', reason: syntaxReason(ext, text, err as Error) } };
  }
}

/**
 * Loads and validates secret files; entries are concatenated in order (each file's static list, then
 * its dynamic list). Throws SecretFileError listing every problem of every file.
 */
export async function loadSecretFiles(paths: string[], opts: LoadSecretOptions = {}): Promise<SecretStore> {
  const issues: SecretIssue[] = [];
  const entries: SecretEntry[] = [];
  for (const file of paths) {
    const { doc, issue } = await parseFile(file);
    if (issue) {
      issues.push(issue);
      continue;
    }
    const result = validateSecretDocument(doc, { file, templatesDir: opts.templatesDir });
    issues.push(...result.issues);
    entries.push(...result.entries);
  }
  if (issues.length) throw new SecretFileError(issues);
  return new SecretStore(entries);
}
