// JSON GETs against a provider's API. Errors name the status and the API's own message, never the
// request's headers (they carry the credentials).
import type { ApiGetter } from './types.ts';

export class CloudApiError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/** The message an API put in its error body (DigitalOcean, Linode, Hetzner and Cloudflare shapes). */
function apiMessage(body: string): string {
  try {
    const j = JSON.parse(body);
    const m = j?.message ?? j?.error?.message ?? j?.errors?.[0]?.reason ?? j?.errors?.[0]?.message;
    return typeof m === 'string' ? m.slice(0, 200) : '';
  } catch {
    return '';
  }
}

export function apiGetter(base: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): ApiGetter {
  const request = apiRequester(base, headers, timeoutMs, signal);
  return async (pathAndQuery, extra) => (await request(pathAndQuery, extra)).doc;
}

export function apiRequester(base: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal) {
  return async (pathAndQuery: string, extra: Record<string, string> = {}): Promise<{ doc: any; headers: Headers }> => {
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    let res: Response;
    try {
      res = await fetch(base + pathAndQuery, {
        headers: { Accept: 'application/json', 'User-Agent': 'vigil-discovery', ...headers, ...extra },
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
    } catch (e) {
      const err = e as Error;
      throw new CloudApiError(err.name === 'TimeoutError' ? 'the API did not answer in time' : `the API is unreachable (${(err.cause as Error)?.message ?? err.message})`);
    }
    const text = await res.text();
    if (!res.ok) {
      const m = apiMessage(text);
      throw new CloudApiError(`the API answered HTTP ${res.status}${m ? `: ${m}` : ''}`, res.status);
    }
    try {
      return { doc: JSON.parse(text), headers: res.headers };
    } catch {
      throw new CloudApiError('the API answered something that is not JSON');
    }
  };
}

/** Page numbers 1, 2, ... while `more(doc)` says there is a next page (at most maxPages). */
export async function eachPage<T>(get: ApiGetter, pathOf: (page: number) => string, more: (doc: any, page: number) => boolean,
  take: (doc: any) => T[], maxPages: number): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const doc = await get(pathOf(page));
    out.push(...take(doc));
    if (!more(doc, page)) return out;
  }
  throw new CloudApiError(`the listing did not end after ${maxPages} pages`);
}
