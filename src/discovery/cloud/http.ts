// Requests to a provider's API. Errors name the status and the API's own message, never the request's
// headers or body (they carry the credentials).
import type { ApiGetter, ApiSend } from './types.ts';

export class CloudApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const xmlText = (body: string, tag: string) =>
  body.match(new RegExp(`<${tag}>([^<]{1,2000})</${tag}>`))?.[1]?.trim() ?? '';

/**
 * The message an API put in its error body: JSON shapes of DigitalOcean, Linode, Hetzner, Cloudflare,
 * Google, Azure, Scaleway, Fastly (`msg`) and Alibaba (`Code`, `Message`), OAuth token endpoints
 * (`error_description`), AWS XML (`<Code>`, `<Message>`).
 */
function apiMessage(body: string): string {
  try {
    const j = JSON.parse(body);
    const m =
      j?.message ??
      j?.error?.message ??
      j?.error_description ??
      j?.errors?.[0]?.reason ??
      j?.errors?.[0]?.message ??
      j?.error ??
      j?.msg ??
      (typeof j?.Message === 'string'
        ? [j.Code, j.Message].filter((x) => typeof x === 'string').join(': ')
        : undefined);
    return typeof m === 'string' ? m.replace(/\s+/g, ' ').slice(0, 300) : '';
  } catch {
    const code = xmlText(body, 'Code');
    const message = xmlText(body, 'Message');
    return [code, message].filter(Boolean).join(': ').replace(/\s+/g, ' ').slice(0, 300);
  }
}

export function apiGetter(
  base: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal?: AbortSignal,
): ApiGetter {
  const request = apiRequester(base, headers, timeoutMs, signal);
  return async (pathAndQuery, extra) => (await request(pathAndQuery, extra)).doc;
}

/** Any request (method, headers, body as given); a 2xx answer's text and headers, else a CloudApiError. */
export function apiSender(timeoutMs: number, signal?: AbortSignal): ApiSend {
  return async (url, init = {}) => {
    const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
    let res: Response;
    try {
      res = await fetch(url, {
        method: init.method ?? 'GET',
        headers: { 'User-Agent': 'vigil-discovery', ...init.headers },
        ...(init.body !== undefined ? { body: init.body } : {}),
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
    } catch (e) {
      const err = e as Error;
      throw new CloudApiError(
        err.name === 'TimeoutError'
          ? 'the API did not answer in time'
          : `the API is unreachable (${(err.cause as Error)?.message ?? err.message})`,
      );
    }
    const text = await res.text();
    if (!res.ok) {
      const m = apiMessage(text);
      throw new CloudApiError(`the API answered HTTP ${res.status}${m ? `: ${m}` : ''}`, res.status);
    }
    return { text, headers: res.headers };
  };
}

/** JSON of an answer's text, or a CloudApiError. */
export function json(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new CloudApiError('the API answered something that is not JSON');
  }
}

export function apiRequester(base: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal) {
  const send = apiSender(timeoutMs, signal);
  return async (pathAndQuery: string, extra: Record<string, string> = {}): Promise<{ doc: any; headers: Headers }> => {
    const res = await send(base + pathAndQuery, { headers: { Accept: 'application/json', ...headers, ...extra } });
    return { doc: json(res.text), headers: res.headers };
  };
}

/** Page numbers 1, 2, ... while `more(doc)` says there is a next page (at most maxPages). */
export async function eachPage<T>(
  get: ApiGetter,
  pathOf: (page: number) => string,
  more: (doc: any, page: number) => boolean,
  take: (doc: any) => T[],
  maxPages: number,
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const doc = await get(pathOf(page));
    out.push(...take(doc));
    if (!more(doc, page)) return out;
  }
  throw new CloudApiError(`the listing did not end after ${maxPages} pages`);
}

/**
 * Runs the parts of a listing (services, regions, projects, zones) one after the other. A part that fails
 * is a notice and the others go on; when every part fails, the first failure is the listing's.
 */
export async function eachPart<T>(
  notice: (m: string) => void,
  what: string,
  items: T[],
  nameOf: (item: T) => string,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const failed: string[] = [];
  let first: Error | undefined;
  for (const item of items) {
    try {
      await fn(item);
    } catch (e) {
      if (!(e instanceof CloudApiError)) throw e;
      first ??= e;
      failed.push(`${nameOf(item)}: ${e.message}`);
    }
  }
  if (first && failed.length === items.length) throw first;
  if (failed.length)
    notice(
      `${failed.length} of ${items.length} ${what} not listed (${failed.slice(0, 3).join('; ')}${failed.length > 3 ? '; ...' : ''})`,
    );
}
