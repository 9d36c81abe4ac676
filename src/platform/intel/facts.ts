// What each feed says about one CVE, normalised by its importer. These are stored per (CVE, feed) in
// intel_facts and combined into the served record by record.ts; feeds can arrive in any order.

export interface CvssFact {
  version: string; // '2.0' | '3.0' | '3.1' | '4.0'
  vector: string;
  score: number;
  severity?: string;
  /** who published it: 'cna', 'adp:<shortName>', 'nvd:<source>' */
  source: string;
  primary: boolean;
}

export interface ReferenceFact {
  url: string;
  tags: string[];
  source: string;
}

export interface AffectedFact {
  vendor?: string;
  product?: string;
  cpes: string[];
  repo?: string;
  collection_url?: string;
  package_name?: string;
}

/** CVE JSON 5 and NVD API 2.0 both normalise to this. */
export interface CveFact {
  cve_id: string;
  state: string; // PUBLISHED | REJECTED
  vuln_status?: string; // NVD's vulnStatus
  assigner?: string;
  published?: string;
  updated?: string;
  title?: string;
  description?: string;
  cvss: CvssFact[];
  cwes: { id: string; name?: string }[];
  problem_text: string[];
  capec: string[];
  references: ReferenceFact[];
  affected: AffectedFact[];
  solutions: string[];
  workarounds: string[];
  configurations: string[];
  /** CISA KEV facts carried inside the CVE record (ADP kev metric, NVD cisaExploitAdd). */
  kev_added?: string;
  kev_due?: string;
  /** CISA ADP SSVC decision points. */
  ssvc_exploitation?: string;
}

export interface KevFact {
  added_date?: string;
  due_date?: string;
  ransomware?: boolean;
  name?: string;
  vendor?: string;
  product?: string;
  required_action?: string;
  cwes?: string[];
  /** VulnCheck: dated public reports of exploitation. */
  reported_exploitation?: number;
}

export interface EpssFact {
  score: number;
  percentile: number;
  date?: string;
  /** the values of the previous day imported (history.ts) */
  prev?: { score: number; percentile: number; date?: string };
}

export interface PocItem {
  url: string;
  source: string;
  added_at?: string;
}

export interface PocFact {
  items: PocItem[];
  /** number of in-the-wild exploitation reports in the list */
  itw: number;
}

export interface BountyFact {
  date: string;
  rank: number;
  reports: number;
  prev?: { date: string; rank: number; reports: number };
}

/**
 * What the 'template' feed stores per CVE: which public catalogue template (templates table) is linked, with
 * the digest and flags the record shows, so a change to any of them changes the fact and recomputes the
 * record. The template's content is read from the template store when records are computed.
 */
export interface TemplateLink {
  uri: string;
  digest: string;
  ref: string | null;
  release_tag: string | null;
  template_type: string;
  is_draft: boolean;
  is_early: boolean;
  is_github: boolean;
  is_new: boolean;
  is_svcteam: boolean;
  created_at: string;
}

/** The linked template as computeRecord reads it: the link plus the template store's row content. */
export interface TemplateFact extends TemplateLink {
  id: string;
  name?: string;
  severity?: string;
  type?: string;
  description?: string;
  impact?: string;
  remediation?: string;
  author: string[];
  tags: string[];
  classification: Record<string, unknown>;
  metadata: Record<string, unknown>;
  ai_meta?: Record<string, unknown>;
  raw: string;
}

export interface ExposureFact {
  max_hosts?: number;
  min_hosts?: number;
  values: Record<string, unknown>[];
}

export interface CveFacts {
  cve5?: CveFact;
  nvd2?: CveFact;
  kev?: KevFact;
  vulncheck_kev?: KevFact;
  epss?: EpssFact;
  pocs?: PocFact;
  nomisec?: PocFact;
  bounty?: BountyFact;
  template?: TemplateFact;
  exposure?: ExposureFact;
}

export const CVE_ID = /^CVE-\d{4}-\d{4,}$/;

/** Upper-cases and checks a CVE id; undefined when it is not one. */
export function normCveId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.trim().toUpperCase();
  return CVE_ID.test(id) ? id : undefined;
}

/** ISO 8601 in UTC; a timestamp without a zone is read as UTC. Undefined for unparseable input. */
export function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  let text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00Z';
  else if (/^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
