// `npm run bench`: every bench, one after another, then one table of their figures beside the goals of
// issue 30. `npm run bench -- scans intel` runs a subset. Each bench runs as its own child process
// (`npm run bench:<name>`), never two at once: the benches measure speed, and two at a time would measure
// each other. DATABASE_URL (PostgreSQL) is passed through; without it the benches use PGlite in memory.
// Each bench ends its output with one `BENCH-FIGURES {json}` line (bench/figures.ts), read here.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFigures, type Figures } from './figures.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The run order: quick ones first, so a broken setup shows early. Scripts not listed here run last. */
const ORDER = [
  'sandbox',
  'cli',
  'engine',
  'engine-corpus',
  'cluster-diff',
  'discovery',
  'headless',
  'templates',
  'intel',
  'findings',
  'scans',
  'console',
];

/** Issue 30's goals. `below`: the value must be under the goal; otherwise at least the goal. */
interface Goal {
  bench: string;
  figure: string;
  goal: number;
  below: boolean;
  what: string;
}
const GOALS: Goal[] = [
  {
    bench: 'agents',
    figure: 'agents_workers_ratio',
    goal: 0.8,
    below: false,
    what: 'the same scan on two agents / on workers (issue 23)',
  },
  {
    bench: 'scans',
    figure: 'platform_engine_ratio',
    goal: 0.9,
    below: false,
    what: 'platform scan / vigil scan, same attempts',
  },
  {
    bench: 'intel',
    figure: 'lookup_1_client_p95_ms',
    goal: 2,
    below: true,
    what: 'vulnerability lookup, one client, p95',
  },
  {
    bench: 'intel',
    figure: 'lookup_32_clients_req_s',
    goal: 3000,
    below: false,
    what: 'vulnerability lookup, 32 clients',
  },
  {
    bench: 'templates',
    figure: 'postgres_search_uncached_p95_ms',
    goal: 10,
    below: true,
    what: 'template search, uncached p95, PostgreSQL',
  },
  {
    bench: 'templates',
    figure: 'pglite_search_uncached_p95_ms',
    goal: 20,
    below: true,
    what: 'template search, uncached p95, PGlite',
  },
  {
    bench: 'findings',
    figure: 'slowest_request_p95_ms',
    goal: 100,
    below: true,
    what: 'findings at 100,000, every request p95',
  },
  {
    bench: 'findings',
    figure: 'text_search_p95_ms',
    goal: 50,
    below: true,
    what: 'findings at 100,000, text search p95',
  },
  { bench: 'engine-corpus', figure: 'cold_load_s', goal: 2.5, below: true, what: 'corpus load, cold' },
  { bench: 'engine-corpus', figure: 'cold_load_rss_mb', goal: 150, below: true, what: 'corpus load, resident memory' },
  {
    bench: 'cli',
    figure: 'probes_vigil_ffuf_ratio',
    goal: 1.5,
    below: false,
    what: 'path probing, vigil / ffuf speed',
  },
  // The console's goals (issue 28): the first page's bytes actually transferred, every page's content time.
  { bench: 'console', figure: 'first_page_kb', goal: 250, below: true, what: 'console first page, KB transferred' },
  { bench: 'console', figure: 'slowest_content_ms', goal: 1000, below: true, what: 'console, slowest page to content' },
];

interface Outcome {
  name: string;
  status: string;
  seconds: number;
  figures: Figures;
  skipped: string[];
}

function scripts(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return pkg.scripts;
}

// Ctrl-C stops the bench that runs and the ones after it; the table of what ran is still printed.
let interrupted = false;
let running: ReturnType<typeof spawn> | undefined;
process.on('SIGINT', () => {
  interrupted = true;
  running?.kill('SIGINT');
});

/** Runs one bench, its output shown as it comes, and returns its figures. */
function runBench(name: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', `bench:${name}`], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    running = child;
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      process.stdout.write(d);
    });
    child.on('close', (code, signal) => {
      running = undefined;
      const parsed = parseFigures(output);
      const status = code === 0 ? (parsed ? 'ok' : 'ok, no figures line') : `failed (${signal ?? `exit ${code}`})`;
      resolve({
        name,
        status,
        seconds: (performance.now() - started) / 1000,
        figures: parsed?.figures ?? {},
        skipped: parsed?.skipped ?? [],
      });
    });
  });
}

/** The database the benches use, without credentials. */
function database(): string {
  const url = process.env.DATABASE_URL;
  if (!url) return 'PGlite in memory (set DATABASE_URL for PostgreSQL)';
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

const fmt = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);

function table(outcomes: Outcome[]): string {
  const rows: string[] = ['| bench | figure | value | goal (issue 30) | met |', '|---|---|---|---|---|'];
  const byBench = new Map(outcomes.map((o) => [o.name, o]));
  for (const g of GOALS) {
    const o = byBench.get(g.bench);
    if (!o) continue;
    const v = o.figures[g.figure];
    const met =
      v === null || v === undefined ? 'not measured' : (g.below ? v < g.goal : v >= g.goal) ? 'met' : 'not met';
    rows.push(`| ${g.bench} | ${g.what} (\`${g.figure}\`) | ${fmt(v)} | ${g.below ? '<' : '≥'} ${g.goal} | ${met} |`);
  }
  for (const o of outcomes) {
    for (const [figure, v] of Object.entries(o.figures)) {
      if (GOALS.some((g) => g.bench === o.name && g.figure === figure)) continue;
      rows.push(`| ${o.name} | \`${figure}\` | ${fmt(v)} | — | |`);
    }
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const available = scripts();
  const names = Object.keys(available)
    .filter((s) => s.startsWith('bench:'))
    .map((s) => s.slice('bench:'.length));
  const known = [...ORDER, ...names.filter((n) => !ORDER.includes(n))];
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !known.includes(a));
  if (unknown.length) {
    console.error(`unknown bench: ${unknown.join(', ')} (benches: ${known.join(', ')})`);
    process.exit(2);
  }
  const selected = asked.length ? known.filter((n) => asked.includes(n)) : known;
  console.log(
    `benches: ${selected.join(', ')}; database: ${database()}; ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const outcomes: Outcome[] = [];
  for (const name of selected) {
    if (interrupted) {
      outcomes.push({ name, status: 'not run (interrupted)', seconds: 0, figures: {}, skipped: [] });
      continue;
    }
    if (!available[`bench:${name}`]) {
      console.log(`\n=== ${name}: skipped, package.json has no bench:${name} script`);
      outcomes.push({ name, status: 'skipped (no script)', seconds: 0, figures: {}, skipped: [] });
      continue;
    }
    console.log(`\n=== ${name} (npm run bench:${name})`);
    outcomes.push(await runBench(name));
  }

  console.log('\n=== summary');
  for (const o of outcomes) {
    console.log(
      `${o.name.padEnd(14)} ${o.status} in ${o.seconds.toFixed(0)} s${o.skipped.length ? `; skipped: ${o.skipped.join('; ')}` : ''}`,
    );
  }
  console.log(
    `\ndatabase: ${database()}; load average at end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(table(outcomes));
  if (interrupted) process.exitCode = 130;
  else if (outcomes.some((o) => o.status.startsWith('failed'))) process.exitCode = 1;
}

await main();
