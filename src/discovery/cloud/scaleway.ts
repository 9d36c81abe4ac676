// Scaleway Instances (https://api.scaleway.com/instance/v1, `X-Auth-Token: <scaleway_access_token>`, the API
// key's secret; `scaleway_access_key` is its id and is not sent): the servers of every zone, with their
// public addresses (`public_ips[]`, the older `public_ip`, and `ipv6`). Lists are paged with `page` /
// `per_page` (at most 100); the answer's `X-Total-Count` header gives how many servers there are.
import { CloudApiError, eachPart } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

export const ZONES = [
  'fr-par-1',
  'fr-par-2',
  'fr-par-3',
  'nl-ams-1',
  'nl-ams-2',
  'nl-ams-3',
  'pl-waw-1',
  'pl-waw-2',
  'pl-waw-3',
  'it-mil-1',
];
const PER_PAGE = 100;

export const scaleway: CloudProviderClient = {
  name: 'scw',
  base: 'https://api.scaleway.com',
  auth: (e) => (e.scaleway_access_token ? { 'X-Auth-Token': e.scaleway_access_token } : 'scaleway_access_token'),
  async list(entry, api) {
    const out: CloudAsset[] = [];
    const push = (ip: unknown) => {
      if (typeof ip === 'string' && ip)
        out.push({ provider: 'scw', ...(entry.id ? { id: entry.id } : {}), service: 'instance', ip });
    };
    await eachPart(
      api.notice,
      'zones',
      ZONES,
      (z) => z,
      async (zone) => {
        let seen = 0;
        for (let page = 1; ; page++) {
          if (page > api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
          const { doc, headers } = await api.request(
            `/instance/v1/zones/${zone}/servers?page=${page}&per_page=${PER_PAGE}`,
          );
          const servers: any[] = Array.isArray(doc?.servers) ? doc.servers : [];
          for (const s of servers) {
            const ips = Array.isArray(s?.public_ips) ? s.public_ips : [];
            for (const ip of ips) push(ip?.address);
            if (!ips.length) push(s?.public_ip?.address);
            push(s?.ipv6?.address);
          }
          seen += servers.length;
          const total = Number(headers.get('x-total-count') ?? doc?.total_count ?? seen);
          if (!servers.length || seen >= total) break;
        }
      },
    );
    return out;
  },
};
