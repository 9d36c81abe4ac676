// Read one file and parse it (in full, or lazily: metadata now, the rest on first use); an unreadable
// file becomes an issue instead of an exception.
import { readFileSync } from 'node:fs';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';
import { parseLazily } from './lazy-template.ts';

/** `strings`: a lazy load's shared strings (lazy-template.ts, intern). */
export function parseFile(file: string, opts: ParseOptions, lazy = false, strings?: Map<string, string>): ParseResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { issues: [{ file, field: '', reason: `cannot read: ${code}` }], warnings: [] };
  }
  // Options already marked are used as they are: a lazy template keeps its options, one object per root.
  const o = opts.fromDisk ? opts : { ...opts, fromDisk: true };
  return lazy ? parseLazily(text, file, o, strings) : parseTemplate(text, file, o);
}
