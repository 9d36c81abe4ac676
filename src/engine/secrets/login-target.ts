// Whether a login template can run without a target. A dynamic entry's `input` is optional: a template
// that is self-contained, or names its login URL outright, needs none. One that builds its URL from the
// target ({{BaseURL}}, {{Hostname}} ...) would otherwise fail later with a vague "extracted no values".
import type { Template } from '../template/types.ts';
import { BUILTIN_KEYS } from '../protocols/http/vars.ts';

/** The variables the runner derives from the target (protocols/http/vars.ts, the one list). */
const TARGET_VARIABLES = new Set<string>(BUILTIN_KEYS);

const EXPRESSION = /\{\{([^{}]*)\}\}/g;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Names used inside the `{{...}}` expressions of a text (DSL calls included: `{{base64(Hostname)}}`). */
function namesIn(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(EXPRESSION)) names.push(...(m[1]!.match(IDENTIFIER) ?? []));
  return names;
}

/** A raw request that gives neither an absolute URL nor a Host header can only go to the target. */
function rawHasOwnHost(raw: string): boolean {
  const lines = raw
    .replace(/^\s+/, '')
    .split(/\r?\n/)
    .filter((l) => !l.trim().startsWith('@'));
  const target = lines[0]?.trim().split(/\s+/)[1] ?? '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return true;
  for (const line of lines.slice(1)) {
    if (line.trim() === '') break;
    if (/^host\s*:\s*\S/i.test(line)) return true;
  }
  return false;
}

/**
 * Why the login template needs a target, or undefined when it can run without one. `given` are the
 * entry's variables: a name set there does not come from the target.
 */
export function loginTargetNeed(t: Template, given: Record<string, string>): string | undefined {
  if (t.selfContained) return undefined;
  const used = new Set<string>();
  for (const r of t.http) {
    if (r.raw.some((raw) => !rawHasOwnHost(raw)))
      return 'its raw request has neither an absolute URL nor a Host header';
    const texts = [...r.path, ...r.raw, ...Object.entries(r.headers).flat(), r.body ?? ''];
    for (const text of texts) for (const n of namesIn(text)) used.add(n);
  }
  // Template variables and constants may build the URL from the target in turn.
  const defs: Record<string, string> = { ...t.variables, ...t.constants };
  const seen = new Set<string>();
  const queue = [...used];
  const targetNames: string[] = [];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name) || name in given) continue;
    seen.add(name);
    if (name in defs) queue.push(...namesIn(defs[name]!));
    else if (TARGET_VARIABLES.has(name)) targetNames.push(name);
  }
  if (targetNames.length === 0) return undefined;
  return `its requests use ${[...new Set(targetNames)].map((n) => `{{${n}}}`).join(', ')}`;
}
