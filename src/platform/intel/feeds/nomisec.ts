// nomi-sec PoC-in-GitHub style lists: one JSON array of GitHub repository objects per CVE
// (YYYY/CVE-....json), each with html_url and created_at.
import { normCveId } from '../facts.ts';
import { arr, isObject, parseJson, type Doc, type Sink } from './types.ts';
import { cveFromName, mergePocs } from './pocs.ts';
import { isoDate } from '../facts.ts';

export function isNomisec(json: unknown): boolean {
  return Array.isArray(json) && isObject(json[0]) && typeof json[0].html_url === 'string' && 'full_name' in json[0];
}

export function parseNomisec(doc: Doc, sink: Sink): void {
  const list = arr(parseJson(doc));
  const byCve = new Map<string, unknown[]>();
  const fileCve = cveFromName(doc.name);
  list.forEach((repo, i) => {
    if (!isObject(repo)) return sink.skip(`${doc.name}#${i}`, 'entry is not an object');
    const id = normCveId(repo.cveId) ?? fileCve;
    if (!id) return sink.skip(`${doc.name}#${i}`, 'no CVE id in the file name or entry');
    if (typeof repo.html_url !== 'string' || !/^https?:\/\//.test(repo.html_url))
      return sink.skip(id, 'entry has no html_url');
    byCve.set(id, [...(byCve.get(id) ?? []), repo]);
  });
  for (const [id, repos] of byCve) {
    const items = repos
      .filter(isObject)
      .map((r) => ({ url: String(r.html_url), source: 'nomisec', added_at: isoDate(r.created_at) }));
    sink.fact(id, mergePocs(items, 0));
  }
}
