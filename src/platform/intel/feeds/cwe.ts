// CWE names: {"CWE-79": {"name": ..., "abstraction": ..., "status": ...}} (MITRE CWE list as JSON), or an
// array of {id|cwe_id, name}.
import { arr, isObject, parseJson, str, type Doc, type Sink } from './types.ts';

export function isCweNames(json: unknown): boolean {
  if (isObject(json)) {
    const first = Object.entries(json)[0];
    return !!first && /^CWE-\d+$/i.test(first[0]) && isObject(first[1]) && typeof first[1].name === 'string';
  }
  return (
    Array.isArray(json) &&
    isObject(json[0]) &&
    typeof json[0].name === 'string' &&
    /^CWE-\d+$/i.test(String(json[0].cwe_id ?? json[0].id ?? ''))
  );
}

export function parseCweNames(doc: Doc, sink: Sink): void {
  const json = parseJson(doc);
  const entries: [unknown, unknown][] = Array.isArray(json)
    ? arr(json).map((e) => [isObject(e) ? (e.cwe_id ?? e.id) : undefined, isObject(e) ? e.name : undefined])
    : Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, isObject(v) ? v.name : v]);
  entries.forEach(([id, name], i) => {
    let cweId = typeof id === 'number' ? `CWE-${id}` : str(id)?.toUpperCase();
    if (cweId && /^\d+$/.test(cweId)) cweId = `CWE-${cweId}`;
    if (!cweId || !/^CWE-\d+$/.test(cweId)) return sink.skip(`${doc.name}#${i}`, `"${String(id)}" is not a CWE id`);
    const n = str(name);
    if (!n) return sink.skip(cweId, 'no name');
    sink.cwe(cweId, n);
  });
}
