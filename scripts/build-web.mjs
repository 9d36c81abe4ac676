// Builds the console (web/ -> web/dist); run by `npm install` through the prepare script and by
// `npm run build:web`. After Vite, every text file of the build gets a brotli (.br) and a gzip (.gz) copy
// beside it, made once here at the highest levels, so the server sends them as they are (no compression
// per request). A copy that would not be smaller than its file is not written. Without the build tools (an install with --omit=dev) it says so and stops cleanly:
// the API works without the console.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
if (!existsSync(vite)) {
  console.log('console: not built (vite is not installed; run a full `npm install` to build it)');
  process.exit(0);
}
// Vite needs Node 20.19+ or 22.12+; on an older Node the API still installs and runs, without the console.
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23)) {
  console.log(`console: not built (building it needs Node 20.19+ or 22.12+; this is ${process.versions.node})`);
  process.exit(0);
}
const started = Date.now();
const r = spawnSync(
  process.execPath,
  [vite, 'build', '--config', path.join(root, 'web/vite.config.ts'), '--logLevel', 'warn'],
  { cwd: root, stdio: 'inherit' },
);
if (r.status !== 0) process.exit(r.status ?? 1);
const sizes = precompress(path.join(root, 'web/dist'));
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `console: built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
    `(${sizes.files} files: ${kb(sizes.raw)}, ${kb(sizes.gzip)} gzip, ${kb(sizes.br)} brotli)`,
);

/** Writes <file>.br and <file>.gz beside every compressible file under `dir`; returns the totals. */
function precompress(dir) {
  const totals = { files: 0, raw: 0, gzip: 0, br: 0 };
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) {
        walk(file);
        continue;
      }
      if (!/\.(js|mjs|css|html|svg|json|txt|webmanifest|map)$/.test(name)) continue;
      const body = readFileSync(file);
      const br = brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
      const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
      if (br.length < body.length) writeFileSync(`${file}.br`, br);
      if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      totals.files++;
      totals.raw += body.length;
      totals.br += Math.min(br.length, body.length);
      totals.gzip += Math.min(gz.length, body.length);
    }
  };
  walk(dir);
  return totals;
}
