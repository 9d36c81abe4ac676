// Internet exposure counts per CVE (Vigil's own format, JSON array or JSON Lines):
// {cve_id, min_hosts, max_hosts, values: [{id, min_hosts, max_hosts, engine_a: {min_hosts, max_hosts, queries[]}, engine_b: {...}}]}
import type { ExposureFact } from '../facts.ts';
import { normCveId } from '../facts.ts';
import { arr, isObject, type Doc, type Sink } from './types.ts';

export function isExposure(json: unknown): boolean {
  const first = Array.isArray(json) ? json[0] : json;
  return (
    isObject(first) &&
    'cve_id' in first &&
    Array.isArray(first.values) &&
    ('max_hosts' in first || 'min_hosts' in first)
  );
}

export function parseExposure(doc: Doc, sink: Sink): void {
  const text = doc.text.trim();
  let rows: unknown[];
  try {
    rows = text.startsWith('[')
      ? arr(JSON.parse(text))
      : text
          .split(/\r?\n/)
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l));
  } catch (err) {
    return sink.skip(doc.name, `not valid JSON: ${(err as Error).message}`);
  }
  rows.forEach((r, i) => {
    const id = isObject(r) ? normCveId(r.cve_id) : undefined;
    if (!isObject(r) || !id) return sink.skip(`${doc.name}#${i}`, 'no valid cve_id');
    const int = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
    const stats = (e: unknown) =>
      isObject(e)
        ? {
            min_hosts: int(e.min_hosts),
            max_hosts: int(e.max_hosts),
            queries: arr(e.queries).filter((q): q is string => typeof q === 'string'),
          }
        : undefined;
    const fact: ExposureFact = {
      min_hosts: int(r.min_hosts),
      max_hosts: int(r.max_hosts),
      values: arr(r.values)
        .filter(isObject)
        .map((v) => ({
          id: typeof v.id === 'string' ? v.id : undefined,
          min_hosts: int(v.min_hosts),
          max_hosts: int(v.max_hosts),
          engine_a: stats(v.engine_a),
          engine_b: stats(v.engine_b),
        })),
    };
    sink.fact(id, fact);
  });
}
