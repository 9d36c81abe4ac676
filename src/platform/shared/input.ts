// Input checks every route gets, so that no request can reach the database with something it cannot
// store or compute with (a 500 then) and no new route can forget them:
// - strings anywhere in the path, query or JSON body: no NUL (PostgreSQL text cannot hold U+0000) and no
//   lone UTF-16 surrogate (not encodable as UTF-8);
// - path and query values at most 4,096 characters (ids, searches and filters are short);
// - numbers in the query and body finite and within ±2^53 (larger ones overflow bigint columns), and
//   integers of a schema without bounds within SQL's `integer`;
// - JSON bodies nested at most 64 levels (checked before parsing, so 100,000 levels cost one scan).
// Each problem is a 400 in the spec's error body naming the field.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Stream } from 'node:stream';
import { badRequest } from './errors.ts';

export const MAX_PARAM_LENGTH = 4096;
export const MAX_JSON_DEPTH = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The problem with one string, or undefined. */
function stringProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'contains an unpaired UTF-16 surrogate (not valid Unicode text)';
  return undefined;
}

/** Throws the 400 for a string value at `at` with a problem, or longer than maxString (when given). */
function checkString(v: string, at: string, maxString: number | undefined): void {
  const why = stringProblem(v);
  if (why) throw badRequest(`${at || 'value'} ${why}`, at || undefined);
  if (maxString !== undefined && v.length > maxString)
    throw badRequest(`${at || 'value'} is longer than ${maxString} characters`, at || undefined);
}

function walk(value: unknown, where: string, maxString: number | undefined): void {
  // Iterative, so a deep value cannot exhaust the stack here either.
  const stack: [unknown, string][] = [[value, where]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      checkString(v, at, maxString);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER)
        throw badRequest(`${at || 'value'} is out of range`, at || undefined);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`]);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Stream) && !seen.has(v)) {
      // Parsed values only (query parsers make objects of their own prototype); a request stream (an
      // import body) is not input data, and nothing is visited twice.
      seen.add(v);
      for (const [k, x] of Object.entries(v)) {
        const why = stringProblem(k);
        if (why) throw badRequest(`a field name ${why}`, at || undefined);
        stack.push([x, at ? `${at}.${k}` : k]);
      }
    }
  }
}

/**
 * walk() of a route's params or query: most are one flat object of strings, checked here without walk's
 * stack and visited set (this runs twice on every request). The same checks in the same order as walk
 * (every field name first, then the values last to first), so the same first problem is reported;
 * anything else (a number, a list, a nested object) goes to walk itself.
 */
function walkParams(value: unknown, maxString: number): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return walk(value, '', maxString);
  const keys = Object.keys(value);
  const values = value as Record<string, unknown>;
  for (const k of keys) if (typeof values[k] !== 'string') return walk(value, '', maxString);
  for (const k of keys) {
    const why = stringProblem(k);
    if (why) throw badRequest(`a field name ${why}`, undefined);
  }
  for (let i = keys.length - 1; i >= 0; i--) checkString(values[keys[i]!] as string, keys[i]!, maxString);
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Depth of a JSON text's nesting, counted without parsing (strings are skipped). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Longest string a JSON body field may hold unless its schema says otherwise (template texts: 1 MiB). */
export const DEFAULT_BODY_STRING = 1024 * 1024;

/** Calls `visit` on a JSON schema and every schema nested in it (each once). */
function eachSchema(schema: unknown, visit: (s: Record<string, unknown>) => void, seen = new Set<object>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  visit(s);
  for (const key of ['properties', 'patternProperties']) {
    const props = s[key];
    if (props && typeof props === 'object') for (const v of Object.values(props)) eachSchema(v, visit, seen);
  }
  for (const key of ['items', 'additionalProperties', 'not']) eachSchema(s[key], visit, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(s[key])) for (const v of s[key] as unknown[]) eachSchema(v, visit, seen);
}

/** Gives every string of a request schema without a maxLength one, so no route takes unbounded text. */
function boundStrings(schema: unknown, max: number): void {
  eachSchema(schema, (s) => {
    if (
      s.type === 'string' &&
      s.maxLength === undefined &&
      s.format === undefined &&
      s.enum === undefined &&
      s.const === undefined
    )
      s.maxLength = max;
  });
}

/** PostgreSQL's `integer`: what a number compared with an integer column or passed as a count of days may hold. */
export const SQL_INT_MAX = 2_147_483_647;

/**
 * Gives every integer of a request schema without bounds those of SQL's `integer`, so no route passes the
 * database a number it cannot convert (a 500 then). Fields that need more or less say so in their schema.
 */
function boundIntegers(schema: unknown): void {
  eachSchema(schema, (s) => {
    if (s.type !== 'integer') return;
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) s.maximum = SQL_INT_MAX;
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) s.minimum = -SQL_INT_MAX - 1;
  });
}

export function registerInputChecks(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
    boundStrings(schema?.body, DEFAULT_BODY_STRING);
    boundStrings(schema?.querystring, MAX_PARAM_LENGTH);
    boundStrings(schema?.params, MAX_PARAM_LENGTH);
    for (const part of [schema?.body, schema?.querystring, schema?.params]) boundIntegers(part);
  });

  // JSON bodies: the depth check runs before the parser; parsing itself stays Fastify's (with its
  // prototype-poisoning protection).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(badRequest(`body is nested more than ${MAX_JSON_DEPTH} levels deep`, 'body'), undefined);
      return;
    }
    defaultJson(req, body as string, done);
  });

  // Synchronous hooks (a problem thrown here is answered as from an async hook): no promise per request.
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    walkParams(req.params, MAX_PARAM_LENGTH);
    walkParams(req.query, MAX_PARAM_LENGTH);
    if (req.body !== null && typeof req.body === 'object' && (Array.isArray(req.body) || isPlainObject(req.body)))
      walk(req.body, '', undefined);
    done();
  });
  // Again after validation: query values are numbers only once the schema coerced them ("1e309" is
  // Infinity then, "99999999999999999999" is 1e20).
  app.addHook('preHandler', (req: FastifyRequest, _reply, done) => {
    walkParams(req.params, MAX_PARAM_LENGTH);
    walkParams(req.query, MAX_PARAM_LENGTH);
    done();
  });
}
