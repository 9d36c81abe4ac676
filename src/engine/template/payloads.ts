// Payload sets: inline lists, aggression-level maps ({low, medium, high}) or a file name whose lines are
// the values. Files are looked up like nuclei does: the templates root, then the template's folder and
// each folder above it. Like nuclei without -lfa, a file outside the templates root is refused, and
// template *text* (uploads, private templates, anything a user sends the platform) never reaches the
// filesystem at all: only templates read from disk (fromDisk) or a templates root may name files, so an
// uploaded template can never send /etc/passwd line by line to a target, whatever name it claims.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Payloads } from './types.ts';
import { IssueList, join } from './issues.ts';
import { isMap, isScalar, kind, readList, scalarText, setOwn } from './values.ts';

export type Aggression = 'low' | 'medium' | 'high';

export interface PayloadOptions {
  /** Path of the template file (folders above it are searched for payload files). */
  file: string;
  /** Root folder of the template collection, searched first. */
  templatesRoot?: string;
  /** Which aggression levels to include (cumulative); default low. */
  aggression?: Aggression;
  /** A payload file that cannot be found is an error (default) or only a warning. */
  missingPayloadFile?: 'error' | 'warn';
  /** Allow payload files anywhere on disk (nuclei's -lfa); default: only inside the templates root. */
  allowLocalFileAccess?: boolean;
  /**
   * The template was read from `file` on disk by the one running the scanner (vigil scan -t, validate).
   * Without it and without a templates root, `file` is only a label and no file is ever read.
   */
  fromDisk?: boolean;
  /**
   * Payload files already resolved (file name as the template writes it -> values), e.g. stored with a
   * catalogue template at import: used instead of the filesystem, which is then never touched.
   */
  payloadFiles?: Record<string, string[]>;
  /**
   * The templates folder a javascript block's `nuclei/fs` calls may read, when it is not the one found
   * from `templatesRoot` or the file (scriptFilesRoot); `vigil scan --templates-dir` gives it.
   */
  filesRoot?: string;
  /** Told of every payload file read from disk, so a caller can keep its values (catalogue import). */
  onPayloadFile?: (name: string, values: string[]) => void;
}

const LEVELS: Aggression[] = ['low', 'medium', 'high'];
// Many templates share word lists; the modification time keeps a long-running server from serving stale ones.
const fileCache = new Map<string, { mtimeMs: number; lines: string[] }>();
let cachedValues = 0;

export function readPayloads(v: unknown, field: string, out: IssueList, opts: PayloadOptions): Payloads | undefined {
  if (!isMap(v)) {
    out.error(field, `must be a map of payload names to values, got ${kind(v)}`);
    return undefined;
  }
  const result: Payloads = {};
  for (const [name, value] of Object.entries(v)) {
    const f = join(field, name);
    if (Array.isArray(value)) {
      // An empty item (`- `) is an empty string in nuclei, e.g. a blank password to try.
      const values = readList(
        value.map((x) => (x === null ? '' : x)),
        f,
        out,
      );
      if (value.length === 0) out.error(f, 'payload list is empty');
      if (values) setOwn(result, name, values);
    } else if (isMap(value)) {
      const values = readLevels(value, f, out, opts.aggression ?? 'low');
      if (values) setOwn(result, name, values);
    } else if (isScalar(value)) {
      const values = readPayloadFile(scalarText(value), f, out, opts);
      if (values) setOwn(result, name, values);
    } else {
      out.error(f, `must be a list, a file name or a map of aggression levels, got ${kind(value)}`);
    }
  }
  return result;
}

function readLevels(
  v: Record<string, unknown>,
  field: string,
  out: IssueList,
  aggression: Aggression,
): string[] | undefined {
  const upTo = LEVELS.indexOf(aggression);
  const values: string[] = [];
  let ok = true;
  for (const [level, list] of Object.entries(v)) {
    const normalized = level === 'default' ? 'low' : level;
    const index = LEVELS.indexOf(normalized as Aggression);
    if (index < 0) {
      out.error(join(field, level), `unknown aggression level (use ${LEVELS.join(', ')})`);
      ok = false;
      continue;
    }
    const items = readList(list, join(field, level), out);
    if (!items) ok = false;
    else if (index <= upTo) values.push(...items);
  }
  return ok ? values : undefined;
}

