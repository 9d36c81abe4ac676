// Read one file and parse it (in full, or lazily: metadata now, the rest on first use); an unreadable
// file becomes an issue instead of an exception.
import { readFileSync } from 'node:fs';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';
import { parseLazily } from './lazy-template.ts';
import { replaceRandstr } from './randstr.ts';

export function parseFile(file: string, opts: ParseOptions, lazy = false): ParseResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { issues: [{ file, field: '', reason: `cannot read: ${code}` }], warnings: [] };
  }
  const o = { ...opts, fromDisk: true };
  return lazy ? parseLazily(text, replaceRandstr(text), file, o) : parseTemplate(text, file, o);
}
