// Paged lists as the spec answers them (scans, results, enumerations, assets, change history): the
// envelope's schema, the envelope itself, and sort_asc / sort_desc parsed against a table of allowed fields.
import { Type } from '@sinclair/typebox';
import { badRequest } from './errors.ts';

const Str = Type.String({ maxLength: 4096 });

/** The schema of one page of `item`s. */
export const Page = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({
    current_page: Type.Integer(),
    result_count: Type.Integer(),
    total_results: Type.Integer(),
    total_pages: Type.Integer(),
    message: Str,
    data: Type.Array(item),
  });

/** sort_asc / sort_desc: comma-separated fields; an unknown field is a 400 naming the parameter. */
export function parseSort(asc: string | undefined, desc: string | undefined, allowed: Record<string, string>) {
  const out: { column: string; desc: boolean }[] = [];
  for (const [param, value, isDesc] of [
    ['sort_asc', asc, false],
    ['sort_desc', desc, true],
  ] as const) {
    for (const f of (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const column = allowed[f];
      if (!column) throw badRequest(`cannot sort by "${f}"; use one of ${Object.keys(allowed).join(', ')}`, param);
      out.push({ column, desc: isDesc });
    }
  }
  return out;
}

export function pageEnvelope<T>(data: T[], total: number, offset: number, limit: number) {
  return {
    message: 'ok',
    current_page: Math.floor(offset / limit) + 1,
    result_count: data.length,
    total_results: total,
    total_pages: Math.ceil(total / limit),
    data,
  };
}