function readPayloadFile(name: string, field: string, out: IssueList, opts: PayloadOptions): string[] | undefined {
  if (name.includes('\n')) {
    out.error(field, 'a payload file name must be a single line (use a YAML list for inline values)');
    return undefined;
  }
  if (opts.payloadFiles && Object.prototype.hasOwnProperty.call(opts.payloadFiles, name)) {
    const values = opts.payloadFiles[name]!;
    if (values.length === 0) out.error(field, `payload file "${name}" has no values`);
    return values;
  }
  const found = resolvePayloadFile(name, opts);
  if (!found) {
    // Never read: reported as an error, or with missingPayloadFile 'warn' as a warning with no values.
    let reason = `payload file "${name}" not found (looked in the templates root and the template's folders)`;
    if (!allowedRoot(opts)) {
      reason = `payload file "${name}" cannot be used: templates given as text (uploads, private templates) may only use inline payload lists`;
      // Never a warning: for text there is no file to be missing, only a name that must not be read.
      out.error(field, reason);
      return undefined;
    } else if (outsideRoot(name, opts)) {
      reason = `payload file "${name}" is outside the templates folder (allowLocalFileAccess permits it)`;
    }
    if (opts.missingPayloadFile === 'warn') {
      out.warn(field, reason);
      return [];
    }
    out.error(field, reason);
    return undefined;
  }
  const { mtimeMs } = statSync(found);
  let lines = fileCache.get(found)?.mtimeMs === mtimeMs ? fileCache.get(found)!.lines : undefined;
  if (!lines) {
    lines = wordListLines(readFileSync(found, 'utf8'));
    // Bounded by the values it holds (word lists can be large): past the limit it starts over.
    cachedValues += lines.length;
    if (cachedValues > 2_000_000 || fileCache.size >= 1000) {
      fileCache.clear();
      cachedValues = lines.length;
    }
    fileCache.set(found, { mtimeMs, lines });
  }
  if (lines.length === 0) out.error(field, `payload file "${name}" has no values`);
  opts.onPayloadFile?.(name, lines);
  return lines;
}

/** The values of a word list: its lines without line ends (LF or CRLF), empty ones left out. */
export function wordListLines(text: string): string[] {
  // The usual word list (LF only, no empty line) is one split, a single builtin call.
  if (!text.includes('\r') && !text.includes('\n\n') && text.charCodeAt(0) !== 10) {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (stop > start) out.push(text.slice(start, stop));
    start = end + 1;
  }
  return out;
}

/**
 * The folder payload files must stay inside: the templates root; without one, the template's own folder
 * tree when it was read from disk (a file the user pointed at); none for inline text (uploads).
 */
function allowedRoot(opts: PayloadOptions): string | undefined {
  if (opts.allowLocalFileAccess) return path.parse(path.resolve(opts.file || '.')).root;
  if (opts.templatesRoot) return realOrSelf(path.resolve(opts.templatesRoot));
  if (opts.fromDisk && opts.file) return path.parse(path.resolve(opts.file)).root;
  return undefined;
}

/**
 * The folder a javascript block's `nuclei/fs` may read (nuclei's templates directory): everything with
 * allowLocalFileAccess; else `filesRoot`; else, for templates read from disk, the nuclei-templates
 * checkout holding them (the nearest folder with a `.nuclei-ignore`, at or above the templates root or
 * the template's folder), or that root / folder itself; none for template text (uploads, the platform's
 * stored templates), which then reads no file at all.
 */
export function scriptFilesRoot(opts: PayloadOptions): string | undefined {
  if (opts.allowLocalFileAccess) return path.parse(path.resolve(opts.file || '.')).root;
  if (opts.filesRoot) return realOrSelf(path.resolve(opts.filesRoot));
  let start: string | undefined;
  if (opts.templatesRoot) start = path.resolve(opts.templatesRoot);
  else if (opts.fromDisk && opts.file) start = path.dirname(path.resolve(opts.file));
  if (!start) return undefined;
  if (statSync(start, { throwIfNoEntry: false })?.isFile()) start = path.dirname(start);
  return realOrSelf(checkoutOf(start) ?? start);
}

const checkouts = new Map<string, string | null>();

/** The nearest folder at or above `dir` that holds `.nuclei-ignore` (a nuclei-templates checkout). */
function checkoutOf(dir: string): string | undefined {
  const hit = checkouts.get(dir);
  if (hit !== undefined) return hit ?? undefined;
  let found: string | undefined;
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.nuclei-ignore'))) {
      found = d;
      break;
    }
    if (path.dirname(d) === d) break;
  }
  if (checkouts.size > 1000) checkouts.clear();
  checkouts.set(dir, found ?? null);
  return found;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Inside the root by its real path, so a symlink in the tree cannot lead out of it. */
function inside(file: string, root: string): boolean {
  const check = (f: string) => {
    const rel = path.relative(root, f);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return check(path.resolve(file)) && (!existsSync(file) || check(realOrSelf(file)));
}

export function resolvePayloadFile(name: string, opts: PayloadOptions): string | undefined {
  const candidates: string[] = [];
  if (path.isAbsolute(name)) candidates.push(path.resolve(name));
  else {
    if (opts.templatesRoot) candidates.push(path.resolve(opts.templatesRoot, name));
    let dir = path.dirname(path.resolve(opts.file || '.'));
    for (;;) {
      candidates.push(path.join(dir, name));
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  const root = allowedRoot(opts);
  if (!root) return undefined;
  return candidates.find((c) => inside(c, root) && isFile(c));
}

/** True when the name exists only outside the allowed root (so the error can say why). */
export function outsideRoot(name: string, opts: PayloadOptions): boolean {
  const root = allowedRoot(opts);
  if (!root || opts.allowLocalFileAccess) return false;
  const base = opts.templatesRoot ?? path.dirname(path.resolve(opts.file || '.'));
  const target = path.resolve(base, name);
  return !inside(target, root) && isFile(target);
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}
