// The file formats of findings exports: the hosted platform's json, csv and pdf, plus SARIF 2.1.0 and
// Markdown. Each takes the findings as batches and yields the file piece by piece, so an export of any size
// is written (or downloaded) with the memory of one batch.
import { stringify } from 'csv-stringify/sync';
import PDFDocument from 'pdfkit';
import { resultItem, type ResultRow } from './results.ts';

export const RESULT_FORMATS = ['json', 'csv', 'pdf', 'sarif', 'markdown'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

export const RESULT_CONTENT_TYPES: Record<ResultFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  sarif: 'application/sarif+json; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
};

export const RESULT_EXTENSIONS: Record<ResultFormat, string> = {
  json: 'json',
  csv: 'csv',
  pdf: 'pdf',
  sarif: 'sarif',
  markdown: 'md',
};

export type ExportItem = ReturnType<typeof exportItem>;

/**
 * A finding as exported: the API's result item, without the raw request, response and curl command
 * (they can carry the credentials a secret file added to the request; the finding page shows them to
 * those who may see them).
 */
export function exportItem(r: ResultRow) {
  const item = resultItem(r);
  const { request: _q, response: _r, 'curl-command': _c, ...event } = item.event;
  return { ...item, event };
}

export interface FormatMeta {
  /** What was exported, for the file's heading ("scan abc", "team findings"). */
  title: string;
  generatedAt: Date;
}

/** The file of `format` for the findings `batches` yields. */
export function formatResults(
  batches: AsyncIterable<ExportItem[]>,
  format: ResultFormat,
  meta: FormatMeta,
): AsyncGenerator<string | Buffer> {
  switch (format) {
    case 'json':
      return jsonFile(batches);
    case 'csv':
      return csvFile(batches);
    case 'sarif':
      return sarifFile(batches);
    case 'markdown':
      return markdownFile(batches, meta);
    case 'pdf':
      return pdfFile(batches, meta);
  }
}

async function* jsonFile(batches: AsyncIterable<ExportItem[]>) {
  let first = true;
  yield '[';
  for await (const items of batches) {
    const text = items.map((i) => JSON.stringify(i)).join(',\n');
    yield (first ? '\n' : ',\n') + text;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

const CSV_COLUMNS = [
  'vuln_id',
  'scan_id',
  'template_id',
  'template_name',
  'severity',
  'vuln_status',
  'target',
  'matched_at',
  'port',
  'result_type',
  'matcher_name',
  'extracted_results',
  'tags',
  'description',
  'remediation',
  'created_at',
  'updated_at',
] as const;

function csvRow(i: ExportItem): string[] {
  return [
    i.vuln_id,
    i.scan_id,
    i.template_id,
    i.template_name ?? '',
    i.severity,
    i.vuln_status,
    i.target,
    i.matched_at,
    i.port === undefined ? '' : String(i.port),
    i.result_type,
    String(i.event['matcher-name'] ?? ''),
    ((i.event['extracted-results'] as unknown[] | undefined) ?? []).map(String).join('; '),
    i.tags.join(', '),
    i.description ?? '',
    i.remediation ?? '',
    i.created_at,
    i.updated_at,
  ];
}

/**
 * CSV through csv-stringify. escape_formulas prefixes a cell starting with = + - @ (or a tab / carriage
 * return) with a quote, so a spreadsheet shows a finding's text instead of running it as a formula: the
 * text comes from scanned servers and templates.
 */
async function* csvFile(batches: AsyncIterable<ExportItem[]>) {
  yield stringify([[...CSV_COLUMNS]], { escape_formulas: true });
  for await (const items of batches) yield stringify(items.map(csvRow), { escape_formulas: true });
}

// ---- SARIF 2.1.0 ----

const SARIF_LEVEL: Record<string, 'error' | 'warning' | 'note' | 'none'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
  unknown: 'none',
};

/**
 * The finding's location as an absolute URI: the matched URL itself, or scheme://host:port for a network
 * finding (the result type names the scheme: tcp, dns, ssl ...).
 */
export function locationUri(matchedAt: string, type: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*$/i.test(type) ? type.toLowerCase() : 'tcp';
  for (const candidate of [matchedAt, `${scheme}://${matchedAt}`]) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(candidate)) continue;
    try {
      return new URL(candidate).href;
    } catch {
      // not a URL; try the next spelling
    }
  }
  return `urn:vigil:location:${encodeURIComponent(matchedAt)}`;
}

interface SarifRule {
  id: string;
  name?: string;
  shortDescription: { text: string };
  fullDescription?: { text: string };
  helpUri?: string;
  defaultConfiguration: { level: string };
  properties: { tags: string[]; severity: string };
}

