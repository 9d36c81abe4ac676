// Benchmark: load the whole public corpus and print time and memory. Run:
//   npx tsx test/engine/template/bench-corpus.ts [runs]
// Prints a baseline (plain read + YAML parse of the same files) measured in the same process.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import yaml from 'js-yaml';
import { loadTemplates } from '../../../src/engine/template/index.ts';

const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/nuclei-templates');
const runs = Number(process.argv[2] ?? 2);

// CPU time is printed beside wall time: on a shared machine it is the figure that stays comparable.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let t = performance.now();
let c = cpu();
const files = (await readdir(corpus, { recursive: true })).filter((f) => /\.ya?ml$/.test(f));
for (const f of files) yaml.load(readFileSync(path.join(corpus, f), 'utf8'));
const baseline = performance.now() - t;
const baselineCpu = cpu() - c;
console.log(`baseline read+parse ${files.length} files: ${baseline.toFixed(0)} ms wall, ${baselineCpu.toFixed(0)} ms cpu`);

for (let i = 0; i < runs * 2; i++) {
  const workers = i % 2 === 0 ? 2 : 0;
  t = performance.now();
  c = cpu();
  const r = await loadTemplates([corpus], {}, { missingPayloadFile: 'warn', workers });
  const ms = performance.now() - t;
  const cpuMs = cpu() - c;
  const mem = process.memoryUsage();
  console.log(
    `run ${i + 1} (${workers === 0 ? 'main thread' : '2 worker threads'}): ${ms.toFixed(0)} ms wall (${(ms / baseline).toFixed(2)}x baseline), ` +
      `${cpuMs.toFixed(0)} ms cpu (${(cpuMs / baselineCpu).toFixed(2)}x), ${r.valid} valid, ${r.invalid} invalid, ` +
      `${r.skipped.length} skipped; rss ${(mem.rss / 1e6).toFixed(0)} MB, heap ${(mem.heapUsed / 1e6).toFixed(0)} MB`,
  );
}
