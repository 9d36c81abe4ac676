// parseTemplate: YAML text -> Template, with every problem reported as file + field path + reason.
import yaml from 'js-yaml';
import type { HttpRequest, OtherProtocolBlock, Template, TemplateInfo, TemplateIssue } from './types.ts';
import { IssueList } from './issues.ts';
import { parseInfo } from './info.ts';
import { parseHttpBlock } from '../protocols/http/schema.ts';
import { checkWorkflows, parseOtherBlock } from './protocols.ts';
import { replaceRandstr } from './randstr.ts';
import { checkFlow } from './flow.ts';
import type { PayloadOptions } from './payloads.ts';
import { type Dict, isMap, isScalar, kind, readBool, readString, scalarText, setOwn } from './values.ts';

// YAML core schema plus merge keys: dates and binary stay plain strings (as go-yaml hands them to
// string fields), and skipping those resolvers makes parsing about a third faster.
const { types } = yaml as unknown as { types: { merge: yaml.Type } }; // present at runtime, missing from @types
export const SCHEMA = yaml.CORE_SCHEMA.extend([types.merge]);

export const ID_PATTERN = /^([a-zA-Z0-9]+[-_])*[a-zA-Z0-9]+$/;
/** Longest id: results store it in database indexes (entries of about 2,700 bytes at most); the public corpus's longest is 54. */
export const MAX_ID_LENGTH = 255;

/** Payload-file options (templates root, aggression, local file access); the file comes from the caller. */
export type ParseOptions = Omit<PayloadOptions, 'file'>;

export interface ParseResult {
  template?: Template;
  issues: TemplateIssue[];
  /** Problems that do not stop the template from loading (e.g. missing severity). */
  warnings: TemplateIssue[];
  /** The YAML was not a template at all (no id, no info, no protocol block): a config file or similar. */
  notTemplate?: boolean;
}

type OtherProtocol = OtherProtocolBlock['protocol'];

/** Top-level protocol keys in the order nuclei picks a template's reported type. */
export const TYPE_ORDER: [string, string][] = [
  ['dns', 'dns'],
  ['file', 'file'],
  ['http', 'http'],
  ['headless', 'headless'],
  ['tcp', 'tcp'],
  ['workflows', 'workflow'],
  ['ssl', 'ssl'],
  ['websocket', 'websocket'],
  ['whois', 'whois'],
  ['code', 'code'],
  ['javascript', 'javascript'],
];

export const OTHER_KEYS: Record<string, OtherProtocol> = {
  dns: 'dns',
  file: 'file',
  network: 'tcp',
  tcp: 'tcp',
  headless: 'headless',
  ssl: 'ssl',
  websocket: 'websocket',
  whois: 'whois',
  code: 'code',
  javascript: 'javascript',
};

export const TOP_LEVEL = new Set([
  'id',
  'info',
  'flow',
  'requests',
  'http',
  'workflows',
  'self-contained',
  'stop-at-first-match',
  'signature',
  'variables',
  'constants',
  ...Object.keys(OTHER_KEYS),
]);
const PROTOCOL_KEYS = ['http', 'requests', 'workflows', ...Object.keys(OTHER_KEYS)];

export function parseTemplate(text: string, file: string, opts: ParseOptions = {}): ParseResult {
  return parsePrepared(text, replaceRandstr(text), file, opts);
}

/** parseTemplate on text already preprocessed: `raw` is `text` with {{randstr}} replaced (a lazy template compiles its own). */
export function parsePrepared(text: string, raw: string, file: string, opts: ParseOptions = {}): ParseResult {
  const out = new IssueList(file);
  let doc: unknown;
  try {
    doc = yaml.load(raw, { schema: SCHEMA }); // duplicate keys throw, as in go-yaml
  } catch (err) {
    // The first line is `reason (line:column)`; the rest is a source excerpt.
    out.error('', `invalid YAML: ${(err as Error).message.split('\n')[0]}`);
    return { issues: out.errors, warnings: out.warnings };
  }
  // Template text from users: a YAML alias is one shared node that everything downstream (operators,
  // storage, JSON) copies, so a 639-byte template with nested aliases grew to 147 MB. Templates from
  // disk or the catalogue are the operator's own; text from users may not use anchors at all.
  if (!opts.fromDisk && !opts.templatesRoot && sharesNodes(doc)) {
    out.error(
      '',
      'YAML anchors and aliases (&name / *name) are not accepted in uploaded templates: write the values out',
    );
    return { issues: out.errors, warnings: out.warnings };
  }
  if (!isMap(doc)) {
    if (doc === undefined || doc === null || isScalar(doc)) return { issues: [], warnings: [], notTemplate: true };
    out.error('', `a template must be a YAML map, got ${kind(doc)}`);
    return { issues: out.errors, warnings: out.warnings };
  }
  // Config files (profiles, lint settings) have neither id nor info nor a list under a protocol key.
  if (doc.id == null && doc.info == null && !PROTOCOL_KEYS.some((k) => Array.isArray(doc[k]))) {
    return { issues: [], warnings: [], notTemplate: true };
  }
  const template = build(doc, raw, file, out, { ...opts, file });
  // The text as written, kept only when {{randstr}} changed it: a signature covers what was written.
  if (template && raw !== text) template.source = text;
  const ok = out.errors.length === 0 && template;
  return { template: ok ? template : undefined, issues: out.errors, warnings: out.warnings };
}

