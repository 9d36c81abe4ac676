#!/usr/bin/env node
// Prints the import cycles among the TypeScript/JavaScript files under the given folders (default: src) and
// exits 1 if there is any that is not listed as pending below. Every import counts: static, `import type`,
// re-exports and `await import()` (a dynamic import does not make a cycle go away).
// Files import each other: a cycle among files. Areas of src/platform/ (its folders) import each other in one
// direction: a cycle among areas counts too.
// Usage: node scripts/cycles.mjs [--why] [folder ...]   (run by `npm run check`; `npm run cycles` alone)
//   --why: for each tangle of areas, the file imports between its members.
//   --areas FOLDER: whose subfolders are the areas (default src/platform).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// Tangles that exist today, while the architecture branches (issue 29) untangle src/platform: removed when
// the architecture branches merge. A tangle found later passes only if all its members are inside one listed
// here; anything else is a new cycle and fails. Never add one: move the shared code to a place both may import.
const pendingTangles = {
  // Files importing each other (paths from the repository root).
  files: [],
  // Areas of src/platform importing each other (any file of one area importing any file of another).
  areas: [],
};

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];

function toPosix(p) {
  return p.split(path.sep).join('/');
}

function listFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) listFiles(full, out);
    else if (EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts')) out.push(toPosix(full));
  }
  return out;
}

/** The file a relative specifier names (`./x.ts`, `./x.js` for x.ts, `./x`, `./dir`), or undefined. */
function resolve(fromFile, spec) {
  const base = toPosix(path.normalize(path.join(path.dirname(fromFile), spec)));
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), ...EXTENSIONS.map((e) => base + e)];
  candidates.push(...EXTENSIONS.map((e) => `${base}/index${e}`));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** file → the files it imports (relative imports only; packages cannot be part of our cycles). */
export function importGraph(folders) {
  const graph = new Map();
  for (const file of folders.flatMap((f) => listFiles(f))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = resolve(file, ref.fileName);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function tangles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v).has(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** One shortest cycle through `start` inside its component, as a list of files ending where it began. */
function cycleThrough(graph, comp, start) {
  const inComp = new Set(comp);
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = prev.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** Every tangle of the graph, with one example cycle each. */
export function findCycles(graph) {
  return tangles(graph).map((comp) => ({ files: comp, example: cycleThrough(graph, comp, comp[0]) }));
}

/** A folder of `root` (src/platform) stands for all its files; files directly in `root` stand for themselves. */
export function areaOf(file, root = 'src/platform') {
  if (!file.startsWith(`${root}/`)) return file;
  const rest = file.slice(root.length + 1);
  return rest.includes('/') ? `${root}/${rest.slice(0, rest.indexOf('/'))}/` : file;
}

/** The graph of the areas of `root`: an edge where any file of one area imports any file of another. */
export function areaGraph(graph, root = 'src/platform') {
  const areas = new Map();
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${root}/`)) continue;
    const from = areaOf(file, root);
    if (!areas.has(from)) areas.set(from, new Set());
    for (const t of targets) {
      if (t.startsWith(`${root}/`) && areaOf(t, root) !== from) areas.get(from).add(areaOf(t, root));
    }
  }
  return areas;
}

/** Tangles not inside a pending one. */
export function newCycles(cycles, pending) {
  return cycles.filter((c) => !pending.some((p) => c.files.every((f) => p.includes(f))));
}

function report(title, cycles) {
  if (cycles.length === 0) {
    console.log(`${title}: no cycles`);
    return;
  }
  console.log(`${title}: ${cycles.length} tangle(s) importing each other`);
  for (const c of cycles) {
    console.log(`  ${c.files.length} members, e.g. ${c.example.join(' -> ')}`);
    if (c.files.length > c.example.length - 1) console.log(`    all: ${c.files.join(' ')}`);
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const why = args.includes('--why');
  const areasAt = args.indexOf('--areas');
  const areaRoot = areasAt >= 0 ? toPosix(path.normalize(args[areasAt + 1] ?? '')).replace(/\/$/, '') : 'src/platform';
  const named = args.filter((a, i) => a !== '--why' && (areasAt < 0 || (i !== areasAt && i !== areasAt + 1)));
  const folders = named.map((f) => toPosix(path.normalize(f)).replace(/\/$/, ''));
  if (folders.length === 0) folders.push('src');
  for (const f of folders) {
    if (!existsSync(f)) {
      console.error(`cycles: no such folder ${f}`);
      process.exit(2);
    }
  }
  const graph = importGraph(folders);
  const files = findCycles(graph);
  const areas = findCycles(areaGraph(graph, areaRoot));
  report(`files of ${folders.join(', ')}`, files);
  if (areas.length || folders.includes('src')) report(`areas of ${areaRoot}`, areas);
  if (why) {
    for (const c of areas) {
      console.log(`imports between the areas of ${c.files.join(' ')}:`);
      for (const [file, targets] of graph) {
        const area = areaOf(file, areaRoot);
        const inner = [...targets].filter((t) => areaOf(t, areaRoot) !== area && c.files.includes(areaOf(t, areaRoot)));
        if (c.files.includes(area) && inner.length) console.log(`  ${file} -> ${inner.join(', ')}`);
      }
    }
  }
  const fresh = [...newCycles(files, pendingTangles.files), ...newCycles(areas, pendingTangles.areas)];
  const covered = (p) => p.every((m) => folders.some((d) => m.startsWith(`${d}/`)));
  const gone = [...pendingTangles.files, ...pendingTangles.areas].filter(
    (p) => covered(p) && ![...files, ...areas].some((c) => c.files.some((f) => p.includes(f))),
  );
  for (const p of gone)
    console.log(`pending tangle no longer found (remove it from scripts/cycles.mjs): ${p.join(' ')}`);
  if (fresh.length) {
    console.log('');
    report('NEW cycles (not in pendingTangles of scripts/cycles.mjs)', fresh);
    console.log(
      'Break each by moving the shared code to a module both sides may import (`await import()` does not hide it).',
    );
    process.exit(1);
  }
  console.log(`${graph.size} files checked: no new cycles.`);
}
