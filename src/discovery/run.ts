// A discovery run: roots -> names (passive, bruteforce) -> addresses -> open ports -> web and TLS facts
// -> screenshots. Each step is optional; events report what is found as it is found.
import net from 'node:net';
import { Resolver, parseResolver } from './dns.ts';
import { Throttle } from './pool.ts';
import { parseRoot, scopeOf, checkPattern, type Root } from './scope.ts';
import { parsePorts, scanPorts } from './ports.ts';
import { probeHttp } from './http-probe.ts';
import { scanTls } from './tls-scan.ts';
import { bruteforce, DEFAULT_WORDS } from './bruteforce.ts';
import { passiveSubdomains } from './passive.ts';
import { openScreenshotter } from './screenshot.ts';
import { listCloudAssets, type ProviderEntry } from './cloud/index.ts';
import {
  DEFAULT_LIMITS,
  STEPS,
  type DiscoveredAsset,
  type EventSink,
  type HostRecord,
  type Limits,
  type Step,
} from './types.ts';
import { addressesIn, guardFor, parseAddress, rangeSize, rangesHave, type EgressPolicy } from '../engine/index.ts';

export interface DiscoveryConfig {
  roots: string[];
  /** Default: dns_resolve, port_scan, http_probe. */
  steps?: Step[];
  /** Port list ("80,443,8000-8100", "top-100"); default the top 100. */
  ports?: string;
  /** Resolvers as host:port; default the system's. */
  resolvers?: string[];
  wordlist?: string[];
  /** Scope patterns: exclusions, and "+pattern" inclusions. */
  exclusions?: string[];
  followRedirects?: boolean;
  passive?: { keys?: Record<string, string[]>; baseUrls?: Record<string, string>; sources?: string[] };
  /**
   * Cloud accounts (cloudlist provider-config entries) whose hosts and public addresses join the roots'
   * (then resolved, scanned and probed like them); baseUrls replaces a provider's API address.
   */
  cloud?: { providers: ProviderEntry[]; baseUrls?: Record<string, string> };
  limits?: Partial<Limits>;
  /**
   * Extra technology detection for the web services http_probe found (e.g. fingerprint templates run by
   * the engine): technologies by URL, merged into each service's own.
   */
  technologies?: (targets: { url: string; host: string; ip: string }[]) => Promise<Map<string, string[]>>;
  /** Names, addresses (port undefined) and services never touched, whatever the roots say (a deny list). */
  deny?: (hostOrIp: string, port?: number) => boolean;
  /**
   * Where connections may go (the platform's deny list), decided on the address connected to: port
   * probes, HTTP probes and their redirects, TLS handshakes, the screenshot browser, custom resolvers.
   */
  egress?: EgressPolicy;
}

export const DEFAULT_STEPS: Step[] = ['dns_resolve', 'port_scan', 'http_probe'];

/** Checks a configuration without running it; throws an Error naming the first problem (with `field`). */
export function checkConfig(c: DiscoveryConfig): { roots: Root[]; ports: number[]; steps: Step[] } {
  const fail = (field: string, message: string) => Object.assign(new Error(message), { field });
  if (!c.roots.length && !c.cloud) throw fail('roots', 'no roots given');
  const roots = c.roots.map((r, i) => {
    try {
      return parseRoot(r);
    } catch (e) {
      throw fail(`roots[${i}]`, `root ${(e as Error).message}`);
    }
  });
  const steps = c.steps?.length ? c.steps : DEFAULT_STEPS;
  steps.forEach((s, i) => {
    if (!(STEPS as readonly string[]).includes(s))
      throw fail(`steps[${i}]`, `unknown step "${s}" (known: ${STEPS.join(', ')})`);
  });
  let ports: number[];
  try {
    ports = parsePorts(c.ports);
  } catch (e) {
    throw fail('ports', (e as Error).message);
  }
  (c.resolvers ?? []).forEach((r, i) => {
    try {
      parseResolver(r);
    } catch (e) {
      throw fail(`resolvers[${i}]`, (e as Error).message);
    }
  });
  (c.exclusions ?? []).forEach((p, i) => {
    try {
      checkPattern(p);
    } catch (e) {
      throw fail(`exclusions[${i}]`, `exclusion ${(e as Error).message}`);
    }
  });
  return { roots, ports, steps };
}

