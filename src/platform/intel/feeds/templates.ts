// Links CVEs to templates of a nuclei-format template catalogue folder. The catalogue's cves.json (JSON
// Lines {ID, Info, file_path}) says which file covers which CVE; without it, every YAML file whose
// info.classification.cve-id names CVEs is used. The linked template's fields are kept as the fact.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import jsYaml from 'js-yaml';
import type { TemplateFact } from '../facts.ts';
import { normCveId } from '../facts.ts';
import { arr, isObject, str, type Sink } from './types.ts';

const PROTOCOLS = ['http', 'requests', 'network', 'tcp', 'dns', 'file', 'headless', 'ssl', 'websocket', 'whois', 'code', 'javascript', 'workflows'];

export function importTemplateDir(dir: string, sink: Sink, progress?: (n: number) => void): void {
  const index = path.join(dir, 'cves.json');
  if (existsSync(index)) {
    const lines = readFileSync(index, 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        return sink.skip(`cves.json:${i + 1}`, 'line is not valid JSON');
      }
      const id = isObject(row) ? normCveId(row.ID) : undefined;
      const file = isObject(row) ? str(row.file_path) : undefined;
      if (!id || !file) return sink.skip(`cves.json:${i + 1}`, 'no CVE id (ID) or file_path');
      const full = path.resolve(dir, file);
      if (!full.startsWith(path.resolve(dir) + path.sep) || !existsSync(full)) return sink.skip(id, `template file ${file} not found`);
      try {
        sink.fact(id, templateFact(file, readFileSync(full, 'utf8')));
      } catch (err) {
        sink.skip(id, `template ${file}: ${(err as Error).message}`);
      }
      progress?.(i + 1);
    });
    return;
  }
  const linked = new Set<string>();
  let n = 0;
  for (const file of walkYaml(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    let fact: TemplateFact;
    try {
      fact = templateFact(rel, readFileSync(file, 'utf8'));
    } catch {
      continue; // not a template: other YAML files live in catalogues too
    }
    for (const id of arr(fact.classification['cve-id']).map(normCveId)) {
      if (id && !linked.has(id)) {
        linked.add(id);
        sink.fact(id, fact);
      }
    }
    progress?.(++n);
  }
}

function* walkYaml(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* walkYaml(full);
    else if (/\.ya?ml$/.test(e.name)) yield full;
  }
}

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',') : []).map((s) => s.trim()).filter(Boolean);

export function templateFact(relPath: string, raw: string): TemplateFact {
  const doc = jsYaml.load(headOf(raw)) as unknown;
  if (!isObject(doc) || !str(doc.id) || !isObject(doc.info)) throw new Error('not a template (no id or info)');
  const info = doc.info;
  const cls = isObject(info.classification) ? { ...info.classification } : {};
  // cve-id and cwe-id are lists in the record's Classification
  for (const k of ['cve-id', 'cwe-id']) if (k in cls) cls[k] = list(cls[k]).map((s) => s.toUpperCase());
  const metadata = isObject(info.metadata) ? info.metadata : {};
  const digest = raw.match(/^# digest: (\S+)/m)?.[1];
  return {
    id: str(doc.id)!,
    uri: relPath,
    directory: path.posix.dirname(relPath),
    filename: path.posix.basename(relPath),
    type: PROTOCOLS.find((p) => new RegExp(`^${p}\\s*:`, 'm').test(raw)),
    name: str(info.name),
    severity: str(info.severity)?.toLowerCase(),
    description: str(info.description),
    impact: str(info.impact),
    remediation: str(info.remediation),
    author: list(info.author),
    tags: list(info.tags),
    references: list(info.reference),
    classification: cls,
    metadata,
    raw,
    digest: digest ?? createHash('sha256').update(raw).digest('hex'),
    verified: metadata.verified === true,
  };
}

/** Only the top-level id and info blocks: the request sections are large and not needed for linking. */
function headOf(raw: string): string {
  const out: string[] = [];
  let keep = false;
  for (const line of raw.split(/\r?\n/)) {
    const top = line.match(/^([A-Za-z_-]+)\s*:/);
    if (top) keep = top[1] === 'id' || top[1] === 'info';
    if (keep) out.push(line);
  }
  return out.join('\n');
}
