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

export function requestVars(
  t: Template, builtins: Record<string, string>, dynamic: Record<string, unknown>, combo: Record<string, string>,
  cliVars: Record<string, string>, render: Render,
): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...builtins }; // one spread: far cheaper than merge() key by key
  for (const k in dynamic) vars[k] = dynamic[k];
  for (const [k, v] of Object.entries(combo)) vars[k] = render(v, vars);
  // Template variables may use each other and built-ins; they are evaluated lazily per request so
  // values extracted by earlier requests are visible.
  for (const [k, v] of Object.entries(t.variables)) {
    if (k in cliVars || k in t.constants) continue;
    vars[k] = render(v, vars);
  }
  for (const [k, v] of Object.entries(cliVars)) if (!(k in t.constants)) vars[k] = v;
  for (const [k, v] of Object.entries(t.constants)) vars[k] = render(v, vars);
  return vars;
}
