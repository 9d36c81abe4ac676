// The search language of GET /v2/vulnerability/search, translated to parameterised SQL:
//   field:value   field:"two words"   cvss_score:>7   age_in_days:<30   is_kev:true   vendor:apache*
//   a && b   a || b   NOT a   (grouping)   free text (matched in id, name, description, vendor, product)
// Adjacent terms without an operator are ANDed. User values only ever travel as parameters.
import { badRequest } from '../shared/errors.ts';

type Kind = 'text' | 'num' | 'bool' | 'date' | 'array' | 'age' | 'contains';

export const SEARCH_FIELDS: Record<string, { col: string; kind: Kind }> = {
  cve_id: { col: 'cve_id', kind: 'text' },
  doc_id: { col: 'doc_id', kind: 'text' },
  severity: { col: 'severity', kind: 'text' },
  vendor: { col: 'vendor', kind: 'text' },
  product: { col: 'product', kind: 'text' },
  assignee: { col: 'assignee', kind: 'text' },
  vuln_status: { col: 'vuln_status', kind: 'text' },
  template_coverage: { col: 'template_coverage', kind: 'text' },
  cvss_score: { col: 'cvss_score', kind: 'num' },
  epss_score: { col: 'epss_score', kind: 'num' },
  epss_percentile: { col: 'epss_percentile', kind: 'num' },
  poc_count: { col: 'poc_count', kind: 'num' },
  ntps: { col: 'ntps', kind: 'num' },
  is_kev: { col: 'is_kev', kind: 'bool' },
  is_vkev: { col: 'is_vkev', kind: 'bool' },
  is_poc: { col: 'is_poc', kind: 'bool' },
  is_template: { col: 'is_template', kind: 'bool' },
  is_exploit_seen: { col: 'is_exploit_seen', kind: 'bool' },
  is_patch_available: { col: 'is_patch_available', kind: 'bool' },
  is_oss: { col: 'is_oss', kind: 'bool' },
  is_remote: { col: 'is_remote', kind: 'bool' },
  is_auth: { col: 'is_auth', kind: 'bool' },
  cve_created_at: { col: 'cve_created_at', kind: 'date' },
  cve_updated_at: { col: 'cve_updated_at', kind: 'date' },
  cwe: { col: 'cwe', kind: 'array' },
  age_in_days: { col: 'cve_created_at', kind: 'age' },
  name: { col: 'search_text', kind: 'contains' },
  description: { col: 'search_text', kind: 'contains' },
};

/** Sortable fields -> SQL (age sorts opposite to the publication date). */
export const SORT_FIELDS: Record<string, { col: string; invert?: boolean }> = {
  ...Object.fromEntries(
    Object.entries(SEARCH_FIELDS)
      .filter(([, f]) => f.kind !== 'contains' && f.kind !== 'array' && f.kind !== 'age')
      .map(([k, f]) => [k, { col: f.col }]),
  ),
  age_in_days: { col: 'cve_created_at', invert: true },
  created_at: { col: 'created_at' },
  updated_at: { col: 'updated_at' },
};

type Token = { t: '(' | ')' | 'and' | 'or' | 'not' } | { t: 'term'; field?: string; value: string };

export class SqlBuilder {
  params: unknown[] = [];
  constructor(readonly now: Date) {}
  p(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
}

function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const readQuoted = () => {
    let s = '';
    i++; // opening quote
    while (i < q.length && q[i] !== '"') {
      if (q[i] === '\\' && i + 1 < q.length) i++;
      s += q[i++];
    }
    if (q[i] !== '"') throw badRequest('unterminated quote in q', 'q');
    i++;
    return s;
  };
  while (i < q.length) {
    const c = q[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c });
      i++;
      continue;
    }
    if (q.startsWith('&&', i)) {
      out.push({ t: 'and' });
      i += 2;
      continue;
    }
    if (q.startsWith('||', i)) {
      out.push({ t: 'or' });
      i += 2;
      continue;
    }
    if (c === '"') {
      out.push({ t: 'term', value: readQuoted() });
      continue;
    }
    let word = '';
    while (i < q.length && !/[\s()]/.test(q[i]!) && !q.startsWith('&&', i) && !q.startsWith('||', i)) {
      if (q[i] === '"' && word.endsWith(':')) break;
      word += q[i++];
    }
    if (q[i] === '"' && word.endsWith(':')) {
      out.push({ t: 'term', field: word.slice(0, -1), value: readQuoted() });
      continue;
    }
    if (word === 'NOT' || word === '!') {
      out.push({ t: 'not' });
      continue;
    }
    if (word === 'AND') {
      out.push({ t: 'and' });
      continue;
    }
    if (word === 'OR') {
      out.push({ t: 'or' });
      continue;
    }
    const colon = word.indexOf(':');
    if (colon > 0 && /^[a-z_]+$/.test(word.slice(0, colon)))
      out.push({ t: 'term', field: word.slice(0, colon), value: word.slice(colon + 1) });
    else out.push({ t: 'term', value: word });
  }
  return out;
}

/**
 * How deep NOTs and parentheses may nest, and how many terms one query may hold. Each level is a nested
 * SQL expression, and the database gives up (a 500 then) on expressions a few hundred levels deep; the
 * parser here recurses per level too. Real queries stay far below both.
 */
export const MAX_QUERY_DEPTH = 32;
export const MAX_QUERY_TERMS = 200;

