// Lazy templates: a folder load reads each file's metadata (id, info, self-contained, which protocol
// blocks it has) and compiles the rest (requests, matchers, payloads, flow) the first time something
// reads it. Filtering a 10,000-template corpus by tag, severity or type then costs a YAML parse of the
// `id` and `info` sections only; the templates a scan runs are compiled once, when it first touches them.
//
// The heavy fields are getters until compiled, then plain data properties. A template whose compile finds
// errors throws on those reads; compileTemplate() is the way to ask without throwing.
//
// The text itself is not kept: a 10,000-file corpus is about 20 MB of it (twice that for the files with
// characters past Latin-1, which V8 holds as two-byte strings), most of what a lazy load kept resident.
// The first read of `raw` (the signature check) or the compile reads the file again and checks it
// against the SHA-256 taken at load, so what is checked and compiled is what the metadata came from; a
// file changed or gone since is a failed compile. A file with {{randstr}} keeps only the values drawn at
// load (its `raw` is made again from the file with them, `source` is the file as written): keeping both
// texts of those 337 corpus files was 1.9 MB.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { crypto } from '../lazy.ts';
import type { Template, TemplateIssue } from './types.ts';
import { IssueList } from './issues.ts';
import { parseInfo } from './info.ts';
import { ID_PATTERN, MAX_ID_LENGTH, OTHER_KEYS, SCHEMA, TOP_LEVEL, TYPE_ORDER, parsePrepared } from './parse.ts';
import type { ParseOptions, ParseResult } from './parse.ts';
import { isMap, readBool, readString } from './values.ts';
import { replaceRandstr } from './randstr.ts';

/** The fields only a full compile fills; everything else of a Template comes from the metadata. */
const HEAVY = [
  'variables',
  'constants',
  'variableValues',
  'constantValues',
  'stopAtFirstMatch',
  'http',
  'other',
  'protocolOrder',
  'workflows',
  'flow',
] as const;

/**
 * A template whose heavy fields are getters on the prototype (small objects of one shape, where
 * 10,000 objects of own accessors each cost several MB more); compiling defines them on the
 * object itself as plain data. Not for spreading before compile: compileTemplate() first.
 * What the compile needs is kept in private fields (not seen by spreading or JSON), on the template
 * itself rather than in an object of its own beside it (10,000 objects fewer for a corpus).
 */
class LazyTemplate {
  /** The text as written when {{randstr}} changed it: a getter until compiled (see `raw`). */
  declare source?: string;
  /** The file's text, once read again (see #digest). */
  #text?: string;
  /** SHA-256 (base64) of the text read at load. */
  #digest?: string;
  /** The {{randstr}} values drawn at load (name -> value), when the file has any. */
  #randstr?: Map<string, string>;
  #opts?: ParseOptions;
  /** Protocol keys present in the file (http, dns, tcp, code, javascript, workflows ...), from the metadata. */
  #kinds?: ReadonlySet<string>;
  /** Set once compiled with errors: reads of heavy fields throw, compileTemplate reports them. */
  #failed?: ParseResult;
  /** Until compiled: the heavy fields are still the prototype's getters. */
  #pending = true;

  constructor(
    readonly id: string,
    readonly path: string,
    readonly info: Template['info'],
    readonly selfContained: boolean,
    readonly type: string,
    text: string,
    randstr: Map<string, string> | undefined,
    opts: ParseOptions,
    kinds: ReadonlySet<string>,
  ) {
    this.#digest = digestOf(text);
    this.#randstr = randstr;
    this.#opts = opts;
    this.#kinds = kinds;
  }

  static pending(t: unknown): LazyTemplate | undefined {
    return t instanceof LazyTemplate && t.#pending ? t : undefined;
  }

