// Which paths belong to the API: the console's catch-all route never answers them with its page, and the
// rate limit counts them even when that route is the one matched. Both ask here, about the same decoded
// path, so a percent-encoded spelling (`/%761/…`) cannot be an API path to one and a console path to the other.
const API_PATH = /^\/(v\d+\/|v\d+$|docs(\/|$)|openapi\.json$|healthz$)/;

/** A request URL's path without its query, percent-decoded (as sent when it does not decode). */
export function requestPath(url: string): string {
  const raw = url.split('?')[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // Fastify answers such a URL 400 before any route; kept whole here all the same
  }
}

/** Whether a decoded request path (requestPath) is one of the API's. */
export const isApiPath = (decodedPath: string): boolean => API_PATH.test(decodedPath);
