// CVE JSON 5.x records (the CVE list, cvelistV5 / vulnrichment): the CNA container plus ADP containers
// (CISA's adds SSVC, a KEV date, CVSS, CWE and CPEs).
import type { AffectedFact, CveFact, CvssFact, ReferenceFact } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { arr, BadDocument, isObject, parseJson, str, type Doc, type Sink } from './types.ts';

const METRIC_KEYS: Record<string, string> = { cvssV3_1: '3.1', cvssV3_0: '3.0', cvssV4_0: '4.0', cvssV2_0: '2.0' };

export function isCve5(json: unknown): boolean {
  return (
    isObject(json) && (json.dataType === 'CVE_RECORD' || (isObject(json.cveMetadata) && isObject(json.containers)))
  );
}

export function parseCve5(doc: Doc, sink: Sink): void {
  const json = parseJson(doc);
  const records = Array.isArray(json) ? json : [json];
  for (const rec of records) {
    const id = isObject(rec) && isObject(rec.cveMetadata) ? rec.cveMetadata.cveId : undefined;
    try {
      const fact = cve5Fact(rec);
      sink.fact(fact.cve_id, fact);
    } catch (err) {
      if (!(err instanceof BadDocument)) throw err;
      sink.skip(typeof id === 'string' ? id : doc.name, err.message);
    }
  }
}

export function cve5Fact(rec: unknown): CveFact {
  if (!isObject(rec) || !isObject(rec.cveMetadata)) throw new BadDocument('not a CVE JSON 5 record (no cveMetadata)');
  const meta = rec.cveMetadata;
  const cveId = normCveId(meta.cveId);
  if (!cveId) throw new BadDocument(`cveMetadata.cveId "${String(meta.cveId)}" is not a CVE id`);
  const containers = isObject(rec.containers) ? rec.containers : {};
  const cna = isObject(containers.cna) ? containers.cna : {};
  const adps = arr(containers.adp).filter(isObject);

  const fact: CveFact = {
    cve_id: cveId,
    state: str(meta.state)?.toUpperCase() ?? 'PUBLISHED',
    assigner: str(meta.assignerShortName),
    published: isoDate(meta.datePublished) ?? isoDate(cna.datePublic),
    updated: isoDate(meta.dateUpdated),
    title: str(cna.title),
    description: english(cna.descriptions) ?? english(cna.rejectedReasons),
    cvss: [],
    cwes: [],
    problem_text: [],
    capec: [],
    references: [],
    affected: [],
    solutions: englishAll(cna.solutions),
    workarounds: englishAll(cna.workarounds),
    configurations: englishAll(cna.configurations),
  };

  const containersWithSource: [string, Record<string, unknown>][] = [
    ['cna', cna],
    ...adps.map((a): [string, Record<string, unknown>] => [
      `adp:${str(isObject(a.providerMetadata) ? a.providerMetadata.shortName : undefined) ?? 'unknown'}`,
      a,
    ]),
  ];
  const cnaName =
    str(isObject(cna.providerMetadata) ? cna.providerMetadata.shortName : undefined) ?? fact.assigner ?? 'cna';
  for (const [source, c] of containersWithSource) {
    readMetrics(c, source, fact);
    readProblemTypes(c, fact);
    for (const r of arr(c.references)) {
      if (!isObject(r) || !str(r.url)) continue;
      const ref: ReferenceFact = {
        url: str(r.url)!,
        tags: arr(r.tags).filter((t): t is string => typeof t === 'string'),
        source: source === 'cna' ? cnaName : source.slice(4),
      };
      fact.references.push(ref);
    }
    for (const a of arr(c.affected)) {
      if (isObject(a)) fact.affected.push(affected(a));
    }
  }
  for (const imp of arr(cna.impacts)) {
    const text = isObject(imp) ? english(imp.descriptions) : undefined;
    if (text) fact.capec.push(text);
  }
  return fact;
}

function readMetrics(c: Record<string, unknown>, source: string, fact: CveFact): void {
  for (const m of arr(c.metrics)) {
    if (!isObject(m)) continue;
    for (const [key, version] of Object.entries(METRIC_KEYS)) {
      const v = m[key];
      if (!isObject(v)) continue;
      const vector = str(v.vectorString);
      const score = typeof v.baseScore === 'number' ? v.baseScore : Number(v.baseScore);
      if (!vector || !Number.isFinite(score)) continue;
      const cvss: CvssFact = {
        version,
        vector,
        score,
        severity: str(v.baseSeverity)?.toLowerCase(),
        source,
        primary: source === 'cna',
      };
      fact.cvss.push(cvss);
    }
    const other = isObject(m.other) ? m.other : undefined;
    if (!other || !isObject(other.content)) continue;
    if (other.type === 'kev') {
      fact.kev_added = isoDate(other.content.dateAdded) ?? fact.kev_added;
    } else if (other.type === 'ssvc') {
      for (const opt of arr(other.content.options)) {
        if (isObject(opt) && typeof opt.Exploitation === 'string')
          fact.ssvc_exploitation = opt.Exploitation.toLowerCase();
      }
    }
  }
}

function readProblemTypes(c: Record<string, unknown>, fact: CveFact): void {
  for (const pt of arr(c.problemTypes)) {
    for (const d of arr(isObject(pt) ? pt.descriptions : undefined)) {
      if (!isObject(d)) continue;
      const text = str(d.description);
      const id = str(d.cweId) ?? text?.match(/^CWE-\d+/)?.[0];
      if (id && /^CWE-\d+$/i.test(id)) {
        const upper = id.toUpperCase();
        if (!fact.cwes.some((w) => w.id === upper)) {
          // "CWE-22 Improper Limitation ..." -> the name after the id
          const name = text?.replace(/^CWE-\d+\s*[:-]?\s*/i, '').trim();
          fact.cwes.push({ id: upper, name: name || undefined });
        }
      } else if (text && !fact.problem_text.includes(text)) {
        fact.problem_text.push(text);
      }
    }
  }
}

function affected(a: Record<string, unknown>): AffectedFact {
  const clean = (v: unknown) => {
    const s = str(v);
    return s && !/^n\/?a$/i.test(s) ? s : undefined;
  };
  return {
    vendor: clean(a.vendor),
    product: clean(a.product),
    cpes: arr(a.cpes).filter((c): c is string => typeof c === 'string'),
    repo: str(a.repo),
    collection_url: str(a.collectionURL),
    package_name: str(a.packageName),
  };
}

function english(list: unknown): string | undefined {
  const items = arr(list).filter(isObject);
  const en = items.find((d) => typeof d.lang === 'string' && d.lang.toLowerCase().startsWith('en')) ?? items[0];
  return en ? str(en.value) : undefined;
}

function englishAll(list: unknown): string[] {
  return arr(list)
    .filter(isObject)
    .filter((d) => typeof d.lang !== 'string' || d.lang.toLowerCase().startsWith('en'))
    .map((d) => str(d.value))
    .filter((v): v is string => !!v);
}
