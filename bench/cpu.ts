// CPU-time helpers for benchmarks. On a shared machine wall time depends on the neighbours; CPU time
// (user + system) does not, so the benches print both.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** User + system CPU of this process so far, in ms (every thread: main, GC, JIT compiler). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms of the main thread alone (Linux only; undefined elsewhere): the part that bounds wall time. */
export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // clock ticks are 1/100 s on Linux
  } catch {
    return undefined;
  }
}

/**
 * The main thread's time on a core and time spent runnable but waiting for one, in ms (Linux's schedstat,
 * nanoseconds; undefined elsewhere). A request that waited is slow because of the machine, not its code.
 */
export function mainThreadSched(): { onCpu: number; waiting: number } | undefined {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { onCpu: onCpu! / 1e6, waiting: waiting! / 1e6 };
  } catch {
    return undefined;
  }
}

/**
 * CPU ms of this process's threads other than the main one (Linux; undefined elsewhere): V8's workers
 * (optimising compiler, GC helpers) and libuv's pool. Those compete with the main thread for the cores.
 */
export function otherThreadsCpuMs(): number | undefined {
  try {
    let ms = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      try {
        ms += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      } catch {
        // the thread ended
      }
    }
    return ms;
  } catch {
    return undefined;
  }
}

export function loadAverage(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

/** Measures fn: wall ms, CPU ms (all threads) and main-thread CPU ms. */
export async function measure<T>(
  fn: () => T | Promise<T>,
): Promise<{ value: T; wall: number; cpu: number; mainCpu?: number }> {
  const main0 = mainThreadCpuMs();
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  const main1 = mainThreadCpuMs();
  return { value, wall, cpu, mainCpu: main0 !== undefined && main1 !== undefined ? main1 - main0 : undefined };
}

export function describe(m: { wall: number; cpu: number; mainCpu?: number }): string {
  const main = m.mainCpu !== undefined ? ` (main thread ${(m.mainCpu / 1000).toFixed(2)} s)` : '';
  return `${(m.wall / 1000).toFixed(2)} s wall, ${(m.cpu / 1000).toFixed(2)} s CPU${main}`;
}
