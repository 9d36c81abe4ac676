// DigitalOcean (API v2, https://api.digitalocean.com, `Authorization: Bearer <digitalocean_token>`):
// droplets' public addresses, App Platform apps' live domains, and the A, AAAA and CNAME records of the
// account's domains. Lists are paged
// with `page` / `per_page` (at most 200); `links.pages.next` is present while a next page exists.
import { eachPage } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi, ProviderEntry } from './types.ts';

const PER_PAGE = 200;
const more = (doc: any) => typeof doc?.links?.pages?.next === 'string' && doc.links.pages.next !== '';

async function all<T>(api: ProviderApi, path: string, key: string): Promise<T[]> {
  const sep = path.includes('?') ? '&' : '?';
  return eachPage(
    api.get,
    (page) => `${path}${sep}page=${page}&per_page=${PER_PAGE}`,
    more,
    (doc) => (Array.isArray(doc?.[key]) ? doc[key] : []),
    api.maxPages,
  );
}

/** A record's full name: `@` is the domain itself. */
export function recordName(name: string, domain: string): string {
  return name === '@' || name === '' ? domain : name.endsWith('.') ? name.slice(0, -1) : `${name}.${domain}`;
}

export const digitalocean: CloudProviderClient = {
  name: 'do',
  base: 'https://api.digitalocean.com',
  auth: (e: ProviderEntry) =>
    e.digitalocean_token ? { Authorization: `Bearer ${e.digitalocean_token}` } : 'digitalocean_token',
  async list(entry, api) {
    const out: CloudAsset[] = [];
    const base = { provider: 'do', ...(entry.id ? { id: entry.id } : {}) };
    for (const d of await all<any>(api, '/v2/droplets', 'droplets')) {
      for (const n of [...(d?.networks?.v4 ?? []), ...(d?.networks?.v6 ?? [])]) {
        if (n?.type === 'public' && typeof n.ip_address === 'string')
          out.push({ ...base, service: 'droplet', ip: n.ip_address });
      }
    }
    for (const app of await all<any>(api, '/v2/apps', 'apps')) {
      if (typeof app?.live_domain === 'string' && app.live_domain)
        out.push({ ...base, service: 'app', host: app.live_domain });
    }
    for (const domain of await all<any>(api, '/v2/domains', 'domains')) {
      const name = String(domain?.name ?? '');
      if (!name) continue;
      out.push({ ...base, service: 'dns', host: name });
      for (const r of await all<any>(api, `/v2/domains/${encodeURIComponent(name)}/records`, 'domain_records')) {
        if (r?.type !== 'A' && r?.type !== 'AAAA' && r?.type !== 'CNAME') continue;
        const host = recordName(String(r.name ?? '@'), name);
        out.push(
          r.type === 'CNAME'
            ? { ...base, service: 'dns', host }
            : { ...base, service: 'dns', host, ip: String(r.data) },
        );
      }
    }
    return out;
  },
};
