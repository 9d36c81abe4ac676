// Go encoding/json output: map keys sorted, <, > and & escaped as \u003c..., U+2028/9 escaped.
import { DslError } from '../errors.ts';

function escapeGo(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

export function goJsonMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return escapeGo(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goJsonMarshal).join(',') + ']';
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return (
      '{' +
      Object.keys(o)
        .sort()
        .map((k) => escapeGo(k) + ':' + goJsonMarshal(o[k]))
        .join(',') +
      '}'
    );
  }
  return escapeGo(String(v));
}

/** json.Indent: re-indents the input keeping its key order and number spelling. */
export function goJsonIndent(src: string, indent: string): string {
  try {
    JSON.parse(src);
  } catch (e) {
    throw new DslError(`invalid JSON: ${(e as Error).message}`);
  }
  let out = '';
  let depth = 0;
  let inStr = false;
  let needIndent = false;
  const nl = () => '\n' + indent.repeat(depth);
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (inStr) {
      out += c;
      if (c === '\\') out += src[++i];
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (needIndent && c !== ']' && c !== '}') {
      out += nl();
      needIndent = false;
    }
    switch (c) {
      case '"':
        inStr = true;
        out += c;
        break;
      case '{':
      case '[':
        depth++;
        out += c;
        needIndent = true;
        break;
      case '}':
      case ']':
        depth--;
        if (needIndent)
          needIndent = false; // empty object/array stays compact
        else out += nl();
        out += c;
        break;
      case ',':
        out += c + nl();
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += c;
    }
  }
  return out;
}
