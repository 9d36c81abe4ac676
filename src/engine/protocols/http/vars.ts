// The values a request is rendered with, in order of precedence (later wins): built-ins, values
// extracted so far, payload values, template variables, CLI variables, constants.
import type { Template } from '../../template/types.ts';
import type { Render } from './build.ts';

/** Copies maps into a new one, later ones winning; a plain loop is much cheaper than spreads here. */
export function merge(...maps: (Record<string, unknown> | undefined)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of maps) {
    if (!m) continue;
    for (const k in m) out[k] = m[k];
  }
  return out;
}

/** The variables inputVariables derives from the target (also what makes a login template need one). */
export const BUILTIN_KEYS = [
  'BaseURL',
  'RootURL',
  'Hostname',
  'Host',
  'Port',
  'Path',
  'File',
  'Query',
  'Scheme',
  'Input',
  'FQDN',
  'RDN',
  'DN',
  'TLD',
  'SD',
];
const standard = new WeakSet<object>();

/** True when `b` holds exactly the built-ins inputVariables makes (checked once per object). */
function isStandard(b: Record<string, string>): boolean {
  if (standard.has(b)) return true;
  const keys = Object.keys(b);
  if (keys.length !== BUILTIN_KEYS.length || !keys.every((k) => BUILTIN_KEYS.includes(k))) return false;
  standard.add(b);
  return true;
}

/**
 * A copy of the built-ins made by one object literal: the same fixed keys each time, so V8 builds it in
 * one step instead of adding fifteen keys one by one on every request.
 */
function copyBuiltins(b: Record<string, string>): Record<string, unknown> {
  if (!isStandard(b)) return merge(b);
  return {
    BaseURL: b.BaseURL,
    RootURL: b.RootURL,
    Hostname: b.Hostname,
    Host: b.Host,
    Port: b.Port,
    Path: b.Path,
    File: b.File,
    Query: b.Query,
    Scheme: b.Scheme,
    Input: b.Input,
    FQDN: b.FQDN,
    RDN: b.RDN,
    DN: b.DN,
    TLD: b.TLD,
    SD: b.SD,
  };
}

export function requestVars(
  t: Template,
  builtins: Record<string, string>,
  dynamic: Record<string, unknown>,
  combo: Record<string, string>,
  cliVars: Record<string, string>,
  render: Render,
  seed?: Record<string, string>,
): Record<string, unknown> {
  const vars = copyBuiltins(builtins);
  for (const k in dynamic) vars[k] = dynamic[k];
  // Values fixed for this request before anything renders (its interactsh names).
  if (seed) for (const k in seed) vars[k] = seed[k];
  // for-in rather than Object.entries: no array per map per request (this runs for every request).
  for (const k in combo) vars[k] = render(combo[k]!, vars);
  // Template variables may use each other and built-ins; they are evaluated lazily per request so
  // values extracted by earlier requests are visible.
  const { variables, constants } = t;
  for (const k in variables) {
    if (k in cliVars || k in constants) continue;
    vars[k] = render(variables[k]!, vars);
  }
  for (const k in cliVars) if (!(k in constants)) vars[k] = cliVars[k];
  for (const k in constants) vars[k] = render(constants[k]!, vars);
  return vars;
}
