// Turning one operator result into result events, following nuclei's rules: nothing when matchers
// exist and did not match, one event per matched matcher name, else one per named extractor, else one.
import type { Template } from '../../template/types.ts';
import type { ResultEvent } from '../../output/types.ts';

export interface OperatorOutcome {
  matched: boolean;
  matcherNames: string[];
  extracts: Record<string, string[]>;
  outputExtracts: string[];
  dynamic: Record<string, unknown>;
}

export interface EventBase {
  host: string;
  matchedAt: string;
  ip: string;
  request: string;
  response: string;
  curl: string;
}

export function baseEvent(t: Template, b: EventBase): ResultEvent {
  return {
    'template-id': t.id,
    'template-path': t.path,
    info: t.info,
    type: 'http',
    host: b.host,
    'matched-at': b.matchedAt,
    ip: b.ip,
    timestamp: new Date().toISOString(),
    request: b.request,
    response: b.response,
    'curl-command': b.curl,
    'matcher-status': true,
  };
}

export function eventsFor(t: Template, hasMatchers: boolean, r: OperatorOutcome, b: EventBase): ResultEvent[] {
  const hasExtracts = r.outputExtracts.length > 0 || Object.keys(r.extracts).length > 0;
  if (hasMatchers && !r.matched) return [];
  if (!hasMatchers && !hasExtracts) return [];
  const extracted = r.outputExtracts.length > 0 ? { 'extracted-results': r.outputExtracts } : {};
  if (r.matcherNames.length > 0) {
    return r.matcherNames.map((name) => ({ ...baseEvent(t, b), 'matcher-name': name, ...extracted }));
  }
  const named = Object.entries(r.extracts).filter(([name, v]) => name && v.length > 0);
  if (named.length > 0) {
    return named.map(([name, values]) => ({ ...baseEvent(t, b), 'extractor-name': name, 'extracted-results': values }));
  }
  return [{ ...baseEvent(t, b), ...extracted }];
}
