// `npm run bench:sandbox`: what a sandboxed script costs (src/engine/js/): the first run (QuickJS compiled,
// a thread started), a run on a warm thread, a host call's round trip, a flow-like run (ten host calls),
// many runs at once, and the resident memory the threads add. Wall and CPU time (this machine is shared).
import { measure, loadAverage } from './cpu.ts';
import { runScript } from '../src/engine/js/sandbox.ts';
import { SANDBOX_MAX_THREADS } from '../src/engine/js/limits.ts';
import { figures } from './figures.ts';

const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (m: { wall: number; cpu: number }) => `${m.wall.toFixed(1)} ms wall, ${m.cpu.toFixed(1)} ms CPU`;

async function main(): Promise<void> {
  console.log(`load average ${loadAverage()}`);
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const out = figures('sandbox');
  const first = await measure(() => runScript('1 + 1'));
  console.log(`first run (compile QuickJS, start a thread): ${fmt(first)}`);
  out.set('first_run_ms', first.wall);
  const warm: number[] = [];
  for (let i = 0; i < 50; i++) warm.push((await measure(() => runScript('1 + 1'))).wall);
  console.log(`run on a warm thread (new QuickJS runtime and context): median ${median(warm).toFixed(2)} ms of 50`);
  out.set('warm_run_ms', median(warm));
  const noop = () => null;
  const calls = await measure(() => runScript('for (let i = 0; i < 1000; i++) f(i);', { functions: { f: noop } }));
  console.log(`host call round trip: ${(calls.wall / 1000).toFixed(3)} ms (1,000 calls: ${fmt(calls)})`);
  out.set('host_call_ms', calls.wall / 1000);
  const flowLike: number[] = [];
  for (let i = 0; i < 20; i++) {
    flowLike.push(
      (
        await measure(() =>
          runScript('for (let i = 0; i < 10; i++) { set("v", i); if (!call(i)) break; }', {
            functions: { set: noop, call: async () => true },
          }),
        )
      ).wall,
    );
  }
  console.log(`flow-like run (10 calls, 10 sets): median ${median(flowLike).toFixed(2)} ms of 20`);
  out.set('flow_like_run_ms', median(flowLike));
  const n = SANDBOX_MAX_THREADS * 4;
  const many = await measure(() =>
    Promise.all(
      Array.from({ length: n }, () =>
        runScript('wait(); 1', { functions: { wait: () => new Promise((r) => setTimeout(r, 50)) } }),
      ),
    ),
  );
  console.log(`${n} runs at once, each waiting 50 ms in a host call (${SANDBOX_MAX_THREADS} threads): ${fmt(many)}`);
  global.gc?.();
  console.log(
    `resident memory added by ${SANDBOX_MAX_THREADS} idle-or-busy threads after the runs: ${mib(process.memoryUsage().rss - rss0)} MiB`,
  );
  out.set('threads_rss_mb', (process.memoryUsage().rss - rss0) / 1024 / 1024);
  const compute = await measure(() =>
    runScript('let s = 0; for (let i = 0; i < 3e6; i++) s = (s + i * 7) % 1000003; s'),
  );
  console.log(`3 million loop iterations inside QuickJS: ${fmt(compute)}`);
  out.set('loop_3m_ms', compute.wall);
  out.print();
  process.exit(0);
}

await main();