function build(doc: Dict, raw: string, file: string, out: IssueList, opts: PayloadOptions): Template | undefined {
  for (const key of Object.keys(doc)) if (!TOP_LEVEL.has(key)) out.error(key, 'unknown top-level field');

  let id = '';
  if (doc.id == null) out.error('id', 'is required');
  else {
    id = readString(doc.id, 'id', out) ?? '';
    if (id.length > MAX_ID_LENGTH) out.error('id', `is longer than ${MAX_ID_LENGTH} characters`);
    else if (id && !ID_PATTERN.test(id)) {
      out.error('id', `"${id}" is not a valid id (letters and digits, separated by single - or _)`);
    }
  }
  let info: TemplateInfo | undefined;
  if (doc.info == null) out.error('info', 'is required');
  else info = parseInfo(doc.info, out);

  if (doc.requests != null && doc.http != null) out.error('requests', "use 'http' or 'requests', not both");
  if (doc.network != null && doc.tcp != null) out.error('network', "use 'tcp' or 'network', not both");

  const http: HttpRequest[] = [];
  const other: OtherProtocolBlock[] = [];
  const present = new Set<string>();
  for (const [key, value] of Object.entries(doc)) {
    if (value == null) continue;
    if (key === 'http' || key === 'requests') {
      http.push(...parseHttpBlock(value, key, out, opts));
      present.add('http');
    } else if (Object.hasOwn(OTHER_KEYS, key)) {
      other.push(...parseOtherBlock(OTHER_KEYS[key], value, key, out, opts));
      present.add(OTHER_KEYS[key]);
    }
  }
  let workflows: unknown[] | undefined;
  if (doc.workflows != null) {
    workflows = checkWorkflows(doc.workflows, 'workflows', out);
    present.add('workflows');
  }
  if (present.size === 0) out.error('', 'template has no protocol block (http, dns, tcp, ...) and no workflows');
  if (workflows && present.size > 1) out.error('workflows', 'a workflow cannot also contain protocol blocks');

  let flow: string | undefined;
  if (doc.flow != null) {
    flow = readString(doc.flow, 'flow', out);
    if (flow !== undefined) checkFlow(flow, blockIds(doc), out);
  }
  if (doc.signature != null && String(doc.signature).toUpperCase() !== 'AWS') {
    out.error('signature', `must be AWS, got ${JSON.stringify(doc.signature)}`);
  }
  const variables = readVariables(doc.variables, 'variables', out);
  const constants = readVariables(doc.constants, 'constants', out);
  const selfContained = doc['self-contained'] == null ? false : readBool(doc['self-contained'], 'self-contained', out);
  const stopAtFirstMatch =
    doc['stop-at-first-match'] == null ? false : readBool(doc['stop-at-first-match'], 'stop-at-first-match', out);

  if (!info || out.errors.length > 0) return undefined;
  const type = TYPE_ORDER.find(([key]) => present.has(key))?.[1] ?? 'http';
  return {
    id,
    path: file,
    info,
    variables: variables?.strings ?? {},
    constants: constants?.strings ?? {},
    variableValues: variables?.values ?? {},
    constantValues: constants?.values ?? {},
    selfContained: selfContained ?? false,
    stopAtFirstMatch: stopAtFirstMatch ?? false,
    http,
    other,
    protocolOrder: [...present].filter((p) => p !== 'workflows'),
    workflows,
    flow,
    type,
    raw,
  };
}

/** protocol -> ids of its requests, from the raw document (so counts are right even if a request failed). */
function blockIds(doc: Dict): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  for (const [key, value] of Object.entries(doc)) {
    const protocol =
      key === 'requests' || key === 'http' ? 'http' : Object.hasOwn(OTHER_KEYS, key) ? OTHER_KEYS[key] : undefined;
    if (!protocol || !Array.isArray(value)) continue;
    const ids = value.map((r) => (isMap(r) && typeof r.id === 'string' ? r.id : ''));
    blocks.set(protocol, [...(blocks.get(protocol) ?? []), ...ids]);
  }
  return blocks;
}

/**
 * Variables and constants: scalars become strings (rendered later with the DSL); lists and maps are
 * legal in nuclei (flow scripts iterate them) and are kept as-is in the `...Values` twin.
 */
function readVariables(
  v: unknown,
  field: string,
  out: IssueList,
): { strings: Record<string, string>; values: Record<string, unknown> } | undefined {
  if (v == null) return undefined;
  if (!isMap(v)) {
    out.error(field, `must be a map of names to values, got ${kind(v)}`);
    return undefined;
  }
  const strings: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!/^[A-Za-z_][\w-]*$/.test(name)) out.error(`${field}.${name}`, 'is not a valid variable name');
    setOwn(values, name, value);
    setOwn(strings, name, value === null ? '' : isScalar(value) ? scalarText(value) : JSON.stringify(value));
  }
  return { strings, values };
}

/** True when some map or list appears twice in the parsed document (what an alias produces). */
function sharesNodes(doc: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v)) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
