// Headless protocol benchmark (npm run bench:headless [count]): the corpus's headless templates (200 by
// default) against one local host, in one scan with the engine's defaults (one browser, its page pool).
// The host answers every page with a Content-Security-Policy naming every domain the csp-bypass
// templates look for, so their http gate passes and their headless block (fuzzed on the input's query)
// runs. Prints the time, the peak memory of this process plus Chromium's processes (RSS summed, and PSS,
// which counts memory the processes share once), and a BENCH-FIGURES line.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadTemplates } from '../src/engine/template/index.ts';
import { runScan, unsupportedReason, closeClients } from '../src/engine/runner.ts';
import { pageSlots } from '../src/engine/protocols/headless/browser.ts';
import { figures, skipWithoutShared } from './figures.ts';
import { loadAverage } from './cpu.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '../shared/corpus/nuclei-templates');
skipWithoutShared('headless', corpus);
const out = figures('headless');
const wanted = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** This process and every process below it (Chromium's browser, renderers, GPU and utility processes). */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, pp] of parent) if (pp === out[i]) out.push(pid);
  return out;
}

/** RSS and PSS (kB) summed over the tree. */
function memory(): { rss: number; pss: number; processes: number } {
  let rss = 0;
  let pss = 0;
  const pids = tree(process.pid);
  for (const pid of pids) {
    try {
      const roll = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(roll)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(roll)?.[1] ?? 0);
    } catch {
      // Gone, or not ours to read.
    }
  }
  return { rss, pss, processes: pids.length };
}

const loaded = await loadTemplates([corpus], {}, { missingPayloadFile: 'warn' });
const headless = loaded.templates.filter((t) => t.other.some((b) => b.protocol === 'headless'));
const runnable = headless.filter((t) => !unsupportedReason(t));
const chosen = runnable.slice(0, wanted);
console.log(`load average: ${loadAverage()} (the times scale with it; the memory much less)`);
console.log(
  `corpus: ${headless.length} headless templates, ${runnable.length} runnable here; scanning ${chosen.length} ` +
    `with ${pageSlots()} page slots`,
);
if (chosen.length === 0) {
  out.skip(`no runnable headless template (${unsupportedReason(headless[0]!) ?? 'none in the corpus'})`);
  out.print();
  process.exit(0);
}

// Every word the templates' http gates look for in a header, in one CSP.
const words = new Set<string>();
for (const t of chosen)
  for (const h of t.http)
    for (const m of h.matchers ?? [])
      if (m.part === 'header') for (const w of m.words ?? []) if (!/[\r\n]/.test(w)) words.add(w);
const csp = `script-src 'self' ${[...words].filter((w) => w !== 'Content-Security-Policy').join(' ')}`;
const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/html');
  res.setHeader('content-security-policy', csp);
  res.end(
    `<html><head><title>Bench</title></head><body><form><input name="q"></form>` +
      `<script>document.title = location.search</script><a href="/about">about</a></body></html>`,
  );
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const target = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/?q=shoes`;

let peak = { rss: 0, pss: 0, processes: 0 };
const sample = () => {
  const m = memory();
  if (m.rss > peak.rss) peak = { ...peak, rss: m.rss, processes: m.processes };
  if (m.pss > peak.pss) peak.pss = m.pss;
};
const before = memory();
const timer = setInterval(sample, 250);
const started = performance.now();
let results = 0;
let errors = 0;
const stats = await runScan({
  targets: [target],
  templates: chosen,
  rateLimit: 0,
  timeout: 5,
  onResult: () => results++,
  onAttempt: (a) => {
    if (a.error) errors++;
    if (process.env.BENCH_VERBOSE)
      console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s ${a.templateId} ${a.error ?? ''}`);
  },
});
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
sample();
await closeClients();
server.close();

console.log(
  `${stats.templates} templates ran in ${seconds.toFixed(1)} s (${(seconds / stats.templates).toFixed(2)} s each, ` +
    `${stats.requests} page requests, ${results} results, ${errors} errors, ${stats.skippedTemplates} skipped)`,
);
console.log(
  `memory before: ${mb(before.rss)} RSS; peak: ${mb(peak.rss)} RSS summed over ${peak.processes} processes, ` +
    `${mb(peak.pss)} PSS`,
);
out.set('templates', stats.templates);
out.set('seconds', seconds);
out.set('peak_rss_mb', peak.rss / 1024);
out.set('peak_pss_mb', peak.pss / 1024);
out.set('page_slots', pageSlots());
out.print();
