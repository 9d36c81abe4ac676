#!/usr/bin/env node
// Entry point. Runs the compiled JavaScript in dist/ (built by `npm install` / `npm run build`) when it
// is at least as new as every source file; otherwise the TypeScript sources through tsx, so an edit is
// never run stale. VIGIL_SOURCE=1 forces the sources.
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');

// Plain path strings: a URL object per file cost more than the stat itself, and path.join's normalising
// of each of the ~500 paths was a fifth of this walk (dir is absolute and normal; a name has no slash).
function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    const m = e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs;
    if (m > newest) newest = m;
  }
  return newest;
}

function distIsFresh() {
  if (process.env.VIGIL_SOURCE === '1') return false;
  try {
    return statSync(path.join(dist, 'BUILT')).mtimeMs >= newestSource(path.join(root, 'src'));
  } catch {
    return false;
  }
}

/**
 * Runs a CommonJS bundle compiled with a V8 code cache kept beside it: a start then skips parsing and
 * compiling it, and the functions the first run compiled come ready too. The cache is written at the end
 * of a run that had none, or whose cache V8 refused (another Node.js version); where dist/ is read-only
 * it is simply not kept. V8 refuses a cache made under other flags, so the flags the engine sets while
 * loading (src/engine/dsl/goregex.ts) are set before compiling. False when the bundle is missing.
 */
function runCached(file) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return false; // the build could not bundle: the unbundled command line runs instead
  }
  // The build writes it in ASCII (read as latin1, a third of the time of UTF-8); a hand-edited copy still loads.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const require = createRequire(file);
  const vm = require('node:vm');
  require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  // The bundle is its own module wrapper and holds no import(): a function restored from a code cache
  // has no dynamic-import callback on Node 20 (scripts/build.mjs refuses such a bundle).
  const script = new vm.Script(source, { filename: file, cachedData });
  if (process.env.VIGIL_DEBUG_START === '1') {
    process.stderr.write(
      `vigil: code cache ${!cachedData ? 'absent' : script.cachedDataRejected ? 'refused' : 'used'}\n`,
    );
  }
  if (!cachedData || script.cachedDataRejected) {
    process.once('exit', () => {
      // A scan that lowered V8's tiering budget (src/cli/tiering.ts) would make a cache other starts refuse.
      if (globalThis[Symbol.for('vigil.tieringChanged')]) return;
      try {
        // Written whole under another name, then renamed: a start running meanwhile never reads half a cache.
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // read-only install: every start compiles, as without a cache
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
  return true;
}

if (distIsFresh()) {
  if (process.argv[2] !== 'scan' || !runCached(path.join(dist, 'cli', 'scan.cjs')))
    await import('../dist/cli/index.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/index.ts');
}
