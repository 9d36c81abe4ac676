// CISA Known Exploited Vulnerabilities catalog (known_exploited_vulnerabilities.json).
import type { KevFact } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { arr, isObject, parseJson, str, type Doc, type Sink } from './types.ts';

export function isKev(json: unknown): boolean {
  return (
    isObject(json) &&
    Array.isArray(json.vulnerabilities) &&
    ('catalogVersion' in json || (isObject(json.vulnerabilities[0]) && 'cveID' in json.vulnerabilities[0]))
  );
}

export function parseKev(doc: Doc, sink: Sink): void {
  const json = parseJson(doc) as Record<string, unknown>;
  arr(json.vulnerabilities).forEach((v, i) => {
    if (!isObject(v)) return sink.skip(`${doc.name}#${i}`, 'entry is not an object');
    const id = normCveId(v.cveID);
    if (!id) return sink.skip(`${doc.name}#${i}`, `cveID "${String(v.cveID)}" is not a CVE id`);
    const added = isoDate(v.dateAdded);
    if (!added) return sink.skip(id, `dateAdded "${String(v.dateAdded)}" is not a date`);
    const fact: KevFact = {
      added_date: added,
      due_date: isoDate(v.dueDate),
      ransomware: ransomware(v.knownRansomwareCampaignUse),
      name: str(v.vulnerabilityName),
      vendor: str(v.vendorProject),
      product: str(v.product),
      required_action: str(v.requiredAction),
      cwes: arr(v.cwes)
        .filter((c): c is string => typeof c === 'string' && /^CWE-\d+$/i.test(c))
        .map((c) => c.toUpperCase()),
    };
    sink.fact(id, fact);
  });
}

/** "Known" -> true, "Unknown" -> false (the catalog's two values). */
export function ransomware(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  return v.trim().toLowerCase() === 'known';
}
