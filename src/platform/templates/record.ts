// Template text -> the stored fields of a Template record. Parsing and validation are the engine's
// (parseTemplate), so the store accepts exactly what the scanner can load.
import { createHash } from 'node:crypto';
import { parseTemplate, type ParseOptions, type TemplateIssue } from '../../engine/index.ts';
import { signatureKeys, signedBy } from './signing.ts';

/** What the store writes for one template; the caller adds uri, template_id, team and flags. */
export interface TemplateFields {
  id: string;
  name: string;
  author: string[];
  tags: string[];
  severity: string;
  type: string;
  vendor: string | null;
  product: string | null;
  classification: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  cve_ids: string[];
  digest: string;
  raw: string;
  /** Common name of the trusted certificate whose key verified the template's `# digest:` line; null: none did. */
  signed_by: string | null;
  /** The set of trusted certificates signed_by was decided under (signing.ts). */
  signature_keys: string;
  /** Payload files read at import (name as written -> values); null when the template names none. */
  payload_files?: Record<string, string[]> | null;
  description: string | null;
  impact: string | null;
  remediation: string | null;
  refs: string[];
}

export type ReadResult =
  { ok: true; fields: TemplateFields } | { ok: false; notTemplate: boolean; issues: TemplateIssue[]; message: string };

export function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Parses and validates template text; on failure gives the validator's issues and a one-line message. */
export function readTemplate(text: string, file: string, opts: ParseOptions = {}): ReadResult {
  if (text.includes('\u0000')) {
    const issue = { file, field: '', reason: 'contains NUL bytes: not a text file' };
    return { ok: false, notTemplate: false, issues: [issue], message: issue.reason };
  }
  // Payload files read at import are kept with the template, so workers never need the catalogue folder.
  const payloadFiles: Record<string, string[]> = {};
  const res = parseTemplate(text, file, {
    ...opts,
    onPayloadFile: (name, values) => {
      payloadFiles[name] = values;
    },
  });
  if (!res.template) {
    const message = res.notTemplate
      ? 'not a template: it has no id, no info and no protocol block'
      : res.issues.map((i) => (i.field ? `${i.field}: ${i.reason}` : i.reason)).join('; ') || 'invalid template';
    return { ok: false, notTemplate: !!res.notTemplate, issues: res.issues, message };
  }
  const t = res.template;
  // PostgreSQL text and jsonb cannot hold U+0000, which a YAML escape ("\0") can produce.
  const info = stripNul(t.info);
  const metadata = info.metadata ?? {};
  const classification = info.classification ? { ...info.classification } : null;
  const cves = (info.classification?.['cve-id'] ?? []).map((c) => c.trim().toUpperCase()).filter(Boolean);
  if (classification && cves.length) classification['cve-id'] = cves;
  return {
    ok: true,
    fields: {
      id: t.id,
      name: info.name,
      author: info.author,
      tags: info.tags,
      severity: info.severity,
      type: t.type,
      vendor: textOrNull(metadata.vendor),
      product: textOrNull(metadata.product),
      classification,
      metadata: Object.keys(metadata).length ? metadata : null,
      cve_ids: cves,
      // The digest and raw are of the text as written (parseTemplate's raw has {{randstr}} filled in).
      digest: digestOf(text),
      raw: text,
      signed_by: signedBy(text),
      signature_keys: signatureKeys(),
      payload_files: Object.keys(payloadFiles).length ? payloadFiles : null,
      description: info.description?.trim() || null,
      impact: info.impact?.trim() || null,
      remediation: info.remediation?.trim() || null,
      refs: info.reference,
    },
  };
}

function stripNul<T>(v: T): T {
  if (typeof v === 'string') return v.replace(/\u0000/g, '') as T;
  if (Array.isArray(v)) return v.map(stripNul) as T;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [stripNul(k), stripNul(x)])) as T;
  }
  return v;
}

function textOrNull(v: unknown): string | null {
  if (typeof v === 'string') return v.trim().toLowerCase() || null;
  if (typeof v === 'number') return String(v);
  return null;
}
