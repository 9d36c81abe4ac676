// The contract between a feed parser and the importer: a parser turns one document (a file's text) into
// facts per CVE, and reports each record it could not use with the reason instead of failing the feed.

export type FeedFormat =
  'cve5' | 'nvd2' | 'kev' | 'vulncheck_kev' | 'epss' | 'pocs' | 'nomisec' | 'cwe' | 'bounty' | 'exposure';

export const FEED_FORMATS: FeedFormat[] = [
  'cve5',
  'nvd2',
  'kev',
  'vulncheck_kev',
  'epss',
  'pocs',
  'nomisec',
  'cwe',
  'bounty',
  'exposure',
];

/** One input document: its name (path, archive member or URL) and its text. */
export interface Doc {
  name: string;
  text: string;
  /** set when the document could not be read (a broken archive member); text is then empty */
  error?: string;
}

export interface Sink {
  /** A fact about one CVE for the given feed (the fact replaces that feed's previous fact for the CVE). */
  fact(cveId: string, data: unknown): void;
  /** A record that was skipped; `ref` names it (CVE id, line number, file). */
  skip(ref: string, reason: string): void;
  /** A CWE name (the cwe feed). */
  cwe(id: string, name: string): void;
}

export interface ParseOptions {
  /** The day a daily feed (EPSS, bounty counts) describes, YYYY-MM-DD, when the file does not say. */
  date?: string;
}

export type Parser = (doc: Doc, sink: Sink, opts: ParseOptions) => void;

export class BadDocument extends Error {}

export function parseJson(doc: Doc): unknown {
  try {
    return JSON.parse(doc.text);
  } catch (err) {
    throw new BadDocument(`not valid JSON: ${(err as Error).message}`);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
