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
  const pieces = piecesOf(text);
  let out = '';
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (typeof p === 'string') out += p;
    else {
      const r = markerValue(p, vars, evalMarker);
      out += r.ok ? toStr(r.value) : p.raw;
    }
  }
  return out;
}

/** Render to exact bytes: text as UTF-8, raw-byte values (hex_decode, gzip ...) unchanged. */
export function renderBytesWith(text: string, vars: Vars, evalMarker: MarkerEvaluator): Buffer {
  const parts: Buffer[] = [];
  let out = '';
  for (const p of piecesOf(text)) {
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const r = markerValue(p, vars, evalMarker);
    if (!r.ok) {
      out += p.raw;
      continue;
    }
    // Each value is encoded on its own, the text before it too (a lone surrogate stays one).
    if (out) parts.push(Buffer.from(out, 'utf8'));
    out = '';
    parts.push(r.value instanceof Uint8Array ? Buffer.from(r.value) : Buffer.from(toStr(r.value), 'utf8'));
  }
  if (out) parts.push(Buffer.from(out, 'utf8'));
  return Buffer.concat(parts);
}

// A text is split into literals and markers once (the same path and header texts are rendered for every
// request of a scan); rendering is then a walk over the pieces.
interface Marker {
  /** The body, trimmed; for a nested marker the body as written, rendered (then trimmed) each time. */
  body: string;
  /** A {{marker}} holding markers ({{base64('{{Host}}')}}): the inner ones are rendered first. */
  nested: boolean;
  /** The marker as written, kept when it has no value. */
  raw: string;
}
type Piece = string | Marker;
const cache = new Map<string, Piece[]>();

function piecesOf(text: string): Piece[] {
  let pieces = cache.get(text);
  if (pieces === undefined) {
    pieces = splitMarkers(text);
    if (cache.size >= 10_000) cache.clear();
    cache.set(text, pieces);
  }
  return pieces;
}

function markerValue(m: Marker, vars: Vars, evalMarker: MarkerEvaluator): { ok: true; value: unknown } | { ok: false } {
  const expr = m.nested ? renderWith(m.body, vars, evalMarker).trim() : m.body;
  return expr !== '' ? evalMarker(expr, vars) : { ok: false };
}

function splitMarkers(text: string): Piece[] {
  const pieces: Piece[] = [];
  let lit = '';
  const marker = (body: string, nested: boolean, raw: string) => {
    if (body === '') {
      lit += raw; // an empty marker stays as written
      return;
    }
    if (lit) pieces.push(lit);
    lit = '';
    pieces.push({ body, nested, raw });
  };
  let i = 0;
  while (i < text.length) {
    const brace = text.indexOf('{{', i);
    const para = text.indexOf('§', i);
    if (brace < 0 && para < 0) {
      lit += text.slice(i);
      break;
    }
    if (para >= 0 && (brace < 0 || para < brace)) {
      const end = text.indexOf('§', para + 1);
      if (end < 0) {
        lit += text.slice(i);
        break;
      }
      lit += text.slice(i, para);
      marker(text.slice(para + 1, end).trim(), false, text.slice(para, end + 1));
      i = end + 1;
      continue;
    }
    const close = findClose(text, brace);
    if (close < 0) {
      lit += text.slice(i);
      break;
    }
    lit += text.slice(i, brace);
    const inner = text.slice(brace + 2, close);
    const nested = inner.includes('{{') || inner.includes('§');
    marker(nested ? inner : inner.trim(), nested, text.slice(brace, close + 2));
    i = close + 2;
  }
  if (lit) pieces.push(lit);
  return pieces;
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
