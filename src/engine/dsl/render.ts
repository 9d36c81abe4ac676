// Template rendering: {{expr}} and §name§ markers are replaced by their values. Inner markers are
// rendered first ({{base64('{{Host}}')}}), substituted values are never scanned again, and a marker whose
// expression needs a variable we do not have stays as written.
import { toStr, type Vars } from './values.ts';

export interface MarkerEvaluator {
  (expr: string, vars: Vars): { ok: true; value: unknown } | { ok: false };
}

/** Find the '}}' closing the '{{' at `open`, counting nested pairs. */
function findClose(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length - 1; i++) {
    if (text[i] === '{' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && text[i + 1] === '}') {
      depth--;
      if (depth === 0) return i;
      i++;
    }
  }
  return -1;
}

/** Render to a string; raw-byte values appear as one character per byte (latin1). */
export function renderWith(text: string, vars: Vars, evalMarker: MarkerEvaluator): string {
  if (!text.includes('{{') && !text.includes('§')) return text;
  return renderParts(text, vars, evalMarker).map((p) => (typeof p === 'string' ? p : toStr(p))).join('');
}

/** Render to exact bytes: text as UTF-8, raw-byte values (hex_decode, gzip ...) unchanged. */
export function renderBytesWith(text: string, vars: Vars, evalMarker: MarkerEvaluator): Buffer {
  return Buffer.concat(renderParts(text, vars, evalMarker).map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
}

function renderParts(text: string, vars: Vars, evalMarker: MarkerEvaluator): (string | Uint8Array)[] {
  const parts: (string | Uint8Array)[] = [];
  const emit = (v: unknown) => parts.push(v instanceof Uint8Array ? v : toStr(v));
  let out = '';
  const flush = () => {
    if (out) parts.push(out);
    out = '';
  };
  let i = 0;
  while (i < text.length) {
    const brace = text.indexOf('{{', i);
    const para = text.indexOf('§', i);
    if (brace < 0 && para < 0) {
      out += text.slice(i);
      break;
    }
    if (para >= 0 && (brace < 0 || para < brace)) {
      const end = text.indexOf('§', para + 1);
      if (end < 0) {
        out += text.slice(i);
        break;
      }
      out += text.slice(i, para);
      const inner = text.slice(para + 1, end);
      const r = inner.trim() !== '' ? evalMarker(inner.trim(), vars) : { ok: false as const };
      if (r.ok) {
        flush();
        emit(r.value);
      } else out += text.slice(para, end + 1);
      i = end + 1;
      continue;
    }
    const close = findClose(text, brace);
    if (close < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, brace);
    const rawInner = text.slice(brace + 2, close);
    const inner = renderWith(rawInner, vars, evalMarker).trim();
    const r = inner !== '' ? evalMarker(inner, vars) : { ok: false as const };
    if (r.ok) {
      flush();
      emit(r.value);
    } else out += text.slice(brace, close + 2);
    i = close + 2;
  }
  flush();
  return parts;
}

/** The marker bodies ({{...}} and §...§) present in a text, outermost only. */
export function markers(text: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < text.length) {
    const brace = text.indexOf('{{', i);
    const para = text.indexOf('§', i);
    if (brace < 0 && para < 0) break;
    if (para >= 0 && (brace < 0 || para < brace)) {
      const end = text.indexOf('§', para + 1);
      if (end < 0) break;
      found.push(text.slice(para + 1, end).trim());
      i = end + 1;
      continue;
    }
    const close = findClose(text, brace);
    if (close < 0) break;
    found.push(text.slice(brace + 2, close).trim());
    i = close + 2;
  }
  return found;
}
