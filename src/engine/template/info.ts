// The `info` block: name and author are mandatory; missing severity is only a warning (as in nuclei).
import type { Classification, Severity, TemplateInfo } from './types.ts';
import { IssueList } from './issues.ts';
import { checkShape, type Shape } from './shape.ts';
import { readCommaList } from './values.ts';

export const SEVERITIES: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical', 'unknown'];

const CLASSIFICATION: Shape = {
  fields: {
    'cve-id': 'csv',
    'cwe-id': 'csv',
    'cvss-metrics': 'string',
    'cvss-score': 'number',
    'epss-score': 'number',
    'epss-percentile': 'number',
    cpe: 'string',
  },
};

const INFO: Shape = {
  required: ['name', 'author'],
  fields: {
    name: 'string',
    author: 'csv',
    tags: { custom: (v, f, out) => lowerTags(v, f, out) },
    description: 'string',
    impact: 'string',
    reference: 'stringOrList',
    severity: { enum: SEVERITIES, fold: 'lower' },
    metadata: 'map',
    classification: { shape: CLASSIFICATION },
    remediation: 'string',
  },
};

// Tags compare case-insensitively everywhere (filters, search), so they are stored lower case.
function lowerTags(v: unknown, field: string, out: IssueList): string[] | undefined {
  return readCommaList(v, field, out, true);
}

export function parseInfo(v: unknown, out: IssueList): TemplateInfo | undefined {
  const d = checkShape(v, INFO, 'info', out);
  if (!d) return undefined;
  const name = (d.name as string | undefined)?.trim();
  if (d.name !== undefined && !name) out.error('info.name', 'must not be empty');
  const author = d.author as string[] | undefined;
  if (author && author.length === 0) out.error('info.author', 'must name at least one author');
  if (d.severity === undefined) out.warn('info.severity', 'missing; treated as unknown');
  if (!name || !author || author.length === 0) return undefined;
  return {
    name,
    author,
    tags: (d.tags as string[] | undefined) ?? [],
    severity: (d.severity as Severity | undefined) ?? 'unknown',
    description: d.description as string | undefined,
    impact: d.impact as string | undefined,
    remediation: d.remediation as string | undefined,
    reference: ((d.reference as string[] | undefined) ?? []).filter((r) => r.trim() !== ''),
    metadata: (d.metadata as Record<string, unknown> | undefined) ?? {},
    classification: d.classification as Classification | undefined,
  };
}
