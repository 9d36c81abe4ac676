// Read one file and parse it; an unreadable file becomes an issue instead of an exception.
import { readFileSync } from 'node:fs';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';

export function parseFile(file: string, opts: ParseOptions): ParseResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { issues: [{ file, field: '', reason: `cannot read: ${code}` }], warnings: [] };
  }
  return parseTemplate(text, file, { ...opts, fromDisk: true });
}