  /**
   * The file's text, read again and checked against the load's digest. A file that cannot be read or
   * changed since the load fails the template's compile and reads as the empty text (which no signature
   * verifies).
   */
  text(): string {
    if (this.#text !== undefined) return this.#text;
    let reason: string;
    try {
      const text = readFileSync(this.path, 'utf8');
      if (digestOf(text) === this.#digest) return (this.#text = text);
      reason = 'the file changed since the templates were loaded: load them again';
    } catch (err) {
      reason = `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
    this.#failed = { issues: [{ file: this.path, field: '', reason }], warnings: [] };
    return (this.#text = '');
  }

  /** The text with {{randstr}} replaced by the values drawn at load, as the metadata was read from. */
  rawText(): string {
    const text = this.text();
    if (!this.#randstr || this.#failed) return text;
    const raw = replaceRandstr(text, this.#randstr);
    ownRaw(this, raw);
    return raw;
  }

  /** The text as written, for a template whose {{randstr}} were replaced (undefined for the others). */
  written(): string | undefined {
    return this.#randstr ? this.text() : undefined;
  }

  hasKind(protocol: string): boolean {
    return this.#kinds!.has(protocol);
  }

  /** See compileTemplate. */
  compile(): { issues: TemplateIssue[]; warnings: TemplateIssue[] } {
    const text = this.text();
    if (this.#failed) return { issues: this.#failed.issues, warnings: [] };
    const raw = Object.hasOwn(this, 'raw') ? (this as unknown as Template).raw : this.rawText();
    const r = parsePrepared(text, raw, this.path, this.#opts);
    const warnings = r.warnings.filter((w) => w.field !== 'info' && !w.field.startsWith('info.'));
    if (!r.template) {
      this.#failed = r;
      return { issues: r.issues, warnings };
    }
    const full = r.template;
    const values: PropertyDescriptorMap = {};
    for (const key of HEAVY) values[key] = { value: full[key], enumerable: true, configurable: true, writable: true };
    values.raw = { value: raw, enumerable: true, configurable: true, writable: true };
    // As a full parse: the text as written only when {{randstr}} changed it.
    if (this.#randstr) values.source = { value: text, enumerable: true, configurable: true, writable: true };
    Object.defineProperties(this, values);
    this.#pending = false;
    this.#text = this.#digest = this.#opts = this.#kinds = this.#randstr = undefined;
    return { issues: [], warnings };
  }
}

// One call per file, no Hash object (and its native state) left per template for the GC to finalize.
const digestOf = (text: string) => crypto().hash('sha256', text, 'base64');

function ownRaw(t: object, raw: string): void {
  Object.defineProperty(t, 'raw', { value: raw, enumerable: true, configurable: true, writable: true });
}

// `raw` and `source` of a template not compiled yet: read on first use (see LazyTemplate.text).
Object.defineProperty(LazyTemplate.prototype, 'raw', {
  enumerable: true,
  configurable: true,
  get(this: LazyTemplate) {
    return LazyTemplate.pending(this)?.rawText() ?? '';
  },
  set(this: LazyTemplate, value: string) {
    ownRaw(this, value);
  },
});
Object.defineProperty(LazyTemplate.prototype, 'source', {
  enumerable: true,
  configurable: true,
  get(this: LazyTemplate) {
    return LazyTemplate.pending(this)?.written();
  },
  set(this: LazyTemplate, value: string | undefined) {
    Object.defineProperty(this, 'source', { value, enumerable: true, configurable: true, writable: true });
  },
});

for (const key of HEAVY) {
  Object.defineProperty(LazyTemplate.prototype, key, {
    enumerable: true,
    configurable: true,
    get(this: Template) {
      const r = compileTemplate(this);
      if (r.issues.length > 0) {
        const why = r.issues.map((i) => `${i.field || '(template)'}: ${i.reason}`).join('; ');
        throw new Error(`template ${this.id} (${this.path}) is invalid: ${why}`);
      }
      return this[key];
    },
  });
}

/**
 * Metadata now, the rest on first use. Files the metadata scan cannot read safely (flow-style or
 * multi-document YAML, an unknown or repeated top-level key, a problem in `id` or `info`, no protocol
 * block) are parsed in full right away, so their problems are reported at load as before.
 */
export function parseLazily(
  text: string,
  file: string,
  opts: ParseOptions,
  strings?: Map<string, string>,
): ParseResult {
  // Values drawn now, kept instead of the text: the raw text is made again from the file on first use.
  const randstr = text.includes('{{randstr') ? new Map<string, string>() : undefined;
  const raw = randstr ? replaceRandstr(text, randstr) : text;
  const meta = readMetadata(raw, file, strings);
  if (!meta) return parsePrepared(text, raw, file, opts);
  const { id, info, selfContained, type, kinds } = meta;
  const template = new LazyTemplate(id, file, info, selfContained, type, text, randstr, opts, kinds);
  return { template: template as unknown as Template, issues: [], warnings: meta.warnings };
}

/**
 * Compiles a lazy template now (no-op for one parsed in full or compiled already). Returns the
 * compile's errors (the template cannot run) and its warnings other than the `info` ones the load
 * already reported.
 */
export function compileTemplate(t: Template): { issues: TemplateIssue[]; warnings: TemplateIssue[] } {
  return LazyTemplate.pending(t)?.compile() ?? { issues: [], warnings: [] };
}

/** Whether the template has a block of this protocol (code, javascript ...), without compiling it. */
export function hasProtocolBlock(t: Template, protocol: string): boolean {
  const lazy = LazyTemplate.pending(t);
  if (lazy) return lazy.hasKind(protocol);
  return t.other.some((b) => b.protocol === protocol);
}

interface Metadata {
  id: string;
  info: Template['info'];
  selfContained: boolean;
  type: string;
  kinds: ReadonlySet<string>;
  warnings: TemplateIssue[];
}

/** The few combinations of protocol kinds, one shared set each (a set per template cost ~1.4 MB). */
const KIND_SETS = new Map<string, ReadonlySet<string>>();
function sharedKinds(kinds: Set<string>): ReadonlySet<string> {
  const key = [...kinds].sort().join(',');
  let shared = KIND_SETS.get(key);
  if (!shared) KIND_SETS.set(key, (shared = kinds));
  return shared;
}

/**
 * The same string once: a corpus's `info` repeats tags, severities, authors, CVSS vectors and reference
 * prefixes (155,000 strings, 62,000 different), so the values of one load are shared. Not the name,
 * description, remediation and references: nearly each template's own (of 9,206 descriptions 83 repeat,
 * of 19,784 references 16,100 are different), the longest strings to hash, and left out they keep the
 * table under 32,768 entries: half the size, and the tables it outgrows are large objects that only a
 * full collection frees (1.4 MB fewer after a corpus load, against 0.37 MB of sharing given up).
 */
function internInfo(info: Template['info'], strings: Map<string, string>): void {
  const o = info as unknown as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!UNSHARED.has(k)) o[k] = intern(o[k], strings);
}
const UNSHARED = new Set(['name', 'description', 'remediation', 'reference']);

function intern<T>(v: T, strings: Map<string, string>): T {
  if (typeof v === 'string') {
    const seen = strings.get(v);
    if (seen !== undefined) return seen as T;
    strings.set(v, v);
    return v;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = intern(v[i], strings);
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = intern(o[k], strings);
  }
  return v;
}

// A top-level key at a line's start (`lastIndex` set to it), and the next line that starts in column 0
// with something other than a comment: found by the regex engine rather than line by line in script.
const KEY_AT = /([A-Za-z_][\w-]*):(?=[ \t]|\r?\n|\r?$)/y;
const LINE_AT_TOP = /\n(?![ \n\r#])/g;
const META_KEYS = new Set(['id', 'info', 'self-contained']);

/** Start of the next line after `from` that does not start with a space, a comment or a line break. */
function nextTopLine(raw: string, from: number): number {
  LINE_AT_TOP.lastIndex = from;
  const m = LINE_AT_TOP.exec(raw);
  return m ? m.index + 1 : raw.length;
}

/**
 * The file cut at its top-level keys (lines starting in column 0); `id`, `info` and `self-contained`
 * parsed with the loader's YAML schema and checked as the full parse checks them; the other keys only
 * looked at for whether they hold a value. Undefined when anything is unusual: the full parse decides.
 */
function readMetadata(raw: string, file: string, strings?: Map<string, string>): Metadata | undefined {
  // Indented lines, blank lines and comments belong to the section above them.
  const keys: string[] = [];
  const starts: number[] = [];
  const c = raw.charCodeAt(0);
  let pos = c === 32 || c === 10 || c === 13 || c === 35 ? nextTopLine(raw, 0) : 0;
  while (pos < raw.length) {
    KEY_AT.lastIndex = pos;
    const m = KEY_AT.exec(raw);
    if (!m || !TOP_LEVEL.has(m[1]) || keys.includes(m[1])) return undefined;
    keys.push(m[1]);
    starts.push(pos);
    pos = nextTopLine(raw, pos);
  }
  if (!keys.includes('id') || !keys.includes('info')) return undefined;
  const end = (i: number) => (i + 1 < starts.length ? starts[i + 1] : raw.length);

  let doc: unknown;
  try {
    let subset = '';
    for (let i = 0; i < keys.length; i++) {
      if (!META_KEYS.has(keys[i])) continue;
      const section = raw.slice(starts[i], end(i));
      subset += section.endsWith('\n') ? section : `${section}\n`;
    }
    doc = yaml.load(subset, { schema: SCHEMA });
  } catch {
    return undefined;
  }
  if (!isMap(doc) || doc.id == null || doc.info == null) return undefined;
  const out = new IssueList(file);
  const id = readString(doc.id, 'id', out) ?? '';
  if (!id || id.length > MAX_ID_LENGTH || !ID_PATTERN.test(id)) return undefined;
  const info = parseInfo(doc.info, out);
  const selfContained = doc['self-contained'] == null ? false : readBool(doc['self-contained'], 'self-contained', out);
  if (!info || out.errors.length > 0) return undefined;
  // js-yaml's strings are slices of its own copy of the parsed text, which they keep alive (about the
  // size of the info section, per template); fresh copies let it go (the id too: V8 slices strings of
  // 13 characters or more).
  const copy = structuredClone({ id, info });
  if (strings) internInfo(copy.info, strings);

  const kinds = new Set<string>();
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (!hasValue(raw, starts[i] + k.length + 1, end(i))) continue;
    if (k === 'http' || k === 'requests') kinds.add('http');
    else if (k === 'workflows') kinds.add('workflows');
    else if (Object.hasOwn(OTHER_KEYS, k)) kinds.add(OTHER_KEYS[k]);
  }
  if (kinds.size === 0 || (kinds.has('workflows') && kinds.size > 1)) return undefined;
  if ((keys.includes('http') && keys.includes('requests')) || (keys.includes('tcp') && keys.includes('network')))
    return undefined;
  const type = TYPE_ORDER.find(([k]) => kinds.has(k))?.[1] ?? 'http';
  const shared = sharedKinds(kinds);
  return {
    id: copy.id,
    info: copy.info,
    selfContained: selfContained ?? false,
    type,
    kinds: shared,
    warnings: out.warnings,
  };
}

/**
 * Whether a top-level section (raw[from, end), past its `key:`) holds a value other than null: anything
 * but comments. Looks at lines only until a second one with content.
 */
function hasValue(raw: string, from: number, end: number): boolean {
  let content: string | undefined;
  for (let pos = from; pos < end;) {
    let eol = raw.indexOf('\n', pos);
    if (eol < 0 || eol > end) eol = end;
    const t = raw.slice(pos, eol).trim();
    pos = eol + 1;
    if (t === '' || t.startsWith('#')) continue;
    if (content !== undefined) return true; // more than one line of content
    content = t;
  }
  if (content === undefined) return false;
  const first = content.replace(/[ \t]+#.*$/, '');
  return !['null', 'Null', 'NULL', '~'].includes(first);
}