export async function runDiscovery(c: DiscoveryConfig, sink: EventSink = () => {}): Promise<DiscoveredAsset[]> {
  const { roots, ports, steps } = checkConfig(c);
  const has = (s: Step) => steps.includes(s);
  const limits: Limits = { ...DEFAULT_LIMITS, ...c.limits };
  const throttle = new Throttle(limits);
  const guard = guardFor(c.egress);
  const resolver = new Resolver((c.resolvers ?? []).map(parseResolver), limits.timeoutMs, undefined, guard);
  const scope = scopeOf(c.exclusions ?? []);
  const deny = c.deny ?? (() => false);
  const inScope = (v: string) => scope.allows(v) && !deny(v);
  const notice = (step: Step | 'input' | 'cloudlist', message: string) => sink({ type: 'notice', step, message });
  const progress = (step: Step) => (done: number, total: number) => sink({ type: 'progress', step, done, total });

  const domains = roots.filter((r) => r.kind === 'domain').map((r) => r.value);
  const names = new Map<string, string>(); // name -> source
  for (const d of domains) names.set(d, 'root');

  if (has('dns_passive')) {
    for (const d of domains) {
      const found = await passiveSubdomains(d, {
        keys: c.passive?.keys ?? {},
        baseUrls: c.passive?.baseUrls,
        sources: c.passive?.sources,
        timeoutMs: Math.max(limits.timeoutMs, 10_000),
        notice: (m) => notice('dns_passive', m),
      });
      for (const [n, src] of found) if (!names.has(n)) names.set(n, `dns_passive:${src}`);
    }
  }

  // Cloud assets: names with the address their record gives are taken as they are; bare names (CNAME
  // records, app domains) are resolved like the roots'; addresses are hosts of their own.
  const cloudHosts: HostRecord[] = [];
  if (c.cloud?.providers.length) {
    const found = await listCloudAssets(c.cloud.providers, {
      baseUrls: c.cloud.baseUrls,
      timeoutMs: Math.max(limits.timeoutMs, 10_000),
      signal: limits.signal,
      notice: (m) => notice('cloudlist', m),
    });
    const byHost = new Map<string, HostRecord>();
    for (const a of found) {
      const source = `cloudlist:${a.provider}`;
      const host = a.host ?? a.ip!;
      if (!a.ip) {
        // Out-of-scope names are not even resolved.
        if (!names.has(host) && inScope(host)) names.set(host, source);
        continue;
      }
      const r = byHost.get(host) ?? { host, ip: [], cname: [], source };
      if (!r.ip.includes(a.ip)) r.ip.push(a.ip);
      byHost.set(host, r);
    }
    cloudHosts.push(...byHost.values());
  }

  const hosts = new Map<string, HostRecord>();
  const addHost = (r: HostRecord) => {
    if (hosts.has(r.host) || !inScope(r.host)) return;
    const ip = r.ip.filter(inScope);
    if (!ip.length) return;
    hosts.set(r.host, { ...r, ip });
    sink({ type: 'host', record: { ...r, ip } });
  };

  if (has('dns_bruteforce')) {
    for (const d of domains) {
      await bruteforce(
        throttle,
        resolver,
        d,
        c.wordlist?.length ? c.wordlist : DEFAULT_WORDS,
        addHost,
        progress('dns_bruteforce'),
        (w) =>
          notice(
            'dns_bruteforce',
            `wildcard under ${d} (${[...w.ips].join(', ')}): names answering only with it are dropped`,
          ),
      );
    }
  }

  for (const r of cloudHosts) addHost(r);
  // Names are always resolved (that is how their services are reached); dns_resolve reports them.
  const pending = [...names].filter(([n]) => !hosts.has(n));
  await throttle.each(
    pending,
    async ([name, source]) => {
      const r = await resolver.resolve(name);
      if (r.status === 'error') notice('dns_resolve', `${name}: no resolver answered`);
      if (r.status === 'ok') addHost({ host: name, ip: [...r.a, ...r.aaaa], cname: r.cname, source });
    },
    progress('dns_resolve'),
  );

  // Services: (name or address, address, port). The IP roots' addresses are drawn one at a time from
  // their ranges (exclusions applied by arithmetic, then per address): never listed in full.
  const hostIps = new Set([...hosts.values()].flatMap((h) => h.ip));
  const ranges = scope.ranges(roots);
  const fromRanges = (ip: string) => scope.allowsInRanges(ip) && !deny(ip);
  function* candidates() {
    yield* hostIps;
    for (const ip of addressesIn(ranges)) if (!hostIps.has(ip) && fromRanges(ip)) yield ip;
  }
  // The run's budget of address-port pairs (limits.maxProbes): names found on the way (brute force,
  // passive sources, cloud accounts) add addresses no one could count in advance.
  const maxProbes = limits.maxProbes ?? Number.POSITIVE_INFINITY;
  const maxAddresses = Math.floor(maxProbes / ports.length);
  function* budgeted() {
    let n = 0;
    for (const ip of candidates()) {
      if (n++ >= maxAddresses) {
        notice(
          'port_scan',
          `stopped at ${maxAddresses.toLocaleString('en-US')} addresses x ${ports.length.toLocaleString('en-US')} ports, the run's limit of ${maxProbes.toLocaleString('en-US')} address-port pairs; the other addresses were not probed`,
        );
        return;
      }
      yield ip;
    }
  }
  const totalPairs = Math.min(maxAddresses, hostIps.size + Number(rangeSize(ranges))) * ports.length;
  let open: Map<string, number[]>;
  if (has('port_scan')) {
    open = await scanPorts(
      throttle,
      budgeted(),
      ports,
      (ip, port) => sink({ type: 'port', host: ip, ip, port }),
      progress('port_scan'),
      totalPairs,
      guard,
    );
  } else if (has('http_probe') || has('tls_scan') || has('http_screenshot')) {
    // Without a port scan the configured ports are probed directly; only those that answer are kept. A
    // connect comes first, so that only ports that accept one are held and probed.
    open = await scanPorts(throttle, budgeted(), ports, () => {}, undefined, totalPairs, guard);
  } else {
    open = new Map();
  }
  const services: { host: string; ip: string; port: number; ips: string[]; cname: string[]; sources: string[] }[] = [];
  for (const h of hosts.values()) {
    const seen = new Set<number>();
    for (const ip of h.ip) {
      for (const port of open.get(ip) ?? []) {
        if (seen.has(port) || deny(h.host, port) || deny(ip, port)) continue;
        seen.add(port);
        services.push({ host: h.host, ip, port, ips: h.ip, cname: h.cname, sources: [h.source] });
      }
    }
  }
  for (const [ip, openPorts] of open) {
    const address = parseAddress(ip);
    if (!address || !rangesHave(ranges, address) || !fromRanges(ip)) continue;
    for (const port of openPorts)
      if (!deny(ip, port)) services.push({ host: ip, ip, port, ips: [ip], cname: [], sources: ['root'] });
  }
  services.sort((a, b) => a.host.localeCompare(b.host) || a.port - b.port);

  const assets = new Map<string, DiscoveredAsset>();
  for (const h of hosts.values()) assets.set(h.host, { host: h.host, ip: h.ip, cname: h.cname, sources: [h.source] });
  for (const s of services)
    assets.set(`${s.host}:${s.port}`, { host: s.host, port: s.port, ip: s.ips, cname: s.cname, sources: s.sources });

  if (has('http_probe') || has('http_screenshot')) {
    const lookup = async (name: string) => {
      if (net.isIP(name)) return name;
      const r = await resolver.resolve(name);
      return r.a[0] ?? r.aaaa[0];
    };
    await throttle.each(
      services,
      async (s) => {
        const info = await probeHttp(s.host, s.ip, s.port, {
          timeoutMs: limits.timeoutMs,
          followRedirects: c.followRedirects ?? true,
          lookup,
          guard,
        });
        if (!info) return;
        assets.get(`${s.host}:${s.port}`)!.http = info;
        sink({ type: 'http', host: s.host, port: s.port, info });
      },
      progress('http_probe'),
    );
  }

  if (c.technologies) {
    const web = services.filter((s) => assets.get(`${s.host}:${s.port}`)!.http);
    if (web.length) {
      const found = await c.technologies(
        web.map((s) => ({ url: assets.get(`${s.host}:${s.port}`)!.http!.url, host: s.host, ip: s.ip })),
      );
      for (const s of web) {
        const info = assets.get(`${s.host}:${s.port}`)!.http!;
        const have = new Set(info.technologies.map((x) => x.toLowerCase()));
        for (const t of found.get(info.url) ?? [])
          if (!have.has(t.toLowerCase())) (have.add(t.toLowerCase()), info.technologies.push(t));
      }
    }
  }

  if (has('tls_scan')) {
    await throttle.each(
      services,
      async (s) => {
        const info = await scanTls(s.host, s.ip, s.port, limits.timeoutMs, guard);
        if (!info) return;
        assets.get(`${s.host}:${s.port}`)!.tls = info;
        sink({ type: 'tls', info });
      },
      progress('tls_scan'),
    );
  }

  if (has('http_screenshot')) {
    const web = [...assets.values()].filter((a) => a.http);
    const map = new Map([...hosts.values()].map((h) => [h.host, h.ip[0]!]));
    const shooter = web.length ? await openScreenshotter(Math.max(limits.timeoutMs, 10_000), map, guard) : undefined;
    if (typeof shooter === 'string') notice('http_screenshot', shooter);
    else if (shooter) {
      try {
        let done = 0;
        for (const a of web) {
          if (limits.signal?.aborted) break;
          const png = await shooter.take(a.http!.url);
          if (png) {
            a.screenshot = png.toString('base64');
            sink({ type: 'screenshot', host: a.host, port: a.port!, url: a.http!.url, bytes: png.length });
          }
          progress('http_screenshot')(++done, web.length);
        }
      } finally {
        await shooter.close();
      }
    }
  }
  if (!has('port_scan')) {
    for (const [k, a] of assets) if (a.port !== undefined && !a.http && !a.tls) assets.delete(k);
  }
  return [...assets.values()];
}
