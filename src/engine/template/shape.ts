// A small declarative checker: each protocol block is described as a table of known keys and their
// types, so unknown keys and wrong types are reported with their exact field path.
import { IssueList, join } from './issues.ts';
import {
  type Dict,
  isMap,
  kind,
  readBool,
  readCommaList,
  readInt,
  readList,
  readNumber,
  readString,
  readStringMap,
  readStringOrList,
  isScalar,
  scalarText,
  setOwn,
} from './values.ts';

export type Spec =
  | 'string'
  | 'bool'
  | 'int'
  | 'uint'
  | 'number'
  | 'any'
  | 'map'
  | 'list'
  | 'csv'
  | 'stringOrList'
  | 'stringMap'
  | { enum: readonly string[]; fold?: 'lower' | 'upper' }
  | { listOf: Shape }
  | { shape: Shape }
  | { custom: (v: unknown, field: string, out: IssueList) => unknown };

export interface Shape {
  fields: Record<string, Spec>;
  required?: string[];
}

export function checkValue(v: unknown, spec: Spec, field: string, out: IssueList): unknown {
  switch (spec) {
    case 'string':
      return readString(v, field, out);
    case 'bool':
      return readBool(v, field, out);
    case 'int':
      return readInt(v, field, out);
    case 'uint': {
      const n = readInt(v, field, out);
      if (n !== undefined && n < 0) out.error(field, `must not be negative, got ${n}`);
      return n !== undefined && n >= 0 ? n : undefined;
    }
    case 'number':
      return readNumber(v, field, out);
    case 'any':
      return v;
    case 'map':
      if (isMap(v)) return v;
      out.error(field, `must be a map, got ${kind(v)}`);
      return undefined;
    case 'list':
      return readList(v, field, out);
    case 'csv':
      return readCommaList(v, field, out);
    case 'stringOrList':
      return readStringOrList(v, field, out);
    case 'stringMap':
      return readStringMap(v, field, out);
  }
  if ('enum' in spec) {
    if (!isScalar(v)) {
      out.error(field, `must be one of ${spec.enum.join(', ')}; got ${kind(v)}`);
      return undefined;
    }
    let text = scalarText(v).trim();
    if (spec.fold === 'lower') text = text.toLowerCase();
    if (spec.fold === 'upper') text = text.toUpperCase();
    if (spec.enum.includes(text)) return text;
    out.error(field, `must be one of ${spec.enum.join(', ')}; got ${JSON.stringify(scalarText(v))}`);
    return undefined;
  }
  if ('listOf' in spec) {
    if (!Array.isArray(v)) {
      out.error(field, `must be a list, got ${kind(v)}`);
      return undefined;
    }
    return v.map((item, i) => checkShape(item, spec.listOf, join(field, i), out));
  }
  if ('shape' in spec) return checkShape(v, spec.shape, field, out);
  return spec.custom(v, field, out);
}

/**
 * Checks a map against a shape. Returns the map with every known, non-null key normalized; unknown keys
 * are errors. A null value (`key:` with nothing after it) counts as absent, as in go-yaml.
 */
export function checkShape(v: unknown, shape: Shape, field: string, out: IssueList): Dict | undefined {
  if (!isMap(v)) {
    out.error(field, `must be a map, got ${kind(v)}`);
    return undefined;
  }
  const result: Dict = {};
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const spec = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (!spec) {
      out.error(join(field, key), `unknown field${suggest(key, Object.keys(shape.fields))}`);
      continue;
    }
    const value = v[key];
    if (value === null || value === undefined) continue;
    const checked = checkValue(value, spec, join(field, key), out);
    if (checked !== undefined) setOwn(result, key, checked);
  }
  if (shape.required)
    for (const key of shape.required) {
      if (v[key] === null || v[key] === undefined) out.error(join(field, key), 'is required');
    }
  return result;
}

/** "did you mean" for typos such as `matcher-condition`. */
function suggest(key: string, known: string[]): string {
  let best = '';
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(key, k);
    // Short keys differ by one letter from too many others to guess.
    if (d < bestDistance && d * 3 < key.length) {
      best = k;
      bestDistance = d;
    }
  }
  return best ? ` (did you mean "${best}"?)` : '';
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
