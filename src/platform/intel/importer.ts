// `vigil intel import`: reads feeds, stores each feed's facts per CVE (idempotent: unchanged facts are not
// rewritten), then recomputes the records of the CVEs whose facts changed. One bad record is skipped with
// its reason; it never aborts the feed.
import type { Db } from '../../db/connection.ts';
import { withPrevious, type DailyFact } from './history.ts';
import * as store from './store.ts';
import { detectFormat, PARSERS } from './feeds/detect.ts';
import { readSources } from './feeds/source.ts';
import { recompute } from './recompute.ts';
import { linkTemplateFacts } from './template-link.ts';
import { BadDocument, type FeedFormat, type Sink } from './feeds/types.ts';

export interface ImportOptions {
  /** Force one format instead of detecting it per document. */
  format?: FeedFormat;
  /** The day daily feeds (EPSS, bounty) describe, YYYY-MM-DD, when the file does not say. */
  date?: string;
  onProgress?: (p: { feed: string; read: number; doc?: string }) => void;
}

export interface FeedReport {
  feed: string;
  documents: number;
  read: number;
  changed: number;
  removed: number;
  skipped: number;
  skipped_examples: { ref: string; reason: string }[];
}

export interface ImportReport {
  feeds: FeedReport[];
  /** documents that matched no known feed format */
  unrecognised: string[];
  /** documents that could not be read (broken archive members), with the reason */
  unreadable: { ref: string; reason: string }[];
  records_changed: number;
  records_total: number;
  /** CVE records linked to a template of the public catalogue (template store) */
  templates_linked: number;
}

// Feeds whose import is a complete catalogue: CVEs absent from it lose that feed's fact.
const SNAPSHOT_FEEDS = new Set(['kev']);
// Feeds that describe one day: the previous day's values are kept beside the new ones (history.ts).
const DAILY_FEEDS = new Set(['bounty', 'epss']);
const FLUSH_AT = 1000;
const MAX_EXAMPLES = 50;

const FEED_OF: Record<string, string> = { vulncheck_kev: 'vulncheck_kev' };
const feedName = (format: string) => FEED_OF[format] ?? format;

export async function importIntel(db: Db, inputs: string[], opts: ImportOptions = {}): Promise<ImportReport> {
  const reports = new Map<
    string,
    FeedReport & { started: Date; seen: Set<string>; buffer: Map<string, unknown>; sources: Set<string> }
  >();
  const touched = new Set<string>();
  const cweBuffer = new Map<string, string>();
  const changedCwes: string[] = [];
  const unrecognised: string[] = [];
  const unreadable: { ref: string; reason: string }[] = [];

  const reportFor = (feed: string) => {
    let r = reports.get(feed);
    if (!r) {
      r = {
        feed,
        documents: 0,
        read: 0,
        changed: 0,
        removed: 0,
        skipped: 0,
        skipped_examples: [],
        started: new Date(),
        seen: new Set(),
        buffer: new Map(),
        sources: new Set(),
      };
      reports.set(feed, r);
    }
    return r;
  };

  const flush = async (feed: string) => {
    const r = reportFor(feed);
    if (feed === 'cwe') {
      const rows = [...cweBuffer].map(([cwe_id, name]) => ({ cwe_id, name }));
      cweBuffer.clear();
      const changed = await store.upsertCwes(db, rows);
      changedCwes.push(...changed);
      r.changed += changed.length;
      return;
    }
    let rows = [...r.buffer].map(([cve_id, data]) => ({ cve_id, data }));
    r.buffer.clear();
    if (DAILY_FEEDS.has(feed)) rows = await withPrevious(db, feed, rows as { cve_id: string; data: DailyFact }[]);
    for (let i = 0; i < rows.length; i += FLUSH_AT) {
      const changed = await store.upsertFacts(db, feed, rows.slice(i, i + FLUSH_AT));
      r.changed += changed.length;
      for (const id of changed) touched.add(id);
    }
  };

  const sinkFor = (feed: string, docName: string): Sink => {
    const r = reportFor(feed);
    r.documents++;
    r.sources.add(docName.split('!')[0]!);
    return {
      fact(cveId, data) {
        r.read++;
        r.seen.add(cveId);
        r.buffer.set(cveId, data);
        if (r.read % 250 === 0) opts.onProgress?.({ feed, read: r.read, doc: docName });
      },
      skip(ref, reason) {
        r.skipped++;
        if (r.skipped_examples.length < MAX_EXAMPLES) r.skipped_examples.push({ ref, reason });
      },
      cwe(id, name) {
        r.read++;
        cweBuffer.set(id, name);
      },
    };
  };

  for await (const doc of readSources(inputs)) {
    if (doc.error) {
      unreadable.push({ ref: doc.name, reason: doc.error });
      continue;
    }
    const format = opts.format ?? detectFormat(doc);
    if (!format) {
      unrecognised.push(doc.name);
      continue;
    }
    const feed = feedName(format);
    const sink = sinkFor(feed, doc.name);
    try {
      PARSERS[format](doc, sink, { date: opts.date });
    } catch (err) {
      if (!(err instanceof BadDocument)) throw err;
      sink.skip(doc.name, err.message);
    }
    const r = reportFor(feed);
    if (r.buffer.size >= FLUSH_AT || cweBuffer.size >= FLUSH_AT) await flush(feed);
  }
  for (const feed of reports.keys()) await flush(feed);

  for (const [feed, r] of reports) {
    if (!SNAPSHOT_FEEDS.has(feed) || r.read === 0) continue;
    const removed = await store.deleteFactsExcept(db, feed, [...r.seen]);
    r.removed = removed.length;
    for (const id of removed) touched.add(id);
  }
  if (changedCwes.length) for (const id of await store.cvesWithCwes(db, changedCwes)) touched.add(id);
  // The template catalogue may have changed since the last import (or this import added CVE records).
  const linked = await linkTemplateFacts(db);
  for (const id of linked) touched.add(id);

  const recordsChanged = await recompute(db, [...touched], (n) => opts.onProgress?.({ feed: 'records', read: n }));
  for (const r of reports.values()) {
    await store.logImport(db, {
      feed: r.feed,
      source: [...r.sources].slice(0, 20).join(', '),
      started: r.started,
      read: r.read,
      changed: r.changed,
      skipped: r.skipped_examples,
      skippedCount: r.skipped,
    });
  }
  const total = await store.countRecords(db);
  return {
    feeds: [...reports.values()].map(({ feed, documents, read, changed, removed, skipped, skipped_examples }) => ({
      feed,
      documents,
      read,
      changed,
      removed,
      skipped,
      skipped_examples,
    })),
    unrecognised,
    unreadable,
    records_changed: recordsChanged,
    records_total: total.records,
    templates_linked: total.withTemplate,
  };
}

export { recompute, rebuildAll } from './recompute.ts';
