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
  const plan = planOf(text);
  if (plan === null) return renderWalking(text, vars, evalMarker);
  let out = '';
  for (let i = 0; i < plan.length; i++) {
    const p = plan[i]!;
    if (typeof p === 'string') out += p;
    else {
      const r = evalMarker(p.expr, vars);
      out += r.ok ? toStr(r.value) : p.raw;
    }
  }
  return out;
}

/** renderWith without the pieces cache, walking the text each time: what renderWith always equals (tested). */
export function renderWalking(text: string, vars: Vars, evalMarker: MarkerEvaluator): string {
  return renderParts(text, vars, evalMarker).map((p) => (typeof p === 'string' ? p : toStr(p))).join('');
}

// A text is split into literals and markers once (the same path and header texts are rendered for every
// request of a scan); rendering is then a walk over the pieces. Texts with a marker inside a marker
// ({{base64('{{Host}}')}}) are rendered by renderParts, which renders the inner ones first.
type Piece = string | { expr: string; raw: string };
const plans = new Map<string, Piece[] | null>();

function planOf(text: string): Piece[] | null {
  let plan = plans.get(text);
  if (plan === undefined) {
    plan = splitMarkers(text);
    if (plans.size >= 10_000) plans.clear();
    plans.set(text, plan);
  }
  return plan;
}

/** The pieces renderParts would walk through, or null when a {{marker}} holds another marker. */
function splitMarkers(text: string): Piece[] | null {
  const pieces: Piece[] = [];
  let lit = '';
  const marker = (expr: string, raw: string) => {
    if (expr === '') {
      lit += raw; // an empty marker stays as written
      return;
    }
    if (lit) pieces.push(lit);
    lit = '';
    pieces.push({ expr, raw });
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
      marker(text.slice(para + 1, end).trim(), text.slice(para, end + 1));
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
    if (inner.includes('{{') || inner.includes('§')) return null;
    marker(inner.trim(), text.slice(brace, close + 2));
    i = close + 2;
  }
  if (lit) pieces.push(lit);
  return pieces;
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
