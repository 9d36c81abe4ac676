// NVD CVE API 2.0: a response page ({vulnerabilities: [{cve}]}) or bare `cve` objects.
import type { AffectedFact, CveFact } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { cpeParts } from '../cpe.ts';
import { arr, BadDocument, isObject, parseJson, str, type Doc, type Sink } from './types.ts';

const METRIC_KEYS: Record<string, string> = {
  cvssMetricV31: '3.1',
  cvssMetricV30: '3.0',
  cvssMetricV40: '4.0',
  cvssMetricV2: '2.0',
};

export function isNvd2(json: unknown): boolean {
  if (
    isObject(json) &&
    Array.isArray(json.vulnerabilities) &&
    (json.format === 'NVD_CVE' || (isObject(json.vulnerabilities[0]) && 'cve' in (json.vulnerabilities[0] as object)))
  )
    return true;
  return (
    isObject(json) &&
    typeof json.id === 'string' &&
    'descriptions' in json &&
    ('vulnStatus' in json || 'sourceIdentifier' in json)
  );
}

export function parseNvd2(doc: Doc, sink: Sink): void {
  const json = parseJson(doc);
  const items =
    isObject(json) && Array.isArray(json.vulnerabilities)
      ? json.vulnerabilities.map((v) => (isObject(v) ? v.cve : v))
      : [json];
  items.forEach((cve, i) => {
    try {
      const fact = nvdFact(cve);
      sink.fact(fact.cve_id, fact);
    } catch (err) {
      if (!(err instanceof BadDocument)) throw err;
      sink.skip(isObject(cve) && typeof cve.id === 'string' ? cve.id : `${doc.name}#${i}`, err.message);
    }
  });
}

function nvdFact(cve: unknown): CveFact {
  if (!isObject(cve)) throw new BadDocument('vulnerabilities[] item has no cve object');
  const cveId = normCveId(cve.id);
  if (!cveId) throw new BadDocument(`id "${String(cve.id)}" is not a CVE id`);
  const status = str(cve.vulnStatus);
  const fact: CveFact = {
    cve_id: cveId,
    state: status?.toLowerCase() === 'rejected' ? 'REJECTED' : 'PUBLISHED',
    vuln_status: status,
    assigner: str(cve.sourceIdentifier),
    published: isoDate(cve.published),
    updated: isoDate(cve.lastModified),
    title: str(cve.cisaVulnerabilityName),
    description: english(cve.descriptions),
    cvss: [],
    cwes: [],
    problem_text: [],
    capec: [],
    references: [],
    affected: [],
    solutions: [],
    workarounds: [],
    configurations: [],
    kev_added: isoDate(cve.cisaExploitAdd),
    kev_due: isoDate(cve.cisaActionDue),
  };
  const metrics = isObject(cve.metrics) ? cve.metrics : {};
  for (const [key, version] of Object.entries(METRIC_KEYS)) {
    for (const m of arr(metrics[key])) {
      if (!isObject(m) || !isObject(m.cvssData)) continue;
      const d = m.cvssData;
      const vector = str(d.vectorString);
      const score = Number(d.baseScore);
      if (!vector || !Number.isFinite(score)) continue;
      fact.cvss.push({
        version,
        vector,
        score,
        severity: (str(d.baseSeverity) ?? str(m.baseSeverity))?.toLowerCase(),
        source: `nvd:${str(m.source) ?? 'unknown'}`,
        primary: m.type === 'Primary',
      });
    }
  }
  for (const w of arr(cve.weaknesses)) {
    for (const d of arr(isObject(w) ? w.description : undefined)) {
      const id = isObject(d) ? str(d.value)?.toUpperCase() : undefined;
      if (id && /^CWE-\d+$/.test(id) && !fact.cwes.some((c) => c.id === id)) fact.cwes.push({ id });
    }
  }
  for (const r of arr(cve.references)) {
    if (isObject(r) && str(r.url)) {
      fact.references.push({
        url: str(r.url)!,
        tags: arr(r.tags).filter((t): t is string => typeof t === 'string'),
        source: str(r.source) ?? 'nvd',
      });
    }
  }
  const byProduct = new Map<string, AffectedFact>();
  for (const cpe of vulnerableCpes(cve.configurations)) {
    const p = cpeParts(cpe);
    if (!p) continue;
    const key = `${p.vendor}:${p.product}`;
    const entry = byProduct.get(key) ?? { vendor: p.vendor, product: p.product, cpes: [] };
    if (!entry.cpes.includes(cpe)) entry.cpes.push(cpe);
    byProduct.set(key, entry);
  }
  fact.affected = [...byProduct.values()];
  return fact;
}

function vulnerableCpes(configurations: unknown): string[] {
  const out: string[] = [];
  for (const conf of arr(configurations)) {
    for (const node of arr(isObject(conf) ? conf.nodes : undefined)) {
      for (const m of arr(isObject(node) ? node.cpeMatch : undefined)) {
        if (isObject(m) && m.vulnerable !== false && typeof m.criteria === 'string') out.push(m.criteria);
      }
    }
  }
  return out;
}

function english(list: unknown): string | undefined {
  const items = arr(list).filter(isObject);
  const en = items.find((d) => d.lang === 'en') ?? items[0];
  return en ? str(en.value) : undefined;
}
