// What nuclei's SQL modules answer for a query (pkg/js/utils SQLResult): { Count, Columns, Rows }, each
// row an object of column name -> value; booleans and 32-bit integers as themselves, everything else
// as text (NULL as "").
export interface SqlResult {
  Count: number;
  Columns: string[];
  Rows: Record<string, unknown>[];
}

export function sqlResult(columns: string[], rows: Record<string, unknown>[]): SqlResult {
  return { Count: rows.length, Columns: columns, Rows: rows };
}

/** A cell as Go's driver scan leaves it: bool, int, or text. */
export function cell(v: unknown, kind: 'bool' | 'int' | 'text'): unknown {
  if (kind === 'bool') return v === true || v === 't' || v === 1 || v === '1';
  if (kind === 'int') return v === null || v === undefined ? 0 : Number(v);
  if (v === null || v === undefined) return '';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  if (v instanceof Date) return v.toISOString();
  return String(v);
}
