// A targets file for a new scan, read in the browser: one target per line, or a column of a CSV (the one
// headed target, host, url, ip... else the first), with csv-parse (loaded only when a file is read). Each
// entry that is not a target is a problem naming its line; duplicates are dropped.

export interface FileTargets {
  name: string;
  targets: string[];
  /** "line 3: ..." for each entry that is not a target; the scan is not created while there are any. */
  problems: string[];
}

/** Header names that say which CSV column holds the targets (else the first column). */
const TARGET_COLUMNS = ['target', 'targets', 'host', 'hostname', 'url', 'ip', 'address', 'domain', 'asset'];
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_TARGET = 4096;
/** A URL, host name, address, CIDR range or host:port: no spaces, quotes or angle brackets. */
const TARGET_SHAPE = /^[^\s"'<>`\\{}|^]+$/;

/** Reads a text or CSV file's targets: one per line, or a column of a CSV (by header name, else the first). */
export async function parseTargetsFile(name: string, text: string): Promise<FileTargets> {
  const { parse } = await import('csv-parse/browser/esm/sync');
  // With info: each record with the line it is on (comments and blank lines are skipped, not counted).
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      comment: '#',
      comment_no_infix: true,
      bom: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    return { name, targets: [], problems: [`the file is not valid CSV or text: ${(err as Error).message}`] };
  }
  let column = 0;
  let first = 0;
  const header = rows[0]?.record.map((h) => h.toLowerCase());
  const named = header ? header.findIndex((h) => TARGET_COLUMNS.includes(h)) : -1;
  if (named >= 0) {
    column = named;
    first = 1;
  }
  const targets: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  rows.slice(first).forEach(({ record, info }) => {
    const value = (record[column] ?? '').trim();
    const line = info.lines;
    if (!value) return;
    if (value.length > MAX_TARGET) problems.push(`line ${line}: longer than ${MAX_TARGET} characters`);
    else if (!TARGET_SHAPE.test(value))
      problems.push(`line ${line}: "${value.slice(0, 80)}" is not a URL, host, address or range`);
    else if (!seen.has(value)) {
      seen.add(value);
      targets.push(value);
    }
  });
  if (!targets.length && !problems.length) problems.push('the file has no targets');
  return { name, targets, problems };
}
