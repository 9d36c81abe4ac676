// Facet counts of a search, counted in this process over a columnar copy of the templates' facet
// columns, instead of by aggregate queries in the database. Grouping is where the database spent a search's
// time: `tags` alone sends about 9,000 values through unnest and a hash aggregate for 1,900 matches, each
// value a tuple of the executor (an integer id per tag instead of text was not faster); here a value is one
// typed-array increment. The database still decides which templates match (and so the scope: one team never
// counts another's private templates); it sends their keys as one text value.
//
// Exactness: the copy is tagged with the table's change counter (template_changes, bumped in the same
// transaction as every write), read in the same statement as the copy; a search reads the counter in the
// statement that lists its matches. Equal counters mean the same committed table, so the counts are those an
// aggregate over the same rows would give (facet-index.test.ts compares them with a plain count). On any other counter the
// search counts in the database as before and a reload starts in the background (one at a time, at most one
// every five seconds while writes go on). Age buckets use the database's clock, read in the same statement.
// VIGIL_FACET_INDEX=off turns it off.
import type { Db } from '../../db/connection.ts';
import { VALUE_FACETS, emptyCounts, type FacetCounts } from './facets.ts';
import { matchKeys, readFacetColumns, tableClock } from './facet-store.ts';

/** Above this many templates (all teams') the copy is not kept: the database counts, as before. */
const MAX_TEMPLATES = 250_000;
/**
 * A reload starts at most this often while the table keeps changing (it costs 60 to 300 ms of CPU for the
 * 10,765 templates of the corpus; on PGlite that blocks the event loop); when it was too big, this seldom.
 */
const RELOAD_GAP_MS = 5_000;
const TOO_BIG_GAP_MS = 600_000;

const SCALARS = VALUE_FACETS.filter((f) => !f.array);
const LISTS = VALUE_FACETS.filter((f) => f.array);
/** Where a row of readFacetColumns holds the flags and created_at. */
const FLAGS_AT = 1 + SCALARS.length + LISTS.length;

/** Values of one facet, in C collation (UTF-8 byte) order: a lower code wins a tie, as in the SQL. */
interface Dictionary {
  values: string[];
}
/** One code per template (-1: NULL). */
interface ScalarColumn extends Dictionary {
  codes: Int32Array;
}
/** A template's values are codes[start[row] .. start[row + 1]) (-1: a NULL element). */
interface ListColumn extends Dictionary {
  start: Uint32Array;
  codes: Int32Array;
}

interface FacetIndex {
  version: string;
  rowOf: Map<number, number>;
  scalars: ScalarColumn[];
  lists: ListColumn[];
  isNew: Uint8Array;
  isEarly: Uint8Array;
  /** created_at in microseconds since the epoch (exact below 2^53). */
  created: Float64Array;
  /** Owner of each template: '' (public catalogue) or a team id. */
  owner: ScalarColumn;
}

interface IndexState {
  index?: FacetIndex;
  loading?: Promise<void>;
  lastLoad: number;
  /** The table had more than MAX_TEMPLATES rows at the last load. */
  tooBig?: boolean;
}

const states = new WeakMap<object, IndexState>();

export function facetIndexOn(): boolean {
  return process.env.VIGIL_FACET_INDEX !== 'off';
}

function stateOf(db: Db): IndexState {
  let s = states.get(db.scope);
  if (!s) states.set(db.scope, (s = { lastLoad: 0 }));
  return s;
}

function byteOrder(values: Iterable<string>): string[] {
  return [...values]
    .map((v) => ({ v, b: Buffer.from(v) }))
    .sort((x, y) => Buffer.compare(x.b, y.b))
    .map((x) => x.v);
}

function codesOf(values: string[]): Map<string, number> {
  return new Map(values.map((v, i) => [v, i]));
}

