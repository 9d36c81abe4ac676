// Where in the template text a validator issue is: the line and column of the field it names
// (`http[0].matchers[1].type`), or of the YAML syntax error. The console's editor marks issues there.
// Uses the `yaml` package's source ranges (js-yaml keeps none); one template at a time, so its cost is fine.
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export interface Located {
  line: number;
  column: number;
}

/** `http[0].matchers[1].type` -> ['http', 0, 'matchers', 1, 'type']. */
export function fieldPath(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

export function locateIssue(text: string, field: string, reason: string): Located | undefined {
  const syntax = /\((\d+):(\d+)\)/.exec(reason);
  if (syntax && /invalid YAML/.test(reason)) return { line: Number(syntax[1]), column: Number(syntax[2]) };
  if (!field) return undefined;
  const lc = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false });
  } catch {
    return undefined;
  }
  // Walk down as far as the path exists: a missing field is marked at its nearest parent.
  let node: unknown = doc.contents;
  let at: number | undefined = (node as Node | null)?.range?.[0];
  for (const key of fieldPath(field)) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => String((p.key as { value?: unknown } | null)?.value ?? p.key) === String(key),
      );
      if (!pair) break;
      at = (pair.key as Node | null)?.range?.[0] ?? at;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key];
      at = (node as Node | null)?.range?.[0] ?? at;
    } else break;
  }
  if (at === undefined) return undefined;
  const pos = lc.linePos(at);
  return { line: pos.line, column: pos.col };
}
