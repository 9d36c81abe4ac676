// Checks one parsed secret file and turns it into entries. Every problem is collected (entry, field,
// reason) so the user can fix the whole file in one go; the caller refuses a file with any problem.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { asText, cookieList, isRecord, keyValueList, requiredText, type Report } from './fields.ts';
import { normaliseDomain } from './scope.ts';
import {
  SECRET_TYPES,
  type DynamicSecret,
  type SecretEntry,
  type SecretIssue,
  type SecretType,
  type StaticSecret,
} from './types.ts';

/** The fields that belong to each type; any other type's field is refused. */
const TYPE_FIELDS: Record<SecretType, string[]> = {
  basicauth: ['username', 'password'],
  bearertoken: ['token'],
  header: ['headers'],
  cookie: ['cookies'],
  query: ['params'],
};
const TYPE_OF_FIELD = new Map(Object.entries(TYPE_FIELDS).flatMap(([t, fs]) => fs.map((f) => [f, t] as const)));
const SCOPE_FIELDS = ['domains', 'domains-regex'];
const DYNAMIC_FIELDS = ['template', 'variables', 'input'];
const TOP_LEVEL_FIELDS = ['id', 'info', 'static', 'dynamic'];

export interface ValidateOptions {
  file: string;
  /** Where relative login template paths are looked up, in order (first existing file wins); default: cwd. */
  templatesDir?: string | string[];
}

/** A login template path made absolute: as written, or the first templates directory that holds it. */
function resolveTemplate(template: string, templatesDir: string | string[] | undefined, report: Report): string {
  const dirs = (Array.isArray(templatesDir) ? templatesDir : templatesDir ? [templatesDir] : []).filter(Boolean);
  if (dirs.length === 0) dirs.push(process.cwd());
  const candidates = path.isAbsolute(template) ? [template] : dirs.map((d) => path.resolve(d, template));
  const found = candidates.find((c) => existsSync(c));
  if (found) return found;
  if (candidates.length === 1) report('template', `login template not found: ${candidates[0]}`);
  else
    report(
      'template',
      `login template "${template}" not found in any templates directory (${dirs.map((d) => path.resolve(d)).join(', ')})`,
    );
  return candidates[0]!;
}

/** Go-style `(?i)` prefixes are common in nuclei files; matching is case-insensitive anyway. */
function compileRegex(source: string): RegExp {
  return new RegExp(source.replace(/^\(\?i\)/, ''), 'i');
}

function scopeOf(entry: Record<string, unknown>, report: Report): Pick<StaticSecret, 'domains' | 'domainsRegex'> {
  const hasDomains = entry.domains !== undefined && entry.domains !== null;
  const hasRegex = entry['domains-regex'] !== undefined && entry['domains-regex'] !== null;
  const scope = { domains: [] as string[], domainsRegex: [] as RegExp[] };
  if (hasDomains && hasRegex) {
    report('domains', 'domains and domains-regex are mutually exclusive: use one of them');
    return scope;
  }
  if (!hasDomains && !hasRegex) {
    report('domains', 'scope is required: give domains or domains-regex');
    return scope;
  }
  const field = hasDomains ? 'domains' : 'domains-regex';
  const list = entry[field];
  if (!Array.isArray(list)) {
    report(field, `${field} must be a list of strings`);
    return scope;
  }
  if (list.length === 0) report(field, `${field} must not be empty`);
  list.forEach((item, i) => {
    const at = `${field}[${i}]`;
    const text = asText(item);
    if (text === undefined || text.trim() === '') return report(at, 'must be a non-empty string');
    if (hasDomains) {
      if (/[/\s]/.test(text.trim()))
        return report(at, `"${text}" is not a domain: write host or host:port, without scheme or path`);
      scope.domains.push(normaliseDomain(text));
    } else {
      try {
        scope.domainsRegex.push(compileRegex(text));
      } catch (err) {
        report(at, `invalid regular expression "${text}": ${(err as Error).message}`);
      }
    }
  });
  return scope;
}

