// Checks Vigil's answers against the hosted platform's OpenAPI document (../shared/reference/pdcp/openapi.yaml):
// for operations the real API has, its paths, parameters and response schemas decide. One validator per
// (method, path, status), compiled on first use with Ajv's JSON Schema 2020-12 dialect (OpenAPI 3.1's).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import { hasShared, sharedDir } from './shared.ts';

type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };
type Operation = {
  operationId?: string;
  responses?: Record<string, unknown>;
  requestBody?: unknown;
  parameters?: unknown[];
};

const FILE = path.join(sharedDir, 'reference/pdcp/openapi.yaml');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** True when the hosted platform's OpenAPI document is there (tests that need it skip otherwise). */
export const hasPdcpOpenApi = () => hasShared('reference/pdcp/openapi.yaml');

let loaded: { doc: Doc; ajv: Ajv2020 } | undefined;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (loaded) return loaded;
  const doc = yaml.load(readFileSync(FILE, 'utf8')) as Doc;
  // strict off: the document uses keywords Ajv does not know (example, x-*) and formats such as "json".
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const f of ['int64', 'float', 'double', 'json', 'binary', 'byte']) ajv.addFormat(f, true);
  // The whole document as one schema, so every "#/components/..." reference resolves inside it.
  ajv.addSchema({ ...(doc as object), $id: 'pdcp' } as never, 'pdcp');
  loaded = { doc, ajv };
  return loaded;
}

/** The document's path template matching a concrete path (`/v1/scans/abc` -> `/v1/scans/{scan_id}`). */
export function pdcpPath(method: string, concrete: string): string | undefined {
  const { doc } = load();
  const bare = concrete.split('?')[0]!;
  if (doc.paths[bare]?.[method.toLowerCase()]) return bare;
  const parts = bare.split('/');
  let best: { p: string; literal: number } | undefined;
  for (const [p, ops] of Object.entries(doc.paths)) {
    if (!ops[method.toLowerCase()]) continue;
    const tp = p.split('/');
    if (tp.length !== parts.length) continue;
    let literal = 0;
    const ok = tp.every((seg, i) => (/^\{.+\}$/.test(seg) ? parts[i] !== '' : seg === parts[i] && ++literal > 0));
    // The most literal segments win: /v1/scans/vuln/changelogs before /v1/scans/vuln/{vuln_id}.
    if (ok && (!best || literal > best.literal)) best = { p, literal };
  }
  return best?.p;
}

/** Every operation of the document, as "METHOD /path". */
export function pdcpOperations(): string[] {
  const { doc } = load();
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${p}`),
  );
}

function resolve(doc: Doc, node: unknown): unknown {
  let n = node as { $ref?: string } | undefined;
  while (n && typeof n.$ref === 'string') {
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], doc) as typeof n;
  }
  return n;
}

function validatorFor(method: string, template: string, status: number): ValidateFunction | undefined {
  const key = `${method} ${template} ${status}`;
  if (validators.has(key)) return validators.get(key);
  const { doc, ajv } = load();
  const op = doc.paths[template]?.[method.toLowerCase()];
  if (!op?.responses) throw new Error(`the hosted platform's API has no ${method} ${template}`);
  const used = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => op.responses![k] !== undefined);
  if (!used)
    throw new Error(`${method} ${template} has no response ${status} (nor a default) in the hosted platform's API`);
  const response = op.responses[used] as { $ref?: string };
  const json = (resolve(doc, response) as { content?: Record<string, { schema?: unknown }> })?.content?.[
    'application/json'
  ];
  if (!json?.schema) return undefined; // not a JSON answer (a file download, or no body)
  // A JSON pointer into the whole document, so the schema's own references resolve.
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const base = response.$ref
    ? response.$ref.replace(/^#/, '')
    : `/paths/${esc(template)}/${method.toLowerCase()}/responses/${esc(used)}`;
  const v = ajv.compile({ $ref: `pdcp#${base}/content/application~1json/schema` });
  validators.set(key, v);
  return v;
}

/**
 * Throws, naming each mismatch, unless `body` is what the hosted platform's API documents for this
 * method, concrete path and status. Returns the document's path template it was checked against.
 */
export function assertPdcpAnswer(method: string, concretePath: string, status: number, body: unknown): string {
  const template = pdcpPath(method, concretePath);
  if (!template) throw new Error(`the hosted platform's API has no ${method.toUpperCase()} ${concretePath}`);
  const v = validatorFor(method.toUpperCase(), template, status);
  if (v && !v(body)) {
    const errors = (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
    throw new Error(
      `${method.toUpperCase()} ${concretePath} (${template}) ${status} does not match the hosted platform's schema: ${errors}`,
    );
  }
  return template;
}
