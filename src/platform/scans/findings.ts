// Findings as the engine reports them (nuclei's JSON result fields) and the stable hash that identifies
// one finding across retries, rescans and imports.
import { createHash } from 'node:crypto';

/** One result event in nuclei's JSON-lines shape (the fields the platform reads; others are kept). */
export interface ResultEvent {
  'template-id': string;
  'template-path'?: string;
  'template-url'?: string;
  info?: { name?: string; severity?: string; tags?: string[] | string; [k: string]: unknown };
  type?: string;
  host?: string;
  'matched-at'?: string;
  'matcher-name'?: string;
  'extractor-name'?: string;
  'extracted-results'?: string[];
  ip?: string;
  port?: string | number;
  timestamp?: string;
  request?: string;
  response?: string;
  'curl-command'?: string;
  [k: string]: unknown;
}

const SEVERITIES = new Set(['info', 'low', 'medium', 'high', 'critical', 'unknown']);

export function severityOf(ev: Pick<ResultEvent, 'info'>): string {
  const s = String(ev.info?.severity ?? 'unknown').toLowerCase();
  return SEVERITIES.has(s) ? s : 'unknown';
}

/** Template, matcher (or extractor), host and matched location: the same finding always hashes the same. */
export function vulnHash(ev: ResultEvent): string {
  const parts = [
    ev['template-id'],
    ev['matcher-name'] ?? '',
    ev['extractor-name'] ?? '',
    ev.host ?? '',
    ev['matched-at'] ?? ev.host ?? '',
  ];
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
}

export function tagsOf(ev: ResultEvent): string[] {
  const t = ev.info?.tags;
  if (Array.isArray(t)) return t.map(String);
  if (typeof t === 'string')
    return t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

/** The port of a finding: explicit, else from the matched URL or host:port, else the scheme's default. */
export function portOf(ev: ResultEvent): number | null {
  if (ev.port !== undefined && ev.port !== '' && Number.isInteger(Number(ev.port))) return Number(ev.port);
  for (const v of [ev['matched-at'], ev.host]) {
    if (!v) continue;
    try {
      const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `tcp://${v}`);
      if (u.port) return Number(u.port);
      if (u.protocol === 'https:') return 443;
      if (u.protocol === 'http:') return 80;
    } catch {
      // not a URL: no port
    }
  }
  return null;
}

/** The row stored for one finding. */
export interface FindingRow {
  vulnHash: string;
  templateId: string;
  templateUrl: string | null;
  templatePath: string | null;
  host: string;
  matchedAt: string;
  port: number | null;
  severity: string;
  name: string | null;
  tags: string[];
  resultType: string | null;
  event: ResultEvent;
}

export function toFindingRow(ev: ResultEvent): FindingRow {
  return {
    vulnHash: vulnHash(ev),
    templateId: ev['template-id'],
    templateUrl: ev['template-url'] ?? null,
    templatePath: ev['template-path'] ?? null,
    host: ev.host ?? '',
    matchedAt: ev['matched-at'] ?? ev.host ?? '',
    port: portOf(ev),
    severity: severityOf(ev),
    name: ev.info?.name ?? null,
    tags: tagsOf(ev),
    resultType: ev.type ?? null,
    event: ev,
  };
}

/** The short event text kept in a scan log record: the result without request and response bodies. */
export function logEventText(ev: ResultEvent): string {
  const { request: _q, response: _r, 'curl-command': _c, ...rest } = ev;
  return JSON.stringify(rest);
}