/** Parses q into a SQL boolean expression over intel_vulns. */
export function whereFor(q: string, b: SqlBuilder): string {
  const tokens = tokenize(q);
  const terms = tokens.filter((t) => t.t === 'term').length;
  if (terms > MAX_QUERY_TERMS) throw badRequest(`q has ${terms} terms; at most ${MAX_QUERY_TERMS}`, 'q');
  let pos = 0;
  let depth = 0;
  /** Enters one level of NOT or parentheses, refusing past the limit. */
  const nested = (parse: () => string): string => {
    if (++depth > MAX_QUERY_DEPTH)
      throw badRequest(`q is nested more than ${MAX_QUERY_DEPTH} levels deep (NOT and parentheses)`, 'q');
    const sql = parse();
    depth--;
    return sql;
  };
  const peek = () => tokens[pos];
  const parseOr = (): string => {
    const parts = [parseAnd()];
    while (peek()?.t === 'or') {
      pos++;
      parts.push(parseAnd());
    }
    return parts.length > 1 ? `(${parts.join(' OR ')})` : parts[0]!;
  };
  const parseAnd = (): string => {
    const parts = [parseUnary()];
    for (;;) {
      const t = peek();
      if (t?.t === 'and') {
        pos++;
        parts.push(parseUnary());
        continue;
      }
      if (t && (t.t === 'term' || t.t === 'not' || t.t === '(')) {
        parts.push(parseUnary());
        continue;
      }
      break;
    }
    return parts.length > 1 ? `(${parts.join(' AND ')})` : parts[0]!;
  };
  const parseUnary = (): string => {
    if (peek()?.t === 'not') {
      pos++;
      return nested(() => `NOT COALESCE(${parseUnary()}, false)`);
    }
    return parsePrimary();
  };
  const parsePrimary = (): string => {
    const t = tokens[pos++];
    if (!t) throw badRequest('q ends where a term was expected', 'q');
    if (t.t === '(') {
      const inner = nested(parseOr);
      if (tokens[pos++]?.t !== ')') throw badRequest('q has an unclosed parenthesis', 'q');
      return inner;
    }
    if (t.t !== 'term') throw badRequest(`q has an unexpected "${t.t === ')' ? ')' : t.t.toUpperCase()}"`, 'q');
    return termSql(t.field, t.value, b);
  };
  if (!tokens.length) return 'TRUE';
  const sql = parseOr();
  if (pos < tokens.length) throw badRequest('q has an unexpected ")"', 'q');
  return sql;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

function termSql(field: string | undefined, raw: string, b: SqlBuilder): string {
  if (!field) {
    if (!raw) return 'TRUE';
    return `search_text LIKE ${b.p(`%${likeEscape(raw.toLowerCase())}%`)}`;
  }
  const f = SEARCH_FIELDS[field];
  if (!f)
    throw badRequest(`q: unknown field "${field}"; searchable fields: ${Object.keys(SEARCH_FIELDS).join(', ')}`, 'q');
  const m = raw.match(/^(>=|<=|>|<|=)?(.*)$/s)!;
  const op = m[1] ?? '=';
  const value = m[2]!;
  if (!value) throw badRequest(`q: ${field} has no value`, 'q');
  switch (f.kind) {
    case 'text':
      if (op !== '=') throw badRequest(`q: ${field} takes no range`, 'q');
      if (value.includes('*'))
        return `lower(${f.col}) LIKE ${b.p(likeEscape(value.toLowerCase()).replace(/\*/g, '%'))}`;
      return f.col === 'cve_id' || f.col === 'doc_id'
        ? `${f.col} = ${b.p(f.col === 'cve_id' ? value.toUpperCase() : value)}`
        : `lower(${f.col}) = ${b.p(value.toLowerCase())}`;
    case 'contains':
      return `search_text LIKE ${b.p(`%${likeEscape(value.toLowerCase())}%`)}`;
    case 'num': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw badRequest(`q: ${field} needs a number, not "${value}"`, 'q');
      return `${f.col} ${op} ${b.p(n)}`;
    }
    case 'bool': {
      if (op !== '=' || !/^(true|false)$/i.test(value)) throw badRequest(`q: ${field} is true or false`, 'q');
      return `${f.col} = ${b.p(value.toLowerCase() === 'true')}`;
    }
    case 'date': {
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) throw badRequest(`q: ${field} needs a date, not "${value}"`, 'q');
      return `${f.col} ${op} ${b.p(new Date(ms).toISOString())}::timestamptz`;
    }
    case 'array':
      if (op !== '=') throw badRequest(`q: ${field} takes no range`, 'q');
      return `${b.p(value.toUpperCase())} = ANY(${f.col})`;
    case 'age': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw badRequest(`q: ${field} needs a number of days, not "${value}"`, 'q');
      // age_in_days is computed at read time: whole days since publication at the moment of the query
      return `floor(extract(epoch from (${b.p(b.now.toISOString())}::timestamptz - cve_created_at)) / 86400) ${op} ${b.p(n)}`;
    }
  }
}

export function orderBy(sortAsc: string | undefined, sortDesc: string | undefined): string {
  const parts: string[] = [];
  const add = (list: string | undefined, dir: 'ASC' | 'DESC', param: string) => {
    for (const name of (list ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const f = SORT_FIELDS[name];
      if (!f)
        throw badRequest(
          `${param}: cannot sort by "${name}"; sortable fields: ${Object.keys(SORT_FIELDS).join(', ')}`,
          param,
        );
      const d = f.invert ? (dir === 'ASC' ? 'DESC' : 'ASC') : dir;
      parts.push(`${f.col} ${d} NULLS LAST`);
    }
  };
  add(sortAsc, 'ASC', 'sort_asc');
  add(sortDesc, 'DESC', 'sort_desc');
  parts.push('cve_id ASC');
  return parts.join(', ');
}
