// Result lines for people (nuclei's `[id:matcher] [http] [severity] matched-at [extracted]`) and for
// machines (one JSON object per line).
import type { ResultEvent } from './types.ts';

export interface PlainOptions {
  /** Only the matched-at value (nuclei -no-meta). */
  noMeta?: boolean;
}

export function formatPlain(ev: ResultEvent, o: PlainOptions = {}): string {
  if (o.noMeta) return ev['matched-at'];
  const name = ev['matcher-name'] ?? ev['extractor-name'];
  const parts = [
    `[${ev['template-id']}${name ? `:${name}` : ''}]`,
    `[${ev.type}]`,
    `[${ev.info.severity}]`,
    ev['matched-at'],
  ];
  const extracted = ev['extracted-results'];
  if (extracted && extracted.length > 0) parts.push(`[${extracted.join(',')}]`);
  if (!ev['matcher-status']) parts.push(ev.error ? `[failed: ${ev.error}]` : '[failed]');
  return parts.join(' ');
}

export function formatJson(ev: ResultEvent): string {
  return JSON.stringify(ev);
}
