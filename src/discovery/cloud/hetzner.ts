// Hetzner Cloud (https://api.hetzner.cloud/v1, `Authorization: Bearer <auth_token>`): servers' public IPv4
// addresses. Lists are paged with `page` / `per_page` (at most 50); `meta.pagination.next_page` is null on
// the last page. A server's IPv6 is a /64 network, not a host: it is not listed.
import { eachPage } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

export const hetzner: CloudProviderClient = {
  name: 'hetzner',
  base: 'https://api.hetzner.cloud',
  auth: (e) => (e.auth_token ? { Authorization: `Bearer ${e.auth_token}` } : 'auth_token'),
  async list(entry, api) {
    const servers = await eachPage<any>(
      api.get,
      (page) => `/v1/servers?page=${page}&per_page=50`,
      (doc) => doc?.meta?.pagination?.next_page != null,
      (doc) => (Array.isArray(doc?.servers) ? doc.servers : []),
      api.maxPages,
    );
    const out: CloudAsset[] = [];
    for (const s of servers) {
      const ip = s?.public_net?.ipv4?.ip;
      if (typeof ip === 'string' && ip)
        out.push({ provider: 'hetzner', ...(entry.id ? { id: entry.id } : {}), service: 'instance', ip });
    }
    return out;
  },
};
