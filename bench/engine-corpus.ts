// Template loader benchmark on the whole public corpus (npx tsx bench/engine-corpus.ts [runs] [--yaml]).
// Prints, in one process: the first (cold) load as `vigil scan` does it (lazy: metadata only, the rest
// compiled on first use), compiling every template after it, the same files read and parsed by js-yaml
// alone as a baseline, then warm loads. Then in fresh processes: a cold full load (every template
// compiled at load, the loader before lazy loading) and the cold lazy load from the compiled dist/
// (what `vigil scan` runs: no tsx in memory). --yaml also times the `yaml` package on the same texts
// (the reason the loader uses js-yaml; see docs/engine.md).
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import jsyaml from 'js-yaml';
import { compileTemplate, loadTemplates } from '../src/engine/template/index.ts';
import { describe, loadAverage, measure } from './cpu.ts';
import { figures, skipWithoutShared } from './figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '../shared/corpus/nuclei-templates');
skipWithoutShared('engine-corpus', corpus);
const out = figures('engine-corpus');
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 2);
const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
const opts = { missingPayloadFile: 'warn' as const };

console.log(`load average: ${loadAverage()}`);
const cold = await measure(() => loadTemplates([corpus], {}, { ...opts, lazy: true }));
const r = cold.value;
const coldRss = process.memoryUsage().rss;
console.log(
  `cold load (lazy, as vigil scan): ${describe(cold)}; ${r.files} files, ${r.valid} valid, ${r.invalid} invalid, ${r.skipped.length} not templates; rss ${mb(coldRss)}`,
);
out.set('templates', r.valid);
out.set('cold_load_s', cold.wall / 1000);
out.set('cold_load_rss_mb', coldRss / 1e6);
const compileAll = await measure(() => r.templates.filter((t) => compileTemplate(t).issues.length > 0).length);
console.log(
  `then compiling all ${r.templates.length}: ${describe(compileAll)}; ${compileAll.value} invalid; rss ${mb(process.memoryUsage().rss)}`,
);
out.set('compile_all_after_lazy_s', compileAll.wall / 1000);

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

for (let i = 0; i < runs * 3; i++) {
  const mode = (['lazy', 'full, main thread', 'full, 2 worker threads'] as const)[i % 3];
  const m = await measure(() =>
    loadTemplates([corpus], {}, { ...opts, lazy: mode === 'lazy', workers: mode.includes('worker') ? 2 : 0 }),
  );
  console.log(`warm load ${i + 1} (${mode}): ${describe(m)}; rss ${mb(process.memoryUsage().rss)}`);
}

// Fresh processes: a cold load each, timed inside the child (start-up excluded), RSS right after.
const child = (label: string, args: string[], module: string, lazy: boolean) => {
  const code = `import { loadTemplates } from ${JSON.stringify(module)};
    const t0 = performance.now();
    const r = await loadTemplates([${JSON.stringify(corpus)}], {}, { missingPayloadFile: 'warn', lazy: ${lazy} });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rss: process.memoryUsage().rss / 1e6, n: r.valid }));`;
  const line = execFileSync(process.execPath, [...args, '--input-type=module', '-e', code], { encoding: 'utf8' });
  const m = JSON.parse(line.trim().split('\n').at(-1)!) as { s: number; rss: number; n: number };
  console.log(`${label}: ${m.s.toFixed(2)} s, rss ${m.rss.toFixed(0)} MB, ${m.n} templates`);
  return m;
};
const tsx = ['--import', 'tsx'];
const source = path.join(repoRoot, 'src/engine/template/index.ts');
const full = child('cold full load (every template compiled at load), fresh process, tsx', tsx, source, false);
const lazy = child('cold lazy load, fresh process, tsx', tsx, source, true);
out.set('cold_full_load_s', full.s);
out.set('cold_full_load_rss_mb', full.rss);
// Lazy / full, both cold in a fresh process of the same kind, one right after the other.
out.set('cold_lazy_vs_full_ratio', lazy.s / full.s);

// The compiled engine, when dist/ is newer than every engine source (npm run build makes it so).
const built = path.join(repoRoot, 'dist/BUILT');
const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newest(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs,
    ),
  );
if (existsSync(built) && statSync(built).mtimeMs >= newest(path.join(repoRoot, 'src/engine'))) {
  const dist = child(
    'cold lazy load, fresh process, compiled dist/ (vigil scan)',
    [],
    path.join(repoRoot, 'dist/engine/index.js'),
    true,
  );
  out.set('compiled_cold_load_s', dist.s);
  out.set('compiled_cold_load_rss_mb', dist.rss);
} else {
  console.log('compiled dist/ is missing or older than src/engine: run `npm run build` for the compiled figures');
  out.set('compiled_cold_load_s', null);
  out.set('compiled_cold_load_rss_mb', null);
  out.skip('compiled cold load: dist/ not built from the current sources (npm run build)');
}
out.print();
