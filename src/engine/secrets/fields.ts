// Checks for the fields of one secret entry: text values, {key, value} lists and cookies. Each problem
// goes to `report(field, reason)`; the caller decides what a problem means for the file.
import { parseRawCookie } from './cookie.ts';
import type { CookieSpec, KeyValue } from './types.ts';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export type Report = (field: string, reason: string) => void;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** YAML turns `password: 1234` into a number; such scalars are still meant as text. */
export function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return undefined;
}

export const hasPlaceholder = (s: string): boolean => s.includes('{{');

/** A required non-empty text field. */
export function requiredText(entry: Record<string, unknown>, field: string, report: Report): string | undefined {
  if (!(field in entry) || entry[field] === null || entry[field] === undefined) {
    report(field, `${field} is required for this type`);
    return undefined;
  }
  const text = asText(entry[field]);
  if (text === undefined) report(field, `${field} must be a string`);
  else if (text.trim() === '') report(field, `${field} must not be empty`);
  return text;
}

/** A non-empty list of {key, value} pairs with non-empty keys (and values unless allowEmptyValue). */
export function keyValueList(
  value: unknown,
  field: string,
  report: Report,
  opts: { required: boolean; allowEmptyValue: boolean; headerNames?: boolean },
): KeyValue[] | undefined {
  if (value === undefined || value === null) {
    if (opts.required) report(field, `${field} is required for this type`);
    return undefined;
  }
  if (!Array.isArray(value)) {
    report(field, `${field} must be a list of {key, value}`);
    return undefined;
  }
  if (value.length === 0 && opts.required) report(field, `${field} must not be empty`);
  const out: KeyValue[] = [];
  value.forEach((item, i) => {
    const at = `${field}[${i}]`;
    if (!isRecord(item)) return report(at, 'must be a mapping with key and value');
    for (const k of Object.keys(item))
      if (k !== 'key' && k !== 'value') report(`${at}.${k}`, 'unknown field (expected key, value)');
    const key = asText(item.key);
    const val = item.value === undefined || item.value === null ? undefined : asText(item.value);
    if (key === undefined || key.trim() === '') report(`${at}.key`, 'key is required and must not be empty');
    else if (opts.headerNames && !hasPlaceholder(key) && !HEADER_NAME.test(key))
      report(`${at}.key`, `"${key}" is not a valid header name`);
    if (val === undefined) {
      if (item.value !== undefined && item.value !== null) report(`${at}.value`, 'value must be a string');
      else if (!opts.allowEmptyValue) report(`${at}.value`, 'value is required and must not be empty');
    } else if (val === '' && !opts.allowEmptyValue) report(`${at}.value`, 'value is required and must not be empty');
    else if (/[\r\n]/.test(val)) report(`${at}.value`, 'value must not contain line breaks');
    if (key !== undefined && val !== undefined) out.push({ key, value: val });
    else if (key !== undefined && opts.allowEmptyValue) out.push({ key, value: '' });
  });
  return out;
}

export function cookieList(value: unknown, report: Report, dynamic: boolean): CookieSpec[] | undefined {
  if (value === undefined || value === null) {
    report('cookies', 'cookies is required for this type');
    return undefined;
  }
  if (!Array.isArray(value)) {
    report('cookies', 'cookies must be a list of {key, value} or {raw}');
    return undefined;
  }
  if (value.length === 0) report('cookies', 'cookies must not be empty');
  const out: CookieSpec[] = [];
  value.forEach((item, i) => {
    const at = `cookies[${i}]`;
    if (!isRecord(item)) return report(at, 'must be a mapping with key and value, or raw');
    for (const k of Object.keys(item))
      if (!['key', 'value', 'raw'].includes(k)) report(`${at}.${k}`, 'unknown field (expected key, value or raw)');
    const key = item.key === undefined ? undefined : asText(item.key);
    const val = item.value === undefined ? undefined : asText(item.value);
    const raw = item.raw === undefined ? undefined : asText(item.raw);
    if (item.raw !== undefined) {
      if (item.key !== undefined || item.value !== undefined) return report(at, 'give key and value, or raw, not both');
      if (raw === undefined || raw.trim() === '') return report(`${at}.raw`, 'raw must be a non-empty string');
      // A dynamic entry's raw is usually a placeholder; it is checked again once filled.
      if (!(dynamic && hasPlaceholder(raw)) && !parseRawCookie(raw)) {
        return report(`${at}.raw`, 'raw cookie has no name=value pair');
      }
      out.push({ raw });
      return;
    }
    if (key === undefined || key.trim() === '')
      report(`${at}.key`, 'key is required (or give raw) and must not be empty');
    if (val === undefined || val === '') report(`${at}.value`, 'value is required (or give raw) and must not be empty');
    else if (/[;\r\n]/.test(val) && !hasPlaceholder(val))
      report(`${at}.value`, 'value must not contain ";" or line breaks');
    if (key && val) out.push({ key, value: val });
  });
  return out;
}
