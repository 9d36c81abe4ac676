// Reading loosely typed YAML values into the shapes nuclei expects. nuclei decodes with go-yaml, which
// accepts any scalar where a string is wanted (`name: 123`), so we do the same; everything else is strict.
import { IssueList } from './issues.ts';

export type Dict = Record<string, unknown>;

/** Sets an own property even for `__proto__`, so YAML keys can never reach an object's prototype. */
export function setOwn(obj: Dict, key: string, value: unknown): void {
  // Only `__proto__` is an accessor on Object.prototype; every other key assigns as an own property, and
  // plain assignment is far cheaper than defineProperty (it was a tenth of the corpus load).
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function isMap(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function kind(v: unknown): string {
  if (v === null || v === undefined) return 'empty';
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Date) return 'a date';
  if (typeof v === 'object') return 'a map';
  return `a ${typeof v}`;
}

export function isScalar(v: unknown): v is string | number | boolean | Date {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date;
}

export function scalarText(v: string | number | boolean | Date): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}

export function readString(v: unknown, field: string, out: IssueList): string | undefined {
  if (isScalar(v)) return scalarText(v);
  out.error(field, `must be a string, got ${kind(v)}`);
  return undefined;
}

export function readBool(v: unknown, field: string, out: IssueList): boolean | undefined {
  if (typeof v === 'boolean') return v;
  out.error(field, `must be true or false, got ${kind(v)} (${JSON.stringify(v)})`);
  return undefined;
}

export function readInt(v: unknown, field: string, out: IssueList): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  out.error(field, `must be a whole number, got ${kind(v)} (${JSON.stringify(v)})`);
  return undefined;
}

/** Scores are floats; quoted numbers ("9.8") are common in the wild and harmless. */
export function readNumber(v: unknown, field: string, out: IssueList): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  out.error(field, `must be a number, got ${kind(v)} (${JSON.stringify(v)})`);
  return undefined;
}

/** A YAML list of scalars. */
export function readList(v: unknown, field: string, out: IssueList): string[] | undefined {
  if (!Array.isArray(v)) {
    out.error(field, `must be a list, got ${kind(v)}`);
    return undefined;
  }
  const result: string[] = [];
  v.forEach((item, i) => {
    const s = readString(item, `${field}[${i}]`, out);
    if (s !== undefined) result.push(s);
  });
  return result;
}

/** nuclei's StringSlice: one string (comma-separated values allowed) or a list of strings. */
export function readCommaList(v: unknown, field: string, out: IssueList, lower = false): string[] | undefined {
  let items: string[] | undefined;
  if (isScalar(v)) items = [scalarText(v)];
  else if (Array.isArray(v)) items = readList(v, field, out);
  else out.error(field, `must be a string or a list of strings, got ${kind(v)}`);
  if (!items) return undefined;
  const result: string[] = [];
  for (const item of items) {
    // Most values hold no comma: skip the split then (tags and authors of every template pass here).
    for (const part of item.includes(',') ? item.split(',') : [item]) {
      const s = lower ? part.trim().toLowerCase() : part.trim();
      if (s !== '') result.push(s);
    }
  }
  return result;
}

/** nuclei's RawStringSlice (references): one string or a list, no comma splitting. */
export function readStringOrList(v: unknown, field: string, out: IssueList): string[] | undefined {
  if (isScalar(v)) return [scalarText(v)];
  if (Array.isArray(v)) return readList(v, field, out);
  out.error(field, `must be a string or a list of strings, got ${kind(v)}`);
  return undefined;
}

/** A map of scalar values (headers, websocket headers). */
export function readStringMap(v: unknown, field: string, out: IssueList): Record<string, string> | undefined {
  if (!isMap(v)) {
    out.error(field, `must be a map, got ${kind(v)}`);
    return undefined;
  }
  const result: Record<string, string> = {};
  for (const [k, item] of Object.entries(v)) {
    if (item === null) {
      setOwn(result, k, '');
      continue;
    }
    const s = readString(item, `${field}.${k}`, out);
    if (s !== undefined) setOwn(result, k, s);
  }
  return result;
}
