// Scan profiles of a nuclei-templates checkout (`profiles/*.yml`): nuclei configuration files that pick
// templates by tags, severities, protocol types, ids and paths. The catalogue import keeps them; the API lists
// them and resolves one to the catalogue templates it selects. Selection follows nuclei's tag filter
// (pkg/templates/tag_filter.go): exclude-tags win unless a tag is in include-tags; tags, author, severity,
// type and template-id each narrow when given (any value of a list matches); exclude-* remove; a template
// without a severity or type is not narrowed by those. `templates:` paths are the set the filter applies to.
// Code templates are selected only when the profile says `code: true`, as nuclei loads them only then.
import { parse } from 'yaml';

/** Configuration keys this selection honours; any other key of a profile is reported as unsupported. */
export const SUPPORTED_KEYS = [
  'tags',
  'include-tags',
  'exclude-tags',
  'severity',
  'exclude-severity',
  'type',
  'exclude-type',
  'author',
  'template-id',
  'exclude-id',
  'templates',
  'exclude-templates',
  'code',
] as const;

export interface Profile {
  /** File name without extension (`recommended` for profiles/recommended.yml), as `nuclei -profile NAME`. */
  name: string;
  /** Catalogue path of the file. */
  file: string;
  description: string | null;
  /** The supported selectors as written (lists lower-cased; `code` as a boolean). */
  selectors: Partial<Record<(typeof SUPPORTED_KEYS)[number], string[] | boolean>>;
  /** Keys of the file this selection does not apply (e.g. `var`, which sets template variables). */
  unsupported: string[];
}

/** The fields of a catalogue template a profile looks at. */
export interface Candidate {
  template_id: string;
  uri: string;
  tags: string[];
  author: string[];
  severity: string;
  type: string;
}

/** Profiles are a few KB; anything far larger is not one. */
const MAX_PROFILE_BYTES = 256 * 1024;
/** Entries kept per selector list (recommended.yml's exclude-id has 62). */
const MAX_LIST = 10_000;

const PROFILE_FILE = /^profiles\/([A-Za-z0-9][A-Za-z0-9._-]{0,99})\.ya?ml$/;

/** The profile name of a catalogue path (`profiles/NAME.yml`, top level of that folder only); null otherwise. */
export function profileName(uri: string): string | null {
  return PROFILE_FILE.exec(uri)?.[1] ?? null;
}

/** Reads a profile file; null when the text is not a mapping of configuration keys. */
export function readProfile(uri: string, text: string): Profile | null {
  const name = profileName(uri);
  if (!name) return null;
  if (text.length > MAX_PROFILE_BYTES) return null;
  let doc: unknown;
  try {
    // Aliases are bounded: a YAML alias bomb fails here instead of expanding into millions of entries.
    doc = parse(text, { maxAliasCount: 100, uniqueKeys: false });
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const selectors: Profile['selectors'] = {};
  const unsupported: string[] = [];
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (!(SUPPORTED_KEYS as readonly string[]).includes(key)) {
      unsupported.push(key);
      continue;
    }
    const k = key as (typeof SUPPORTED_KEYS)[number];
    if (k === 'code') selectors.code = value === true || value === 'true';
    else selectors[k] = listOf(value, k !== 'templates' && k !== 'exclude-templates');
  }
  return { name, file: uri, description: describe(text), selectors, unsupported };
}

/** A list value as nuclei reads it: a YAML list or a comma-separated string; trimmed, empty entries dropped. */
function listOf(value: unknown, lower: boolean): string[] {
  const raw = Array.isArray(value) ? value : value == null ? [] : [value];
  return raw
    .flatMap((v) => String(v).split(','))
    .map((v) => (lower ? v.trim().toLowerCase() : v.trim()))
    .filter(Boolean)
    .slice(0, MAX_LIST);
}

/** The profile's purpose from its leading comment: the line after `# Purpose:`, else the first comment line. */
function describe(text: string): string | null {
  const comments: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('#')) break;
    comments.push(line.replace(/^#\s?/, '').trim());
  }
  const purpose = comments.findIndex((l) => /^purpose:?$/i.test(l));
  const pick = (purpose >= 0 ? comments.slice(purpose + 1) : comments).find((l) => l.length > 0);
  return pick ? pick.slice(0, 500) : null;
}

/** nuclei's protocol type names for our stored template types (`network` is nuclei's `tcp`). */
function typeName(t: string): string {
  return t === 'network' ? 'tcp' : t;
}

/** Whether a catalogue template is selected by the profile. */
export function selects(p: Profile, t: Candidate): boolean {
  const s = p.selectors;
  const list = (k: keyof Profile['selectors']): string[] => (Array.isArray(s[k]) ? (s[k] as string[]) : []);
  if (t.type === 'code' && s.code !== true) return false;

  const paths = list('templates');
  if (paths.length && !paths.some((x) => underPath(t.uri, x))) return false;
  if (list('exclude-templates').some((x) => underPath(t.uri, x))) return false;

  const tags = t.tags.map((x) => x.toLowerCase());
  const include = new Set(list('include-tags'));
  const block = new Set(list('exclude-tags').filter((x) => !include.has(x)));
  if (tags.some((x) => block.has(x))) return false;
  if (!anyOf(list('tags'), tags)) return false;
  if (
    !anyOf(
      list('author'),
      t.author.map((x) => x.toLowerCase()),
    )
  )
    return false;

  const sev = t.severity.toLowerCase();
  if (sev && sev !== 'undefined') {
    const want = list('severity');
    if (want.length && !want.includes(sev)) return false;
    if (list('exclude-severity').includes(sev)) return false;
  }
  const type = typeName(t.type);
  if (type) {
    const want = list('type').map(typeName);
    if (want.length && !want.includes(type)) return false;
    if (list('exclude-type').map(typeName).includes(type)) return false;
  }
  const id = t.template_id.toLowerCase();
  const ids = list('template-id');
  if (ids.length && !ids.some((pattern) => globMatch(pattern, id))) return false;
  if (list('exclude-id').includes(id)) return false;
  return true;
}

function anyOf(wanted: string[], have: string[]): boolean {
  return wanted.length === 0 || have.some((x) => wanted.includes(x));
}

/** A `templates:` entry: a folder (`http/cves/` or `http/cves`) or one file, relative to the catalogue. */
function underPath(uri: string, entry: string): boolean {
  const e = entry.replace(/^\.?\//, '');
  if (uri === e) return true;
  return uri.startsWith(e.endsWith('/') ? e : `${e}/`);
}

/** Shell-style match of a template-id pattern (`*`, `?`), as nuclei's filepath.Match on ids. */
function globMatch(pattern: string, id: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === id;
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(id);
}
