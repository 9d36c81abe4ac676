// Template loader benchmark on the whole public corpus (npx tsx bench/engine-corpus.ts [runs] [--yaml]).
// Prints, in one process: the first (cold) load, the same files read and parsed by js-yaml alone as a
// baseline, then warm loads on the main thread and on 2 worker threads. --yaml also times the `yaml`
// package on the same texts (the reason the loader uses js-yaml; see docs/engine.md).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import jsyaml from 'js-yaml';
import { loadTemplates } from '../src/engine/template/index.ts';
import { describe, loadAverage, measure } from './cpu.ts';
import { figures, skipWithoutShared } from './figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '../shared/corpus/nuclei-templates');
skipWithoutShared('engine-corpus', corpus);
const out = figures('engine-corpus');
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2);
const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;

console.log(`load average: ${loadAverage()}`);
const cold = await measure(() => loadTemplates([corpus], {}, { missingPayloadFile: 'warn' }));
const r = cold.value;
console.log(
  `cold load: ${describe(cold)}; ${r.files} files, ${r.valid} valid, ${r.invalid} invalid, ${r.skipped.length} not templates; rss ${mb(process.memoryUsage().rss)}`,
);
out.set('templates', r.valid);
out.set('cold_load_s', cold.wall / 1000);
out.set('cold_load_rss_mb', process.memoryUsage().rss / 1e6);

const files = (await readdir(corpus, { recursive: true }))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => path.join(corpus, f));
const read = await measure(() => files.map((f) => readFileSync(f, 'utf8')));
const texts = read.value;
console.log(`baseline read ${files.length} files: ${describe(read)}`);
const parseAll = (parse: (t: string) => unknown) => {
  for (const t of texts) {
    try {
      parse(t);
    } catch {
      // Invalid YAML counts like any other file.
    }
  }
};
const schema = jsyaml.CORE_SCHEMA.extend([(jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge]);
const jsyamlParse = await measure(() => parseAll((t) => jsyaml.load(t, { schema })));
console.log(`baseline js-yaml parse: ${describe(jsyamlParse)}`);
// Ratio to the baseline measured in this run: the loader's cold load / reading and parsing the same files alone.
out.set('cold_load_vs_read_parse_ratio', cold.wall / (read.wall + jsyamlParse.wall));
if (process.argv.includes('--yaml')) {
  const YAML = (await import('yaml')).default;
  console.log(`yaml parse (default options): ${describe(await measure(() => parseAll((t) => YAML.parse(t))))}`);
  const opts = { schema: 'core' as const, merge: true, prettyErrors: false, keepSourceTokens: false };
  console.log(
    `yaml parse (core schema, no pretty errors): ${describe(await measure(() => parseAll((t) => YAML.parse(t, opts))))}`,
  );
  const lexOnly = await measure(() => {
    for (const t of texts) for (const _ of new YAML.Lexer().lex(t));
  });
  console.log(`yaml Lexer alone (tokens only, no tree): ${describe(lexOnly)}`);
}

for (let i = 0; i < runs * 2; i++) {
  const workers = i % 2 === 0 ? 0 : 2;
  const m = await measure(() => loadTemplates([corpus], {}, { missingPayloadFile: 'warn', workers }));
  console.log(
    `warm load ${i + 1} (${workers === 0 ? 'main thread' : '2 worker threads'}): ${describe(m)}; rss ${mb(process.memoryUsage().rss)}`,
  );
}
out.print();
