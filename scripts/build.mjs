// `npm run build` (and `npm install`, through `prepare`): compiles src/ to dist/ with tsc and copies the
// files tsc does not emit (migrations, worker boot files), then bundles the command line (src/cli) into
// dist/cli/ with esbuild: a start loads a dozen files instead of ~150 modules (about a third less CPU
// for `vigil scan` of one template). Worker threads keep loading the tsc output. bin/vigil.mjs runs
// dist/ when it is newer than every source file, and the TypeScript sources through tsx otherwise.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  console.error('vigil build: tsc failed; `vigil` will run the TypeScript sources through tsx');
  process.exit(r.status ?? 1);
}

// Everything that is not TypeScript travels as it is.
const copy = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, e.name);
    if (e.isDirectory()) copy(from);
    else if (!e.name.endsWith('.ts')) {
      const to = path.join(dist, path.relative(src, from));
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to);
    }
  }
};
copy(src);

// Each bundled module keeps the import.meta.url its tsc-compiled file has (dist/<same path>.js), so the
// files it finds beside itself (worker boots, migrations, the console build) are found as before. All
// output files sit in dist/cli/ (no chunk folder), so one relative path per module is right everywhere.
const cliOut = path.join(dist, 'cli');
const keepModuleUrl = {
  name: 'keep-module-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      if (text.includes('import.meta.url')) {
        const compiled = path.join(dist, path.relative(src, args.path)).replace(/\.ts$/, '.js');
        const url = `new URL(${JSON.stringify(path.relative(cliOut, compiled))}, import.meta.url).href`;
        text = text.replaceAll('import.meta.url', url);
      }
      return { contents: text, loader: 'ts' };
    });
  },
};
// commander requires node:child_process at load for subcommands run as executables, which `vigil scan`
// never does: inside the scan bundle it gets the module on first use instead (a few ms of every start).
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'lazy-child-process', namespace: 'lazy-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents:
        'let m; const load = () => (m ??= require("node:child_process"));\n' +
        'module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load() });\n',
      loader: 'js',
    }));
  },
};
try {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(src, 'cli/index.ts')],
    outdir: cliOut,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunk-[hash]',
    plugins: [keepModuleUrl],
    logLevel: 'warning',
  });
  // `vigil scan` alone, as one CommonJS file with the libraries it needs at start-up inside: bin/vigil.mjs
  // compiles it with a V8 code cache (Node 20 has none for ES modules), which skips parsing and
  // compiling at every start. Libraries loaded later, on demand, stay outside.
  const scan = await build({
    entryPoints: [path.join(src, 'cli/scan-main.ts')],
    outfile: path.join(cliOut, 'scan.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [keepModuleUrl, lazyChildProcess],
    logLevel: 'warning',
    metafile: true,
    external: ['undici', 'socks', 'tsx', 'esbuild', 'playwright-core'],
    // import.meta.url left after keepModuleUrl is the bundle's own (CommonJS has no import.meta).
    define: { 'import.meta.url': '__bundle_url' },
    // The file is the module wrapper itself, so the loader compiles it as read (no copy of 700 KB with a
    // wrapper around it); ASCII without comments, so it is read as latin1, three times faster than UTF-8.
    banner: {
      js: '(function (exports, require, module, __filename, __dirname) {"use strict";\nconst __bundle_url = require("node:url").pathToFileURL(__filename).href;',
    },
    footer: { js: '})' },
    charset: 'ascii',
    minifyWhitespace: true,
    legalComments: 'none',
  });
  // A function restored from a code cache cannot import() on Node 20: load such libraries with lazy()
  // (src/engine/lazy.ts) instead. Without the bundle, `vigil scan` runs from the split bundle.
  const dynamic = Object.values(scan.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.kind === 'dynamic-import');
  if (dynamic.length > 0) {
    rmSync(path.join(cliOut, 'scan.cjs'), { force: true });
    throw new Error(`dist/cli/scan.cjs would import() ${dynamic.map((i) => i.path).join(', ')} at run time`);
  }
} catch (err) {
  // The tsc output in dist/cli still runs, only slower to start.
  console.error(`vigil build: bundling the command line failed (${err.message}); dist/cli runs unbundled`);
}
writeFileSync(path.join(dist, 'BUILT'), `${new Date().toISOString()}\n`);
const size = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (a, e) => a + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size),
    0,
  );
console.log(`vigil build: dist/ ready (${Math.round(size(dist) / 1024)} KiB)`);
