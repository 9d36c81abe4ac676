// dns_bruteforce: candidate names from a wordlist, kept when they resolve and are not explained by a
// wildcard record (a random name under the same parent resolving to the same addresses).
import { randomBytes } from 'node:crypto';
import type { Resolver } from './dns.ts';
import type { Throttle } from './pool.ts';
import type { HostRecord } from './types.ts';

/** A short built-in list; runs normally pass their own (enumeration_config.wordlist / --wordlist). */
export const DEFAULT_WORDS = [
  'www',
  'mail',
  'ftp',
  'smtp',
  'webmail',
  'api',
  'dev',
  'staging',
  'test',
  'admin',
  'portal',
  'vpn',
  'ns1',
  'ns2',
  'blog',
  'shop',
  'app',
  'm',
  'cdn',
  'static',
  'git',
  'jenkins',
  'grafana',
  'beta',
  'intranet',
  'remote',
  'secure',
  'auth',
  'sso',
  'login',
  'docs',
  'status',
  'monitor',
  'db',
  'internal',
  'old',
  'new',
  'demo',
  'files',
  'backup',
];

export interface Wildcard {
  /** Addresses random names resolve to (empty: no wildcard). */
  ips: Set<string>;
  cname: Set<string>;
}

/** Asks two random names under the domain; their answers are the wildcard's. */
export async function detectWildcard(resolver: Resolver, domain: string): Promise<Wildcard> {
  const ips = new Set<string>();
  const cname = new Set<string>();
  for (let i = 0; i < 2; i++) {
    const r = await resolver.resolve(`${randomBytes(6).toString('hex')}.${domain}`);
    if (r.status !== 'ok') continue;
    [...r.a, ...r.aaaa].forEach((x) => ips.add(x));
    r.cname.forEach((x) => cname.add(x));
  }
  return { ips, cname };
}

/** The words of a list that make a name, lower-cased, once each. */
export function candidateWords(words: string[]): string[] {
  return [
    ...new Set(
      words
        .map((w) => w.trim().toLowerCase())
        .filter((w) => /^[a-z0-9_.-]+$/.test(w) && !w.startsWith('.') && !w.endsWith('.')),
    ),
  ];
}

const isWildcardAnswer = (w: Wildcard, ips: string[], cname: string[]) =>
  w.ips.size > 0 && ips.length > 0 && ips.every((ip) => w.ips.has(ip)) && cname.every((c) => w.cname.has(c));

export async function bruteforce(
  throttle: Throttle,
  resolver: Resolver,
  domain: string,
  words: string[],
  onFound: (r: HostRecord) => void,
  onProgress?: (done: number, total: number) => void,
  onWildcard?: (w: Wildcard) => void,
): Promise<HostRecord[]> {
  const wildcard = await detectWildcard(resolver, domain);
  if (wildcard.ips.size) onWildcard?.(wildcard);
  const found: HostRecord[] = [];
  const list = candidateWords(words);
  await throttle.each(
    list,
    async (word) => {
      const host = `${word}.${domain}`;
      const r = await resolver.resolve(host);
      const ips = [...r.a, ...r.aaaa];
      if (r.status !== 'ok' || ips.length === 0) return;
      if (isWildcardAnswer(wildcard, ips, r.cname)) return;
      const rec = { host, ip: ips, cname: r.cname, source: 'dns_bruteforce' };
      found.push(rec);
      onFound(rec);
    },
    (done) => onProgress?.(done, list.length),
  );
  return found;
}
