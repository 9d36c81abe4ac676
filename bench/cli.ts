// CLI benchmark (npx tsx bench/cli.ts, or npm run bench:cli). Prints figures, asserts nothing.
// 1. Start-up: `vigil --version` and `vigil scan` of one template against a local server, median of 10
//    runs each, from the compiled dist/ (what `npm install` builds) and from the TypeScript sources
//    through tsx (VIGIL_SOURCE=1), in the same run. Goal: under 250 ms compiled. (After a build, the first
//    compiled scan writes the code cache of dist/cli/scan.cjs, as a user's first scan does.)
// 2. 20,000 path probes against a local keep-alive server: `vigil scan` with one template whose payload
//    list holds the paths (threads: 40) beside ffuf (`apt-get install ffuf`, 40 threads by default) with
//    the same word list, alternating, 5 runs each (medians: a shared 2-core machine varies by ±15 % from
//    run to run). Goal: vigil / ffuf speed ratio >= 1.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { figures } from './figures.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const vigil = path.join(root, 'bin/vigil.mjs');
const PROBES = Number(process.env.BENCH_PROBES ?? 20_000);
const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-cli-'));
const out = figures('cli');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-500)}`);
  return ms;
}

/** A keep-alive HTTP server in its own process, so its CPU is not the measured process's. */
async function startTarget(): Promise<{ url: string; stop(): void }> {
  const code = `
    const http = require('node:http');
    const s = http.createServer((q, r) => {
      if (q.url === '/admin') { r.writeHead(200, { 'content-type': 'text/html' }); r.end('<title>Admin</title>'); return; }
      r.writeHead(404, { 'content-type': 'text/plain' }); r.end('not found');
    });
    s.keepAliveTimeout = 60000;
    s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function main(): Promise<void> {
  if (!existsSync(path.join(root, 'dist/BUILT'))) {
    console.log('cli: building dist/ first (npm run build)');
    spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  }
  const target = await startTarget();
  try {
    const one = path.join(dir, 'one.yaml');
    writeFileSync(
      one,
      `id: one\ninfo: { name: one, author: bench, severity: info }\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/admin']\n    matchers:\n      - type: word\n        words: ['<title>Admin</title>']\n`,
    );

    for (const [label, env] of [
      ['compiled', {}],
      ['tsx', { VIGIL_SOURCE: '1' }],
    ] as const) {
      time(process.execPath, [vigil, '--version'], env); // warm the file cache
      const version = Array.from({ length: 10 }, () => time(process.execPath, [vigil, '--version'], env));
      const scan = Array.from({ length: 10 }, () =>
        time(process.execPath, [vigil, 'scan', '-t', one, '-u', target.url, '-rl', '0'], env),
      );
      console.log(
        `cli start-up (${label}): vigil --version median ${median(version).toFixed(0)} ms; ` +
          `vigil scan of one template median ${median(scan).toFixed(0)} ms (goal < 250 ms compiled)`,
      );
      out.set(`${label}_version_ms`, median(version));
      out.set(`${label}_scan_one_ms`, median(scan));
    }

    const ffuf = spawnSync('ffuf', ['-V'], { encoding: 'utf8' });
    if (ffuf.error) {
      console.log(
        'cli: ffuf is not installed, so the path-probing comparison with ffuf is skipped. ' +
          'Install it to run it: Debian/Ubuntu `sudo apt-get install ffuf`, or `go install github.com/ffuf/ffuf/v2@latest`.',
      );
      out.skip('probes vs ffuf: ffuf not installed (apt-get install ffuf)');
      return;
    }
    const words = path.join(dir, 'words.txt');
    writeFileSync(words, Array.from({ length: PROBES }, (_, i) => `p${i}`).join('\n') + '\n');
    const probe = path.join(dir, 'probe.yaml');
    writeFileSync(
      probe,
      `id: probe\ninfo: { name: probe, author: bench, severity: info }\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/{{p}}']\n    payloads:\n      p: ${words}\n    threads: 40\n    matchers:\n      - type: status\n        status: [200]\n`,
    );
    const v: number[] = [];
    const f: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 5; i++) {
      v.push(time(process.execPath, [vigil, 'scan', '-t', probe, '-u', target.url, '-rl', '0', '--retries', '0']));
      f.push(time('ffuf', ['-s', '-w', words, '-u', `${target.url}/FUZZ`, '-mc', '200', '-t', '40']));
      floor.push(time(process.execPath, [path.join(root, 'bench/raw-probe.mjs'), target.url, words, '40']));
    }
    const mv = median(v);
    const mf = median(f);
    const mn = median(floor);
    // The floor: a bare node process with a raw-socket prober (bench/raw-probe.mjs), no engine at all.
    // When it is slower than ffuf, no Node.js prober can reach the goal against this target here.
    const secs = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
    console.log(`cli probes, each run in order (s): vigil ${secs(v)}; ffuf ${secs(f)}; floor ${secs(floor)}`);
    console.log(
      `cli probes floor: bare node + raw sockets median ${(mn / 1000).toFixed(2)} s; floor / ffuf speed ratio ` +
        `${(mf / mn).toFixed(2)}; vigil / floor ${(mn / mv).toFixed(2)}`,
    );
    console.log(
      `cli probes: ${PROBES} paths, 40 in flight: vigil scan median ${(mv / 1000).toFixed(2)} s ` +
        `(${Math.round(PROBES / (mv / 1000))}/s), ffuf median ${(mf / 1000).toFixed(2)} s (${Math.round(PROBES / (mf / 1000))}/s); ` +
        `vigil / ffuf speed ratio ${(mf / mv).toFixed(2)} (goal >= 1)`,
    );
    out.set('probes_vigil_s', mv / 1000);
    out.set('probes_ffuf_s', mf / 1000);
    out.set('probes_vigil_ffuf_ratio', mf / mv);
    out.set('probes_floor_ffuf_ratio', mf / mn);
    // vigil against the floor in the same runs: steadier than either ratio to ffuf, whose own time here
    // can jump between two levels from one run to the next (each run's time is printed above).
    out.set('probes_vigil_floor_ratio', mn / mv);
  } finally {
    target.stop();
    rmSync(dir, { recursive: true, force: true });
    out.print();
  }
}

await main();
