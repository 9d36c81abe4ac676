// port_scan: TCP connect on the configured ports, bounded by the run's concurrency and rate.
import { dialTcp, type ConnectGuard } from '../engine/index.ts';
import type { Throttle } from './pool.ts';

/** The 100 TCP ports most often found open (nmap's frequency list), the default of port_scan. */
export const TOP_100 = [
  7, 9, 13, 21, 22, 23, 25, 26, 37, 53, 79, 80, 81, 88, 106, 110, 111, 113, 119, 135, 139, 143, 144, 179, 199, 389, 427,
  443, 444, 445, 465, 513, 514, 515, 543, 544, 548, 554, 587, 631, 646, 873, 990, 993, 995, 1025, 1026, 1027, 1028,
  1029, 1110, 1433, 1720, 1723, 1755, 1900, 2000, 2001, 2049, 2121, 2717, 3000, 3128, 3306, 3389, 3986, 4899, 5000,
  5009, 5051, 5060, 5101, 5190, 5357, 5432, 5631, 5666, 5800, 5900, 6000, 6001, 6646, 7070, 8000, 8008, 8009, 8080,
  8081, 8443, 8888, 9100, 9999, 10000, 32768, 49152, 49153, 49154, 49155, 49156, 49157,
];

/**
 * "80,443,8000-8010", "top-100", "full" -> sorted, disjoint [first, last] ranges; throws naming a bad part.
 * Ranges, so that a spec repeating "1-65535" costs nothing to count or check.
 */
export function parsePortRanges(spec: string | undefined): [number, number][] {
  if (!spec || !spec.trim()) return TOP_100.map((p) => [p, p]);
  const ranges: [number, number][] = [];
  for (const raw of spec.split(',')) {
    const part = raw.trim().toLowerCase();
    if (!part) continue;
    if (part === 'top-100' || part === 'top100') {
      for (const p of TOP_100) ranges.push([p, p]);
      continue;
    }
    if (part === 'full' || part === '-') {
      ranges.push([1, 65535]);
      continue;
    }
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part);
    if (!m) throw new Error(`port "${raw.trim()}" is not a number or range`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || a > 65535 || b < 1 || b > 65535) throw new Error(`port "${raw.trim()}" is out of range (1-65535)`);
    if (b < a) throw new Error(`port range "${raw.trim()}" ends before it starts`);
    ranges.push([a, b]);
  }
  if (!ranges.length) throw new Error('no ports given');
  ranges.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of ranges) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** How many ports the ranges hold. */
export const portCount = (ranges: [number, number][]) => ranges.reduce((n, [a, b]) => n + b - a + 1, 0);

/** "80,443,8000-8010", "top-100", "full" -> sorted unique ports (at most 65,535); throws naming a bad part. */
export function parsePorts(spec: string | undefined): number[] {
  const out: number[] = [];
  for (const [a, b] of parsePortRanges(spec)) for (let p = a; p <= b; p++) out.push(p);
  return out;
}

/** Whether a TCP connection to ip:port completes within timeoutMs (one the guard refuses is never tried: false). */
export function tcpOpen(ip: string, port: number, timeoutMs: number, guard?: ConnectGuard): Promise<boolean> {
  return new Promise((resolve) => {
    // The socket's own timeout (one timer list shared by all sockets) is cheaper than a timer each.
    const sock = dialTcp(guard, { host: ip, port, timeout: timeoutMs });
    let done = false;
    const end = (open: boolean) => {
      if (done) return;
      done = true;
      sock.destroy();
      resolve(open);
    };
    sock.once('timeout', () => end(false));
    sock.once('connect', () => end(true));
    sock.once('error', () => end(false));
  });
}

/**
 * Open ports of every address; onOpen is called as each is found. Addresses are taken one at a time from
 * `ips` (a generator over ranges is never listed in full); `total` (pairs) is for progress only.
 */
export async function scanPorts(
  throttle: Throttle,
  ips: Iterable<string>,
  ports: number[],
  onOpen: (ip: string, port: number) => void,
  onProgress?: (done: number, total: number) => void,
  total = Array.isArray(ips) ? ips.length * ports.length : -1,
  guard?: ConnectGuard,
): Promise<Map<string, number[]>> {
  const open = new Map<string, number[]>();
  function* pairs() {
    for (const ip of ips) for (const port of ports) yield [ip, port] as const;
  }
  await throttle.each(
    pairs(),
    async ([ip, port]) => {
      if (await tcpOpen(ip, port, throttle.limits.timeoutMs, guard)) {
        const list = open.get(ip) ?? [];
        list.push(port);
        open.set(ip, list);
        onOpen(ip, port);
      }
    },
    (done) => onProgress?.(done, total),
  );
  for (const list of open.values()) list.sort((a, b) => a - b);
  return open;
}
