// Worker thread body for loadTemplates: reads and parses batches of files so YAML parsing and
// validation use every core. Receives { files, opts } batches, answers with ParseResult[] in order.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';

export interface WorkerBatch {
  files: { file: string; root?: string }[];
  opts: ParseOptions;
}

function parseFile(file: string, opts: ParseOptions): ParseResult {
  try {
    return parseTemplate(readFileSync(file, 'utf8'), file, opts);
  } catch (err) {
    return { issues: [{ file, field: '', reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }], warnings: [] };
  }
}

parentPort?.on('message', (batch: WorkerBatch) => {
  const results = batch.files.map(({ file, root }) => parseFile(file, { ...batch.opts, templatesRoot: batch.opts.templatesRoot ?? root }));
  parentPort!.postMessage(results);
});
