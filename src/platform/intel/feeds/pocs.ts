// Proof-of-concept lists, one JSON per CVE (openpoc layout): per-source lists exploitdb, itw (in the
// wild), trickest, nomisec, nuclei, metasploit, holloways, and the merged openpoc[] {cve, url, added_at}.
import type { PocFact, PocItem } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { arr, isObject, parseJson, str, type Doc, type Sink } from './types.ts';

/** Per-source lists, in the order that decides a link's `source` when several lists carry it. */
const SOURCES: [string, (e: Record<string, unknown>) => PocItem | undefined][] = [
  ['metasploit', (e) => item('metasploit', e.url, e.added_at)],
  [
    'exploitdb',
    (e) =>
      str(e.id) || typeof e.id === 'number'
        ? item('exploitdb', `https://www.exploit-db.com/exploits/${String(e.id)}`, e.date_published ?? e.date_added)
        : undefined,
  ],
  ['nuclei', (e) => item('nuclei', e.url, e.added_at)],
  ['nomisec', (e) => item('nomisec', e.html_url, e.created_at)],
  ['itw', (e) => item('itw', e.reportURL, e.timeStamp)],
  ['trickest', (e) => item('trickest', e.url, e.added_at)],
  ['holloways', (e) => item('holloways', e.url, e.added_at)],
  ['openpoc', (e) => item('openpoc', e.url, e.added_at)],
];

function item(source: string, url: unknown, at: unknown): PocItem | undefined {
  const u = str(url);
  if (!u || !/^https?:\/\//i.test(u)) return undefined;
  const when = isoDate(at);
  // some lists use the Unix epoch for "unknown"
  return { url: u, source, added_at: when && when >= '1995' ? when : undefined };
}

export function isPocs(json: unknown): boolean {
  return (
    isObject(json) && (Array.isArray(json.openpoc) || (Array.isArray(json.exploitdb) && Array.isArray(json.nomisec)))
  );
}

export function parsePocs(doc: Doc, sink: Sink): void {
  const json = parseJson(doc) as Record<string, unknown>;
  const id = cveFromName(doc.name) ?? firstCve(json);
  if (!id) return sink.skip(doc.name, 'no CVE id in the file name or entries');
  const fact = mergePocs(
    SOURCES.flatMap(([key, read]) => arr(json[key]).filter(isObject).map(read)),
    arr(json.itw).length,
  );
  sink.fact(id, fact);
}

/** One item per URL: source from the first list that has it, added_at the earliest date seen. */
export function mergePocs(items: (PocItem | undefined)[], itw: number): PocFact {
  const byUrl = new Map<string, PocItem>();
  for (const it of items) {
    if (!it) continue;
    const seen = byUrl.get(it.url);
    if (!seen) byUrl.set(it.url, { ...it });
    else if (it.added_at && (!seen.added_at || it.added_at < seen.added_at)) seen.added_at = it.added_at;
  }
  return { items: [...byUrl.values()], itw };
}

export function cveFromName(name: string): string | undefined {
  const m = name.match(/CVE-\d{4}-\d{4,}/i);
  return m ? normCveId(m[0]) : undefined;
}

function firstCve(json: Record<string, unknown>): string | undefined {
  for (const [, list] of SOURCES.map(([k]) => [k, json[k]] as const)) {
    for (const e of arr(list)) {
      if (!isObject(e)) continue;
      const id = normCveId(e.cve) ?? normCveId(e.cveId) ?? normCveId(e.id);
      if (id) return id;
    }
  }
  return undefined;
}
