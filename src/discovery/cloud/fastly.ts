// Fastly (https://api.fastly.com, `Fastly-Key: <fastly_api_key>`): the domains of every service, as
// cloudlist lists them (names, resolved later). Services are paged with `page` / `per_page` (the answer's
// `Link` header names the next page while there is one); a service's domains (`/service/<id>/domain`) come
// for each of its versions: those of the active version (the service's `version`) are taken.
import { CloudApiError } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

const PER_PAGE = 100;

export const fastly: CloudProviderClient = {
  name: 'fastly',
  base: 'https://api.fastly.com',
  auth: (e) => (e.fastly_api_key ? { 'Fastly-Key': e.fastly_api_key } : 'fastly_api_key'),
  async list(entry, api) {
    const services: any[] = [];
    for (let page = 1; ; page++) {
      if (page > api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const { doc, headers } = await api.request(`/service?page=${page}&per_page=${PER_PAGE}`);
      const items = Array.isArray(doc) ? doc : [];
      services.push(...items);
      const link = headers.get('link');
      if (!items.length || (link !== null ? !/rel="?next"?/.test(link) : items.length < PER_PAGE)) break;
    }
    const out: CloudAsset[] = [];
    for (const s of services) {
      if (typeof s?.id !== 'string') continue;
      const domains = await api.get(`/service/${encodeURIComponent(s.id)}/domain`);
      const active = typeof s.version === 'number' ? s.version : undefined;
      for (const d of Array.isArray(domains) ? domains : []) {
        if (typeof d?.name !== 'string' || d.deleted_at) continue;
        if (active !== undefined && typeof d.version === 'number' && d.version !== active) continue;
        out.push({ provider: 'fastly', ...(entry.id ? { id: entry.id } : {}), service: 'cdn', host: d.name });
      }
    }
    return out;
  },
};
