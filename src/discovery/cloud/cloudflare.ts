// Cloudflare (https://api.cloudflare.com/client/v4): the A, AAAA and CNAME records of every zone the
// credentials can read. Auth: `Authorization: Bearer <api_token>`, or the legacy global key
// (`X-Auth-Email: <email>`, `X-Auth-Key: <api_key>`). Lists are paged with `page` / `per_page` (zones at
// most 50); `result_info.total_pages` says how many pages there are. Answers carry `success` and `errors`.
import { CloudApiError, eachPage } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi } from './types.ts';

function results(doc: any): any[] {
  if (doc?.success === false)
    throw new CloudApiError(
      `the API refused the request: ${String(doc?.errors?.[0]?.message ?? 'no reason given').slice(0, 200)}`,
    );
  return Array.isArray(doc?.result) ? doc.result : [];
}

const all = (api: ProviderApi, path: string, perPage: number) =>
  eachPage<any>(
    api.get,
    (page) => `${path}?page=${page}&per_page=${perPage}`,
    (doc, page) => Number(doc?.result_info?.total_pages ?? 1) > page,
    results,
    api.maxPages,
  );

export const cloudflare: CloudProviderClient = {
  name: 'cloudflare',
  base: 'https://api.cloudflare.com',
  auth: (e): Record<string, string> | string => {
    if (e.api_token) return { Authorization: `Bearer ${e.api_token}` };
    if (e.email && e.api_key) return { 'X-Auth-Email': e.email, 'X-Auth-Key': e.api_key };
    return 'api_token (or email and api_key)';
  },
  async list(entry, api) {
    const out: CloudAsset[] = [];
    const base = { provider: 'cloudflare', ...(entry.id ? { id: entry.id } : {}), service: 'dns' };
    for (const zone of await all(api, '/client/v4/zones', 50)) {
      if (typeof zone?.id !== 'string') continue;
      for (const r of await all(api, `/client/v4/zones/${encodeURIComponent(zone.id)}/dns_records`, 100)) {
        if ((r?.type !== 'A' && r?.type !== 'AAAA' && r?.type !== 'CNAME') || typeof r.name !== 'string') continue;
        out.push(r.type === 'CNAME' ? { ...base, host: r.name } : { ...base, host: r.name, ip: String(r.content) });
      }
    }
    return out;
  },
};
