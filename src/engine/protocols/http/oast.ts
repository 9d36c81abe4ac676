// Out-of-band checks in http blocks (nuclei's interactsh rules): every {{interactsh-url}} marker of a request
// gets a fresh name from the scan's interactsh client; when the block's operators read interactsh_* values,
// its result waits for an interaction with one of the request's names and the operators run then, over the
// response's values and the interaction's (interactsh_protocol, _request, _response, _ip).
import type { Extractor, Matcher } from '../../template/types.ts';
import type { OastInteraction } from '../../oast/client.ts';

const MARKER = /\{\{(interactsh-url(?:_\d+){0,3})\}\}/g;

/** The distinct interactsh marker names in a request's text (usually just "interactsh-url"). */
export function oastMarkers(text: string): string[] {
  if (!text.includes('interactsh-url')) return [];
  return [...new Set([...text.matchAll(MARKER)].map((m) => m[1]!))];
}

const readsCache = new WeakMap<object, boolean>();

/** Whether a block's matchers or extractors read interactsh values (nuclei's HasMatchers; every protocol's). */
export function readsInteractions(r: { matchers: Matcher[]; extractors: Extractor[] }): boolean {
  let v = readsCache.get(r);
  if (v === undefined) {
    v =
      r.matchers.some((m) => /^interactsh/i.test(m.part ?? '') || (m.dsl ?? []).some((d) => /interactsh/i.test(d))) ||
      r.extractors.some((e) => /^interactsh/i.test(e.part ?? ''));
    readsCache.set(r, v);
  }
  return v;
}

/** The values an interaction adds for the operators (a DNS request is matched in lower case, as nuclei). */
export function interactionValues(i: OastInteraction): Record<string, string> {
  const request = i['raw-request'] ?? '';
  return {
    interactsh_protocol: i.protocol,
    interactsh_request: i.protocol.toLowerCase() === 'dns' ? request.toLowerCase() : request,
    interactsh_response: i['raw-response'] ?? '',
    interactsh_ip: i['remote-address'],
  };
}