/** Validates one entry of `static` or `dynamic`; returns the secret when the entry has no problem. */
function validateEntry(
  raw: unknown,
  list: 'static' | 'dynamic',
  opts: ValidateOptions,
  report: Report,
): StaticSecret | DynamicSecret | undefined {
  if (!isRecord(raw)) {
    report('', 'entry must be a mapping');
    return undefined;
  }
  const dynamic = list === 'dynamic';
  const typeText = asText(raw.type);
  let type: SecretType | undefined;
  if (raw.type === undefined || raw.type === null)
    report('type', `type is required (one of ${SECRET_TYPES.join(', ')})`);
  else if (typeText === undefined || !(SECRET_TYPES as readonly string[]).includes(typeText.trim().toLowerCase())) {
    report(
      'type',
      `unknown type "${typeText ?? JSON.stringify(raw.type)}" (expected one of ${SECRET_TYPES.join(', ')})`,
    );
  } else type = typeText.trim().toLowerCase() as SecretType;

  for (const key of Object.keys(raw)) {
    if (key === 'type' || SCOPE_FIELDS.includes(key)) continue;
    const owner = TYPE_OF_FIELD.get(key);
    if (owner) {
      if (type && owner !== type) report(key, `\`${key}\` is only valid with type ${owner}`);
    } else if (DYNAMIC_FIELDS.includes(key)) {
      if (!dynamic) report(key, `\`${key}\` is only valid in dynamic entries`);
    } else report(key, 'unknown field');
  }

  const scope = scopeOf(raw, report);
  const secret: StaticSecret = { type: type ?? 'header', ...scope };
  switch (type) {
    case 'basicauth':
      secret.username = requiredText(raw, 'username', report);
      secret.password = requiredText(raw, 'password', report);
      break;
    case 'bearertoken':
      secret.token = requiredText(raw, 'token', report);
      break;
    case 'header':
      secret.headers = keyValueList(raw.headers, 'headers', report, {
        required: true,
        allowEmptyValue: false,
        headerNames: true,
      });
      break;
    case 'query':
      secret.params = keyValueList(raw.params, 'params', report, { required: true, allowEmptyValue: false });
      break;
    case 'cookie':
      secret.cookies = cookieList(raw.cookies, report, dynamic);
      break;
    default:
      break;
  }
  if (!dynamic) return secret;

  const result: DynamicSecret = { ...secret, template: '', variables: [] };
  const template = asText(raw.template);
  if (raw.template === undefined || raw.template === null)
    report('template', 'template is required in dynamic entries');
  else if (template === undefined || template.trim() === '') report('template', 'template must be a non-empty path');
  else result.template = resolveTemplate(template.trim(), opts.templatesDir, report);
  const variables = keyValueList(raw.variables, 'variables', report, { required: false, allowEmptyValue: true });
  if (variables) result.variables = variables;
  if (raw.input !== undefined && raw.input !== null) {
    const input = asText(raw.input);
    if (input === undefined || input.trim() === '')
      report('input', 'input must be a non-empty string (a target URL or host)');
    else result.input = input.trim();
  }
  return result;
}

/** Validates one parsed file; entries are returned only when `issues` is empty. */
export function validateSecretDocument(
  doc: unknown,
  opts: ValidateOptions,
): { entries: SecretEntry[]; issues: SecretIssue[] } {
  const issues: SecretIssue[] = [];
  const entries: SecretEntry[] = [];
  const file = opts.file;
  if (!isRecord(doc)) {
    issues.push({ file, field: '', reason: 'the file must be a mapping with `static` and/or `dynamic` lists' });
    return { entries, issues };
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_FIELDS.includes(key))
      issues.push({ file, field: key, reason: `unknown top-level field (expected ${TOP_LEVEL_FIELDS.join(', ')})` });
  }
  const lists = (['static', 'dynamic'] as const).filter((l) => doc[l] !== undefined && doc[l] !== null);
  if (lists.length === 0)
    issues.push({ file, field: '', reason: 'the file has neither a `static` nor a `dynamic` list' });
  for (const list of lists) {
    const items = doc[list];
    if (!Array.isArray(items)) {
      issues.push({ file, field: list, reason: `${list} must be a list of entries` });
      continue;
    }
    items.forEach((raw, index) => {
      const before = issues.length;
      const report: Report = (field, reason) => issues.push({ file, list, index, field, reason });
      const secret = validateEntry(raw, list, opts, report);
      if (!secret || issues.length > before) return;
      const origin = { file, list, index };
      entries.push(list === 'dynamic' ? { origin, secret, dynamic: secret as DynamicSecret } : { origin, secret });
    });
  }
  return { entries: issues.length ? [] : entries, issues };
}

/** One line per problem: `secrets.yaml: static[1].token: token must not be empty`. */
export function formatIssue(issue: SecretIssue): string {
  const where =
    issue.list !== undefined ? `${issue.list}[${issue.index}]${issue.field ? '.' + issue.field : ''}` : issue.field;
  return `${issue.file}: ${where ? where + ': ' : ''}${issue.reason}`;
}