async function load(db: Db): Promise<FacetIndex | 'too big' | undefined> {
  const { version, rows, committed } = await readFacetColumns(db, MAX_TEMPLATES + 1);
  if (!committed) return undefined; // read inside a transaction that wrote: keep the old copy
  if (rows.length > MAX_TEMPLATES) return 'too big';
  const n = rows.length;
  const scalars = SCALARS.map((_, i): ScalarColumn => {
    const at = 1 + i;
    const values = byteOrder(new Set(rows.map((r) => r[at] as string | null).filter((v) => v !== null)));
    const code = codesOf(values);
    const codes = new Int32Array(n);
    rows.forEach((r, k) => {
      const v = r[at] as string | null;
      codes[k] = v === null ? -1 : code.get(v)!;
    });
    return { values, codes };
  });
  const lists = LISTS.map((_, i): ListColumn => {
    const at = 1 + SCALARS.length + i;
    const arrays = rows.map((r) => (r[at] as (string | null)[] | null) ?? []);
    const values = byteOrder(new Set(arrays.flat().filter((v): v is string => v !== null)));
    const code = codesOf(values);
    const start = new Uint32Array(n + 1);
    let total = 0;
    arrays.forEach((a, k) => {
      start[k] = total;
      total += a.length;
    });
    start[n] = total;
    const codes = new Int32Array(total);
    let k = 0;
    for (const a of arrays) for (const v of a) codes[k++] = v === null ? -1 : code.get(v)!;
    return { values, start, codes };
  });
  const ownerValues = [...new Set(rows.map((r) => r[FLAGS_AT + 3] as string))];
  const ownerCode = codesOf(ownerValues);
  const owner = { values: ownerValues, codes: Int32Array.from(rows, (r) => ownerCode.get(r[FLAGS_AT + 3] as string)!) };
  const rowOf = new Map<number, number>();
  const isNew = new Uint8Array(n);
  const isEarly = new Uint8Array(n);
  const created = new Float64Array(n);
  rows.forEach((r, k) => {
    rowOf.set(r[0], k);
    isNew[k] = r[FLAGS_AT] ? 1 : 0;
    isEarly[k] = r[FLAGS_AT + 1] ? 1 : 0;
    created[k] = r[FLAGS_AT + 2] as number;
  });
  return { version, rowOf, scalars, lists, isNew, isEarly, created, owner };
}

/** Starts a reload unless one runs or one ended less than RELOAD_GAP_MS ago. Errors leave the old copy. */
function reload(db: Db, s: IndexState): void {
  if (s.loading || Date.now() - s.lastLoad < (s.tooBig ? TOO_BIG_GAP_MS : RELOAD_GAP_MS)) return;
  s.loading = load(db)
    .then((index) => {
      if (index === undefined) return;
      if (index === 'too big') {
        s.index = undefined;
        s.tooBig = true;
      } else {
        s.index = index;
        s.tooBig = false;
      }
    })
    .catch(() => {})
    .finally(() => {
      s.loading = undefined;
      s.lastLoad = Date.now();
    });
}

/** Loads (or reloads) the copy now and waits for it: for tests and benchmarks that need it in place. */
export async function loadFacetIndex(db: Db): Promise<void> {
  const s = stateOf(db);
  if (s.loading) await s.loading;
  s.lastLoad = 0;
  reload(db, s);
  await s.loading;
}

/** The table version the copy was loaded at (undefined: none loaded): tests check which path answers. */
export function facetIndexVersion(db: Db): string | undefined {
  return states.get(db.scope)?.index?.version;
}

/**
 * The copy when it is switched on and loaded at `version` (the counter the caller read, if any); else
 * undefined, with a reload started (at most one every few seconds) for the searches after this one.
 */
function currentCopy(db: Db, version: number | undefined): { s: IndexState; index: FacetIndex } | undefined {
  if (!facetIndexOn()) return undefined;
  const s = stateOf(db);
  const index = s.index;
  if (!index || (version !== undefined && String(version) !== index.version)) {
    reload(db, s);
    return undefined;
  }
  return { s, index };
}

/**
 * Facet counts of the templates matching `source` (FROM list and WHERE clause over $1..$n of `values`),
 * from the copy; undefined when it cannot answer (no copy yet, another table version, switched off): then
 * the caller counts in the database. `version`: the counter already read by the caller, if any.
 */