function absoluteUrl(v: string | undefined): string | undefined {
  if (!v || !/^https?:\/\//i.test(v)) return undefined;
  try {
    return new URL(v).href;
  } catch {
    return undefined;
  }
}

/** One run of the Vigil tool; one result per finding, its location the matched URL or host:port. */
async function* sarifFile(batches: AsyncIterable<ExportItem[]>) {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  yield '{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"results":[';
  let first = true;
  for await (const items of batches) {
    const out: string[] = [];
    for (const i of items) {
      let index = ruleIndex.get(i.template_id);
      if (index === undefined) {
        index = rules.length;
        ruleIndex.set(i.template_id, index);
        const help = absoluteUrl(i.template_url);
        rules.push({
          id: i.template_id,
          ...(i.template_name ? { name: i.template_name } : {}),
          shortDescription: { text: i.template_name || i.template_id },
          ...(i.description ? { fullDescription: { text: i.description } } : {}),
          ...(help ? { helpUri: help } : {}),
          defaultConfiguration: { level: SARIF_LEVEL[i.severity] ?? 'none' },
          properties: { tags: i.tags, severity: i.severity },
        });
      }
      const extracted = (i.event['extracted-results'] as unknown[] | undefined)?.map(String);
      out.push(
        JSON.stringify({
          ruleId: i.template_id,
          ruleIndex: index,
          level: SARIF_LEVEL[i.severity] ?? 'none',
          message: { text: `${i.template_name || i.template_id} (${i.severity}) at ${i.matched_at}` },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: locationUri(i.matched_at, i.result_type) } },
              logicalLocations: [{ name: i.target, kind: 'host' }],
            },
          ],
          partialFingerprints: { vulnHash: i.vuln_hash },
          properties: {
            vuln_id: i.vuln_id,
            scan_id: i.scan_id,
            severity: i.severity,
            vuln_status: i.vuln_status,
            matched_at: i.matched_at,
            ...(i.port !== undefined ? { port: i.port } : {}),
            ...(i.event['matcher-name'] ? { matcher_name: String(i.event['matcher-name']) } : {}),
            ...(extracted?.length ? { extracted_results: extracted } : {}),
          },
        }),
      );
    }
    if (!out.length) continue;
    yield (first ? '' : ',') + out.join(',');
    first = false;
  }
  const driver = { name: 'Vigil', rules };
  yield `],"tool":${JSON.stringify({ driver })},"columnKind":"unicodeCodePoints"}]}\n`;
}

// ---- Markdown ----

/** A table cell: one line, with the characters that would break the table or inject markup escaped. */
export function mdCell(v: string): string {
  return v
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()#+!|~>-]/g, (c) => '\\' + c)
    .replace(/</g, '&lt;');
}

async function* markdownFile(batches: AsyncIterable<ExportItem[]>, meta: FormatMeta) {
  yield `# Vigil findings: ${mdCell(meta.title)}\n\nGenerated ${meta.generatedAt.toISOString()}.\n\n`;
  yield '| # | Severity | Finding | Template | Location | Status |\n|---|---|---|---|---|---|\n';
  let n = 0;
  const counts: Record<string, number> = {};
  for await (const items of batches) {
    const lines = items.map((i) => {
      counts[i.severity] = (counts[i.severity] ?? 0) + 1;
      return `| ${++n} | ${mdCell(i.severity)} | ${mdCell(i.template_name ?? i.template_id)} | ${mdCell(i.template_id)} | ${mdCell(i.matched_at)} | ${mdCell(i.vuln_status)} |\n`;
    });
    yield lines.join('');
  }
  const summary = ['critical', 'high', 'medium', 'low', 'info', 'unknown']
    .filter((s) => counts[s])
    .map((s) => `${s}: ${counts[s]}`)
    .join(', ');
  yield `\n${n} finding${n === 1 ? '' : 's'}${summary ? ` (${summary})` : ''}.\n`;
}

// ---- PDF ----

/** A PDF through pdfkit: a heading, then each finding as a short block. Pages are written as they fill. */
async function* pdfFile(batches: AsyncIterable<ExportItem[]>, meta: FormatMeta) {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `Vigil findings: ${meta.title}`, Producer: 'Vigil', Creator: 'Vigil' },
  });
  const ready: Buffer[] = [];
  doc.on('data', (b: Buffer) => ready.push(b));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const take = () => ready.splice(0, ready.length);
  doc.font('Helvetica-Bold').fontSize(18).text(`Vigil findings: ${meta.title}`);
  doc.font('Helvetica').fontSize(9).fillColor('#555').text(`Generated ${meta.generatedAt.toISOString()}`);
  doc.moveDown();
  let n = 0;
  for await (const items of batches) {
    for (const i of items) {
      n++;
      doc
        .fillColor('#000')
        .font('Helvetica-Bold')
        .fontSize(11)
        .text(`${n}. [${i.severity.toUpperCase()}] ${i.template_name ?? i.template_id}`);
      doc.font('Helvetica').fontSize(9);
      doc.text(`Location: ${i.matched_at}`);
      doc.text(`Template: ${i.template_id}    Status: ${i.vuln_status}    Finding id: ${i.vuln_id}`);
      if (i.description) doc.fillColor('#333').text(i.description.slice(0, 1000));
      doc.moveDown(0.6);
    }
    for (const b of take()) yield b;
  }
  if (n === 0) doc.font('Helvetica').fontSize(11).text('No findings match this export.');
  doc.end();
  await ended;
  for (const b of take()) yield b;
}
