// AssetFilters (the spec's object, in requests, query strings and policy conditions): checked and turned
// into one normalized form that the store turns into SQL. One implementation serves the contents list,
// policy conditions and scans over assets, so they can never disagree.
import { badRequest } from '../shared/errors.ts';

export const TIME_RANGES = [
  'last_day',
  'last_week',
  'last_month',
  'last_3_months',
  'last_6_months',
  'last_12_months',
  'all_time',
] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** The filters as they arrive (JSON body or query string). */
export interface AssetFiltersInput {
  is_tech?: boolean;
  is_favicon?: boolean;
  is_new?: boolean;
  is_screenshot?: boolean;
  only_dns?: boolean;
  only_ip?: boolean;
  labels?: string;
  host?: string;
  port?: string;
  status_code?: string;
  content_length?: string;
  title?: string;
  cname?: string;
  technologies?: string;
  ip?: string;
  domain?: string[] | string;
  time?: string;
  start_date?: string;
  end_date?: string;
  custom_filter?: string;
  search?: string;
  enumeration_ids?: string[] | string;
  not_seen_for_days?: number;
}

export interface AssetFilter {
  is_tech?: boolean;
  is_favicon?: boolean;
  is_new?: boolean;
  is_screenshot?: boolean;
  only_dns?: boolean;
  only_ip?: boolean;
  labels?: string[];
  host?: string[];
  port?: number[];
  status_code?: number[];
  content_length?: number[];
  title?: string[];
  cname?: string[];
  technologies?: string[];
  ip?: string[];
  domain?: string[];
  time?: TimeRange;
  start_date?: string;
  end_date?: string;
  search?: string;
  enumeration_ids?: string[];
  not_seen_for_days?: number;
}

const list = (v: string | string[] | undefined): string[] | undefined => {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length ? parts : undefined;
};

function ints(v: string | undefined, field: string, prefix: string, max: number): number[] | undefined {
  const parts = list(v);
  if (!parts) return undefined;
  return parts.map((p) => {
    if (!/^\d{1,10}$/.test(p) || Number(p) > max)
      throw badRequest(`${field} "${p}" is not a whole number between 0 and ${max}`, prefix + field);
    return Number(p);
  });
}

/** Checks and normalizes filters; `prefix` names the object in error params (e.g. "asset_filters."). */
export function normalizeFilters(f: AssetFiltersInput | undefined, prefix = ''): AssetFilter {
  if (!f) return {};
  if (f.custom_filter?.trim())
    throw badRequest('custom_filter is not supported; use the other filters', prefix + 'custom_filter');
  if (f.time !== undefined && !(TIME_RANGES as readonly string[]).includes(f.time)) {
    throw badRequest(`time "${f.time}" is not one of ${TIME_RANGES.join(', ')}`, prefix + 'time');
  }
  for (const k of ['start_date', 'end_date'] as const) {
    const v = f[k];
    if (v !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))))
      throw badRequest(`${k} "${v}" is not a date (YYYY-MM-DD)`, prefix + k);
  }
  if (f.not_seen_for_days !== undefined && (!Number.isInteger(f.not_seen_for_days) || f.not_seen_for_days < 1)) {
    throw badRequest('not_seen_for_days must be a whole number of at least 1', prefix + 'not_seen_for_days');
  }
  const out: AssetFilter = {
    is_tech: f.is_tech,
    is_favicon: f.is_favicon,
    is_new: f.is_new,
    is_screenshot: f.is_screenshot,
    only_dns: f.only_dns,
    only_ip: f.only_ip,
    labels: list(f.labels),
    host: list(f.host)?.map((h) => h.toLowerCase()),
    port: ints(f.port, 'port', prefix, 65535),
    status_code: ints(f.status_code, 'status_code', prefix, 999),
    content_length: ints(f.content_length, 'content_length', prefix, 2 ** 31 - 1),
    title: list(f.title),
    cname: list(f.cname)?.map((h) => h.toLowerCase()),
    technologies: list(f.technologies),
    ip: list(f.ip),
    domain: list(f.domain)?.map((h) => h.toLowerCase()),
    time: f.time === 'all_time' ? undefined : (f.time as TimeRange | undefined),
    start_date: f.start_date,
    end_date: f.end_date,
    search: f.search?.trim() || undefined,
    enumeration_ids: list(f.enumeration_ids),
    not_seen_for_days: f.not_seen_for_days,
  };
  for (const k of Object.keys(out) as (keyof AssetFilter)[]) if (out[k] === undefined) delete out[k];
  return out;
}

export const isEmptyFilter = (f: AssetFilter) => Object.keys(f).length === 0;