export async function countFromIndex(
  db: Db,
  source: string,
  values: unknown[],
  size: number,
  version: number | undefined,
): Promise<FacetCounts | undefined> {
  const copy = currentCopy(db, version);
  if (!copy) return undefined;
  const { s, index } = copy;
  const row = await matchKeys(db, source, values);
  if (row.version !== index.version) {
    reload(db, s);
    return undefined;
  }
  const rows = parseKeys(row.keys, index.rowOf);
  if (!rows) {
    reload(db, s);
    return undefined;
  }
  return count(index, rows, row.ageLimits, size);
}

/**
 * Facet counts of every template of `owners` ('' = public catalogue, a team id = its private templates), from
 * the copy; undefined when it cannot answer (as countFromIndex).
 */
export async function countScopeFromIndex(
  db: Db,
  owners: string[],
  size: number,
  version: number | undefined,
): Promise<FacetCounts | undefined> {
  const copy = currentCopy(db, version);
  if (!copy) return undefined;
  const { s, index } = copy;
  const clock = await tableClock(db);
  if (clock.version !== index.version) {
    reload(db, s);
    return undefined;
  }
  return count(index, ownedRows(index, owners), clock.ageLimits, size);
}

/** The copy's rows of `owners` ('' = public catalogue, a team id = its private templates). */
function ownedRows(index: FacetIndex, owners: string[]): Int32Array {
  const codes = new Set(owners.map((o) => index.owner.values.indexOf(o)).filter((c) => c >= 0));
  const all = index.owner.codes;
  let n = 0;
  for (let r = 0; r < all.length; r++) if (codes.has(all[r]!)) n++;
  const rows = new Int32Array(n);
  let k = 0;
  for (let r = 0; r < all.length; r++) if (codes.has(all[r]!)) rows[k++] = r;
  return rows;
}

/** A filter of q (query.ts) in the terms the copy can evaluate. */
interface IndexFilter {
  column: string;
  kind: string;
  values: string[];
  negate: boolean;
}

/** Per row: does it match the filter's condition (before negation)? undefined: the copy lacks the column. */
function filterTest(index: FacetIndex, f: IndexFilter): ((row: number) => boolean) | undefined {
  const scalar = SCALARS.findIndex((x) => x.key === f.column);
  // author compares in lower case in SQL (lower() of the database's locale): left to the database.
  if (f.kind === 'text' && scalar >= 0) {
    const col = index.scalars[scalar]!;
    // type is held as NULLIF(type, ''): '' and NULL both never equal a (non-empty) value, as in SQL.
    const codes = new Set(f.values.map((v) => col.values.indexOf(v)).filter((c) => c >= 0));
    return (r) => codes.has(col.codes[r]!);
  }
  if (f.kind === 'array' && f.column === 'tags') {
    const col = index.lists[LISTS.findIndex((x) => x.key === 'tags')]!;
    const codes = new Set(f.values.map((v) => col.values.indexOf(v)).filter((c) => c >= 0));
    return (r) => {
      for (let k = col.start[r]!; k < col.start[r + 1]!; k++) if (codes.has(col.codes[k]!)) return true;
      return false;
    };
  }
  if (f.kind === 'bool' && (f.column === 'is_new' || f.column === 'is_early')) {
    const flags = f.column === 'is_new' ? index.isNew : index.isEarly;
    const yes = f.values.includes('true');
    const no = f.values.includes('false');
    return (r) => (flags[r] ? yes : no);
  }
  return undefined;
}

/**
 * Facet counts of the templates of `owners` matching every filter (q without words), matched and counted
 * in the copy: no scan in the database at all. undefined when a filter is on a column the copy lacks (id,
 * cve, template_type, author) or the copy cannot answer (as countFromIndex).
 */
