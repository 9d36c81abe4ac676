// `npm run build` (and `npm install`, through `prepare`): compiles src/ to dist/ with tsc and copies the
// files tsc does not emit (migrations, worker boot files). bin/vigil.mjs runs dist/ when it is newer
// than every source file, and the TypeScript sources through tsx otherwise.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
writeFileSync(path.join(dist, 'BUILT'), `${new Date().toISOString()}\n`);
const size = (dir) => readdirSync(dir, { withFileTypes: true })
  .reduce((a, e) => a + (e.isDirectory() ? size(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).size), 0);
console.log(`vigil build: dist/ ready (${Math.round(size(dist) / 1024)} KiB)`);
