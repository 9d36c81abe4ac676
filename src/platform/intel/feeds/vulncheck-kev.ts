// VulnCheck KEV: an array of records, each with cve[], date_added, optional dueDate/cisa_date_added and
// vulncheck_reported_exploitation[] (dated public reports). Attribution "VulnCheck KEV" goes with the data.
import type { KevFact } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { arr, isObject, parseJson, str, type Doc, type Sink } from './types.ts';
import { ransomware } from './kev.ts';

export function isVulncheckKev(json: unknown): boolean {
  const list = isObject(json) && Array.isArray(json.data) ? json.data : json;
  return (
    Array.isArray(list) &&
    isObject(list[0]) &&
    Array.isArray(list[0].cve) &&
    ('vulncheck_xdb' in list[0] || 'date_added' in list[0])
  );
}

export function parseVulncheckKev(doc: Doc, sink: Sink): void {
  const json = parseJson(doc);
  // The API wraps records in {data: [...]}; the backup file is the bare array.
  const list = isObject(json) && Array.isArray(json.data) ? json.data : arr(json);
  list.forEach((v, i) => {
    if (!isObject(v)) return sink.skip(`${doc.name}#${i}`, 'entry is not an object');
    const ids = arr(v.cve)
      .map(normCveId)
      .filter((x): x is string => !!x);
    if (!ids.length) return sink.skip(`${doc.name}#${i}`, 'no valid CVE id in cve[]');
    const added = isoDate(v.date_added);
    if (!added) return sink.skip(ids[0]!, `date_added "${String(v.date_added)}" is not a date`);
    const fact: KevFact = {
      added_date: added,
      due_date: isoDate(v.dueDate),
      ransomware: ransomware(v.knownRansomwareCampaignUse),
      name: str(v.vulnerabilityName),
      vendor: str(v.vendorProject),
      product: str(v.product),
      required_action: str(v.required_action),
      reported_exploitation: arr(v.vulncheck_reported_exploitation).length,
    };
    for (const id of ids) sink.fact(id, fact);
  });
}