export async function countFilteredFromIndex(
  db: Db,
  owners: string[],
  filters: IndexFilter[],
  size: number,
  version: number | undefined,
): Promise<FacetCounts | undefined> {
  const copy = currentCopy(db, version);
  if (!copy) return undefined;
  const { s, index } = copy;
  const tests: { test: (row: number) => boolean; negate: boolean }[] = [];
  for (const f of filters) {
    const test = filterTest(index, f);
    if (!test) return undefined;
    tests.push({ test, negate: f.negate });
  }
  const clock = await tableClock(db);
  if (clock.version !== index.version) {
    reload(db, s);
    return undefined;
  }
  const scope = ownedRows(index, owners);
  const rows = scope.filter((r) => tests.every((t) => t.test(r) !== t.negate));
  return count(index, rows, clock.ageLimits, size);
}

/** "12,7,31" -> the copy's row numbers; undefined when a key is not in the copy. */
function parseKeys(text: string, rowOf: Map<number, number>): Int32Array | undefined {
  if (text === '') return new Int32Array(0);
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) n++;
  const rows = new Int32Array(n);
  let k = 0;
  let num = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 44;
    if (c === 44) {
      const r = rowOf.get(num);
      if (r === undefined) return undefined;
      rows[k++] = r;
      num = 0;
    } else num = num * 10 + (c - 48);
  }
  return rows;
}

/** The top `size` codes by count (ties: lower code first, i.e. C collation), as FacetCounts rows. */
function top(facet: string, dict: string[], counts: Int32Array, size: number, out: FacetCounts['top']): void {
  if (size === 0) return;
  const before = (a: number, b: number) => counts[a]! > counts[b]! || (counts[a] === counts[b] && a < b);
  if (size > 32) {
    const codes: number[] = [];
    for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) codes.push(c);
    codes.sort((a, b) => counts[b]! - counts[a]! || a - b);
    for (const c of codes.slice(0, size)) out.push({ facet, value: dict[c]!, n: counts[c]! });
    return;
  }
  // Thousands of distinct tags: keep the best `size` in a small sorted array rather than sort them all.
  const best: number[] = [];
  for (let c = 0; c < counts.length; c++) {
    if (counts[c] === 0) continue;
    if (best.length === size && !before(c, best[size - 1]!)) continue;
    let i = best.length === size ? size - 1 : best.length;
    while (i > 0 && before(c, best[i - 1]!)) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = c;
  }
  for (const c of best) out.push({ facet, value: dict[c]!, n: counts[c]! });
}

function count(index: FacetIndex, rows: Int32Array, ageLimits: number[], size: number): FacetCounts {
  const out = emptyCounts();
  out.total = rows.length;
  SCALARS.forEach((f, i) => {
    const col = index.scalars[i]!;
    const counts = new Int32Array(col.values.length);
    let missing = 0;
    for (const r of rows) {
      const c = col.codes[r]!;
      if (c < 0) missing++;
      else counts[c]!++;
    }
    out.missing[f.key] = missing;
    out.valued[f.key] = rows.length - missing;
    top(f.key, col.values, counts, size, out.top);
  });
  LISTS.forEach((f, i) => {
    const col = index.lists[i]!;
    const counts = new Int32Array(col.values.length);
    let missing = 0;
    let valued = 0;
    for (const r of rows) {
      const from = col.start[r]!;
      const to = col.start[r + 1]!;
      if (from === to) missing++;
      valued += to - from;
      for (let k = from; k < to; k++) {
        const c = col.codes[k]!;
        if (c >= 0) counts[c]!++;
      }
    }
    out.missing[f.key] = missing;
    out.valued[f.key] = valued;
    top(f.key, col.values, counts, size, out.top);
  });
  let isNew = 0;
  let isEarly = 0;
  const ages = [0, 0, 0, 0];
  const [week, month, year] = ageLimits as [number, number, number];
  for (const r of rows) {
    isNew += index.isNew[r]!;
    isEarly += index.isEarly[r]!;
    const c = index.created[r]!;
    ages[c >= week ? 0 : c >= month ? 1 : c >= year ? 2 : 3]!++;
  }
  out.flags.is_new = { true: isNew, false: rows.length - isNew };
  out.flags.is_early = { true: isEarly, false: rows.length - isEarly };
  out.ages = { last_week: ages[0]!, last_month: ages[1]!, last_year: ages[2]!, older: ages[3]! };
  return out;
}
