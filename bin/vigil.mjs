#!/usr/bin/env node
// Entry point. Runs the compiled JavaScript in dist/ (built by `npm install` / `npm run build`) when it
// is at least as new as every source file; otherwise the TypeScript sources through tsx, so an edit is
// never run stale. VIGIL_SOURCE=1 forces the sources.
import { readdirSync, statSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const src = new URL('../src/', import.meta.url);

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function distIsFresh() {
  if (process.env.VIGIL_SOURCE === '1') return false;
  try {
    return statSync(new URL('BUILT', dist)).mtimeMs >= newestSource(src);
  } catch {
    return false;
  }
}

if (distIsFresh()) {
  await import('../dist/cli/index.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/index.ts');
}
