// Heroku Platform API (https://api.heroku.com, `Authorization: Bearer <heroku_api_token>`,
// `Accept: application/vnd.heroku+json; version=3`): the host of every app's `web_url`, except apps with
// internal routing (Private Spaces, not reachable from outside). Lists are paged with Range headers: the
// request asks `Range: id ..; max=1000`, a partial answer (206) carries `Next-Range`, sent back as the next
// request's Range until an answer has none.
import { CloudApiError } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

export const heroku: CloudProviderClient = {
  name: 'heroku',
  base: 'https://api.heroku.com',
  auth: (e) =>
    e.heroku_api_token
      ? { Authorization: `Bearer ${e.heroku_api_token}`, Accept: 'application/vnd.heroku+json; version=3' }
      : 'heroku_api_token',
  async list(entry, api) {
    const out: CloudAsset[] = [];
    let range: string | null = 'id ..; max=1000';
    for (let page = 0; range; page++) {
      if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const { doc, headers } = await api.request('/apps', { Range: range });
      for (const app of Array.isArray(doc) ? doc : []) {
        if (app?.internal_routing === true || typeof app?.web_url !== 'string') continue;
        try {
          out.push({
            provider: 'heroku',
            ...(entry.id ? { id: entry.id } : {}),
            service: 'app',
            host: new URL(app.web_url).hostname,
          });
        } catch {
          // Not a URL: nothing to list.
        }
      }
      range = headers.get('next-range');
    }
    return out;
  },
};
