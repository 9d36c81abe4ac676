// The values a request is rendered with, in order of precedence (later wins): built-ins, values
// extracted so far, payload values, template variables, CLI variables, constants.
import type { Template } from '../../template/types.ts';
import type { Render } from './build.ts';

export function requestVars(
  t: Template, builtins: Record<string, string>, dynamic: Record<string, unknown>, combo: Record<string, string>,
  cliVars: Record<string, string>, render: Render,
): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...builtins, ...dynamic };
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
