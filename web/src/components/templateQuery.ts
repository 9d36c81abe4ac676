// The template search's query language, as the console writes it: `field:value`, quoted when the value
// has spaces, colons, quotes or brackets.
export function quoteValue(v: string): string {
  return /[\s:"()]/.test(v) ? `"${v.replace(/"/g, '\\"')}"` : v;
}

/** The query with one more `field:value` filter. */
export const withFilter = (q: string, field: string, value: string) =>
  `${q.trim()} ${field}:${quoteValue(value)}`.trim();
