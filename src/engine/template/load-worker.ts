// Worker thread body for loadTemplates: reads and parses batches of files so YAML parsing and
// validation use every core. Receives { files, opts } batches, answers with ParseResult[] in order.
import { parentPort } from 'node:worker_threads';
import type { ParseOptions } from './parse.ts';
import { parseFile } from './parse-file.ts';

export interface WorkerBatch {
  files: { file: string; root?: string }[];
  opts: ParseOptions;
}

parentPort?.on('message', (batch: WorkerBatch) => {
  const results = batch.files.map(({ file, root }) =>
    parseFile(file, { ...batch.opts, templatesRoot: batch.opts.templatesRoot ?? root }),
  );
  parentPort!.postMessage(results);
});
