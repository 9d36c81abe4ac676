// dns_passive: subdomains known to public sources. Sources without a key run as they are; those that need
// one read it from a subfinder provider config (YAML: source -> list of keys). A source that is not
// configured, unreachable or answers badly is skipped with a notice; the others go on.
import yaml from 'js-yaml';
import { isDomain } from './scope.ts';

export interface PassiveSource {
  name: string;
  /** Key name in subfinder's provider-config.yaml; undefined: needs none. */
  keyName?: string;
  url(domain: string, base: string): string;
  headers?(key: string): Record<string, string>;
  /** Names in a response body. */
  parse(body: string): string[];
  base: string;
}

const jsonNames = (body: string, pick: (j: any) => unknown[]): string[] => pick(JSON.parse(body)).map(String);

export const SOURCES: PassiveSource[] = [
  {
    name: 'crtsh',
    base: 'https://crt.sh',
    url: (d, b) => `${b}/?q=${encodeURIComponent('%.' + d)}&output=json`,
    parse: (body) =>
      jsonNames(body, (j) => (Array.isArray(j) ? j : []).flatMap((r: any) => String(r.name_value ?? '').split('\n'))),
  },
  {
    name: 'hackertarget',
    base: 'https://api.hackertarget.com',
    url: (d, b) => `${b}/hostsearch/?q=${encodeURIComponent(d)}`,
    parse: (body) => body.split('\n').map((l) => l.split(',')[0]!.trim()),
  },
  {
    name: 'alienvault',
    base: 'https://otx.alienvault.com',
    url: (d, b) => `${b}/api/v1/indicators/domain/${encodeURIComponent(d)}/passive_dns`,
    parse: (body) => jsonNames(body, (j) => (j?.passive_dns ?? []).map((r: any) => r.hostname)),
  },
  {
    name: 'virustotal',
    keyName: 'virustotal',
    base: 'https://www.virustotal.com',
    url: (d, b) => `${b}/api/v3/domains/${encodeURIComponent(d)}/subdomains?limit=40`,
    headers: (key) => ({ 'x-apikey': key }),
    parse: (body) => jsonNames(body, (j) => (j?.data ?? []).map((r: any) => r.id)),
  },
  {
    name: 'securitytrails',
    keyName: 'securitytrails',
    base: 'https://api.securitytrails.com',
    url: (d, b) => `${b}/v1/domain/${encodeURIComponent(d)}/subdomains`,
    headers: (key) => ({ APIKEY: key }),
    parse: (body) => {
      const j = JSON.parse(body);
      return (j?.subdomains ?? []).map((s: string) => `${s}.${j?.meta?.domain ?? ''}`.replace(/\.$/, ''));
    },
  },
];

/** Keys from a subfinder provider config text (YAML map of source -> key list). */
export function parseProviderConfig(text: string): Record<string, string[]> {
  const doc = yaml.load(text);
  const out: Record<string, string[]> = {};
  if (doc && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
      if (Array.isArray(v)) out[k.toLowerCase()] = v.map(String).filter(Boolean);
    }
  }
  return out;
}

export interface PassiveOptions {
  keys: Record<string, string[]>;
  /** Replaces a source's base URL (name -> URL), e.g. a mirror or a local test server. */
  baseUrls?: Record<string, string>;
  /** Only these sources (default: all). */
  sources?: string[];
  timeoutMs: number;
  notice: (message: string) => void;
}

/** Subdomains of `domain` from every usable source (deduplicated, lower case, inside the domain). */
export async function passiveSubdomains(domain: string, opts: PassiveOptions): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const wanted = SOURCES.filter((s) => !opts.sources || opts.sources.includes(s.name));
  await Promise.all(
    wanted.map(async (src) => {
      const key = src.keyName ? opts.keys[src.keyName]?.[0] : undefined;
      if (src.keyName && !key) {
        opts.notice(`dns_passive: source ${src.name} skipped: no key configured (provider config "${src.keyName}")`);
        return;
      }
      const base = opts.baseUrls?.[src.name] ?? src.base;
      let body: string;
      try {
        const res = await fetch(src.url(domain, base), {
          headers: { 'User-Agent': 'vigil-discovery', ...(key && src.headers ? src.headers(key) : {}) },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) {
          opts.notice(`dns_passive: source ${src.name} skipped: it answered HTTP ${res.status}`);
          return;
        }
        body = await res.text();
      } catch (e) {
        opts.notice(
          `dns_passive: source ${src.name} skipped: unreachable (${(e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message})`,
        );
        return;
      }
      let names: string[];
      try {
        names = src.parse(body);
      } catch {
        opts.notice(`dns_passive: source ${src.name} skipped: its answer could not be read`);
        return;
      }
      for (const raw of names) {
        const n = raw.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
        if ((n === domain || n.endsWith(`.${domain}`)) && isDomain(n) && !found.has(n)) found.set(n, src.name);
      }
    }),
  );
  return found;
}
