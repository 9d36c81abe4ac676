// The in-memory model of a nuclei-format template, shared by the loader (template/), the operators
// (operators/), the protocols (protocols/) and the runner. Field names follow the YAML keys in camelCase;
// the loader maps `stop-at-first-match` -> stopAtFirstMatch and so on. Raw YAML values that the engine
// does not interpret yet are kept under `extra` so nothing is lost.

export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical' | 'unknown';

export interface Classification {
  'cve-id'?: string[];
  'cwe-id'?: string[];
  'cvss-metrics'?: string;
  'cvss-score'?: number;
  'epss-score'?: number;
  'epss-percentile'?: number;
  cpe?: string;
}

export interface TemplateInfo {
  name: string;
  author: string[];
  tags: string[];
  severity: Severity;
  description?: string;
  impact?: string;
  remediation?: string;
  reference: string[];
  metadata: Record<string, unknown>;
  classification?: Classification;
}

export type MatcherType = 'word' | 'regex' | 'status' | 'size' | 'binary' | 'dsl' | 'xpath';

export interface Matcher {
  type: MatcherType;
  name?: string;
  part?: string; // default 'body'
  condition?: 'and' | 'or'; // default 'or'
  negative?: boolean;
  internal?: boolean;
  caseInsensitive?: boolean;
  matchAll?: boolean;
  encoding?: 'hex';
  words?: string[];
  regex?: string[];
  status?: number[];
  size?: number[];
  binary?: string[];
  dsl?: string[];
  xpath?: string[];
}

export type ExtractorType = 'regex' | 'kval' | 'json' | 'xpath' | 'dsl';

export interface Extractor {
  type: ExtractorType;
  name?: string;
  part?: string; // default 'body'
  internal?: boolean;
  caseInsensitive?: boolean;
  regex?: string[];
  group?: number;
  kval?: string[];
  json?: string[];
  xpath?: string[];
  attribute?: string;
  dsl?: string[];
}

export interface Operators {
  matchers: Matcher[];
  extractors: Extractor[];
  matchersCondition: 'and' | 'or'; // default 'or'
}

export type AttackType = 'batteringram' | 'pitchfork' | 'clusterbomb';

/** Payload sets: name -> values (files already read, one value per line). */
export type Payloads = Record<string, string[]>;

export interface HttpRequest extends Operators {
  id?: string;
  path: string[];
  raw: string[];
  method: string; // upper case, default GET
  headers: Record<string, string>;
  body?: string;
  payloads?: Payloads;
  attack: AttackType;
  redirects: boolean;
  hostRedirects: boolean;
  maxRedirects: number; // default 10 when redirects are on
  cookieReuse: boolean;
  disableCookie: boolean;
  reqCondition: boolean;
  stopAtFirstMatch: boolean;
  unsafe: boolean;
  race: boolean;
  raceCount: number;
  threads: number;
  iterateAll: boolean;
  digestUsername?: string;
  digestPassword?: string;
  skipVariablesCheck: boolean;
  skipSecretFile: boolean;
  disablePathAutomerge: boolean;
  maxSize?: number;
  readAll: boolean;
  /** `fuzzing`, `pre-condition` and other keys kept verbatim; the runner may ignore them. */
  extra: Record<string, unknown>;
}

/** A protocol block the engine parses and validates but does not run yet. */
export interface OtherProtocolBlock {
  protocol: 'dns' | 'tcp' | 'ssl' | 'file' | 'headless' | 'websocket' | 'whois' | 'code' | 'javascript';
  raw: Record<string, unknown>;
  /** The checked fields (YAML keys; matchers and extractors validated into Matcher / Extractor). */
  fields?: Record<string, unknown>;
  /** Payload sets, files already read. */
  payloads?: Payloads;
  /** javascript: the templates folder (real path) its `nuclei/fs` calls may read; unset: none. */
  filesRoot?: string;
}

export interface Template {
  id: string;
  /** Absolute or relative path the template was read from ('' for inline content). */
  path: string;
  info: TemplateInfo;
  variables: Record<string, string>; // rendered per target with the DSL
  constants: Record<string, string>; // never overridden from the command line
  /** The YAML values of `variables` / `constants` before conversion to strings (lists and maps are kept). */
  variableValues?: Record<string, unknown>;
  constantValues?: Record<string, unknown>;
  selfContained: boolean;
  stopAtFirstMatch: boolean;
  http: HttpRequest[];
  other: OtherProtocolBlock[];
  /** Protocol keys in the order the template wrote them (`http`, `dns`, `tcp` ...): multi-protocol runs follow it. */
  protocolOrder?: string[];
  workflows?: unknown[];
  flow?: string;
  /** The protocol the platform reports for the template: http, dns, tcp, ssl, file, headless, code, javascript, workflow. */
  type: string;
  /** The source text after preprocessing ({{randstr}} replaced). */
  raw: string;
  /** The text as written, when preprocessing changed it (signatures are checked over this). */
  source?: string;
}

/** One problem found while loading a template: file, field path (e.g. `http[0].matchers[1].type`) and reason. */
export interface TemplateIssue {
  file: string;
  field: string;
  reason: string;
}
