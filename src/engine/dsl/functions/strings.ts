// String helpers and predicates. Lengths and indexes count bytes, as Go strings do.
import { DslError } from '../errors.ts';
import { compileGoRegex, goReplaceAll } from '../goregex.ts';
import { atoi, fromBytes, toBool, toBytes, toStr } from '../values.ts';
import { define, invalid } from './registry.ts';

function cutsetHas(cutset: string): (ch: string) => boolean {
  const set = new Set(Array.from(cutset));
  return (ch) => set.has(ch);
}

function trimLeft(s: string, cutset: string): string {
  const has = cutsetHas(cutset);
  const chars = Array.from(s);
  let i = 0;
  while (i < chars.length && has(chars[i])) i++;
  return chars.slice(i).join('');
}

function trimRight(s: string, cutset: string): string {
  const has = cutsetHas(cutset);
  const chars = Array.from(s);
  let j = chars.length;
  while (j > 0 && has(chars[j - 1])) j--;
  return chars.slice(0, j).join('');
}

/** Go's unicode.IsSpace set, used by strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  return s
    .replace(/^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/, '')
    .replace(/[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/, '');
}

/** strings.SplitN; n < 0 means all parts. */
export function goSplitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const chars = Array.from(s);
    if (n < 0 || n >= chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function toChunks(input: string, size: number): string[] {
  const chars = Array.from(input);
  if (size <= 0 || size >= Buffer.byteLength(input)) return [input];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function titleCase(s: string): string {
  return s.replace(/[\p{L}\p{N}'\u2019]+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.map(toStr) : undefined;
}

export function registerStrings(): void {
  define('to_upper', 1, ([s]) => toStr(s).toUpperCase());
  define('to_lower', 1, ([s]) => toStr(s).toLowerCase());
  define('to_title', undefined, (a) => {
    if (a.length < 1) throw invalid('to_title');
    return titleCase(toStr(a[0]));
  });
  define('trim', 2, ([s, c]) => trimRight(trimLeft(toStr(s), toStr(c)), toStr(c)));
  define('trim_left', 2, ([s, c]) => trimLeft(toStr(s), toStr(c)));
  define('trim_right', 2, ([s, c]) => trimRight(toStr(s), toStr(c)));
  define('trim_space', 1, ([s]) => goTrimSpace(toStr(s)));
  define('trim_prefix', 2, ([s, p]) => {
    const str = toStr(s);
    const pre = toStr(p);
    return pre !== '' && str.startsWith(pre) ? str.slice(pre.length) : str;
  });
  define('trim_suffix', 2, ([s, p]) => {
    const str = toStr(s);
    const suf = toStr(p);
    return suf !== '' && str.endsWith(suf) ? str.slice(0, str.length - suf.length) : str;
  });
  define('replace', 3, ([s, o, n]) => {
    const old = toStr(o);
    const str = toStr(s);
    if (old === '')
      return (
        Array.from(str)
          .map((c) => toStr(n) + c)
          .join('') + toStr(n)
      );
    return str.split(old).join(toStr(n));
  });
  define('replace_regex', 3, ([s, p, r]) => goReplaceAll(toStr(s), compileGoRegex(toStr(p)), toStr(r)));
  define('reverse', 1, ([s]) => Array.from(toStr(s)).reverse().join(''));
  define('repeat', 2, ([s, n]) => {
    const count = atoi(n);
    if (count === undefined) throw invalid('repeat');
    if (count < 0) throw new DslError('repeat: negative Repeat count');
    const text = toStr(s);
    if (text.length * count > MAX_DSL_STRING)
      throw new DslError(`repeat: the result would be longer than ${MAX_DSL_STRING} characters`);
    return text.repeat(count);
  });
  define('remove_bad_chars', 2, ([s, bad]) => {
    let out = toStr(s);
    for (const c of Array.from(toStr(bad))) out = out.split(c).join('');
    return out;
  });
  define('concat', undefined, (a) => {
    // Raw bytes stay raw: Go concatenates the bytes of each argument.
    if (a.some((x) => x instanceof Uint8Array)) return fromBytes(Buffer.concat(a.map(toBytes)));
    return a.map(toStr).join('');
  });
  define('join', undefined, (a) => {
    if (a.length < 2) throw invalid('join');
    const sep = toStr(a[0]);
    if (a.length === 2) {
      const list = stringList(a[1]);
      if (!list) throw new DslError('join: cannot cast elements into string');
      return list.join(sep);
    }
    return a
      .slice(1)
      .map((x) => {
        if (Array.isArray(x)) throw new DslError('join: cannot use join on more than one slice element');
        return toStr(x);
      })
      .join(sep);
  });
  define('split', undefined, (a) => {
    if (a.length === 2) {
      const input = toStr(a[0]);
      const n = atoi(a[1]);
      if (n === undefined) return toStr(a[1]) === '' ? Array.from(input) : input.split(toStr(a[1]));
      return toChunks(input, n);
    }
    if (a.length === 3) {
      const n = atoi(a[2]);
      if (n === undefined) throw invalid('split');
      return goSplitN(toStr(a[0]), toStr(a[1]), n);
    }
    throw invalid('split');
  });
  define('substr', undefined, (a) => {
    if (a.length < 2) throw invalid('substr');
    const bytes = toBytes(a[0]);
    if (bytes.length === 0) throw new DslError('substr: empty string');
    const start = atoi(a[1]);
    if (start === undefined) throw new DslError('substr: invalid start position');
    if (start > bytes.length) throw new DslError('substr: start position bigger than slice length');
    if (start < 0) throw new DslError('substr: slice bounds out of range');
    if (a.length === 2) return fromBytes(bytes.subarray(start));
    const end = atoi(a[2]);
    if (end === undefined) throw new DslError('substr: invalid end position');
    if (end < 0) throw new DslError('substr: negative end position');
    if (end < start) throw new DslError('substr: end position before start');
    if (end > bytes.length) throw new DslError('substr: end position bigger than slice length start');
    return fromBytes(bytes.subarray(start, end));
  });
  define('sort', undefined, (a) => {
    if (a.length === 0) throw invalid('sort');
    if (a.length === 1)
      return Array.from(toStr(a[0]))
        .sort((x, y) => x.codePointAt(0)! - y.codePointAt(0)!)
        .join('');
    return a.map(toStr).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  });
  define('uniq', undefined, (a) => {
    if (a.length === 0) throw invalid('uniq');
    if (a.length === 1) return [...new Set(Array.from(toStr(a[0])))].join('');
    return [...new Set(a.map(toStr))];
  });
  define('index', 2, ([v, i]) => {
    const idx = atoi(i);
    if (idx === undefined) throw new DslError(`index: invalid index '${toStr(i)}'`);
    if (Array.isArray(v)) {
      if (idx < 0 || idx >= v.length) throw new DslError(`index out of range for ${toStr(v)}: ${idx}`);
      return v[idx];
    }
    const b = toBytes(v);
    if (idx < 0 || idx >= b.length) throw new DslError(`index out of range for ${toStr(v)}: ${idx}`);
    return fromBytes(b.subarray(idx, idx + 1));
  });
  define('len', 1, ([v]) => {
    if (Array.isArray(v)) return v.length;
    if (v instanceof Uint8Array) return v.length;
    if (v && typeof v === 'object') return Object.keys(v).length;
    return Buffer.byteLength(toStr(v));
  });
  define('count', undefined, (a) => {
    if (a.length < 2) throw invalid('count');
    const s = toStr(a[0]);
    const sub = toStr(a[1]);
    if (sub === '') return Array.from(s).length + 1;
    return s.split(sub).length - 1;
  });
  define('padding', 4, ([s, p, l, mode]) => {
    const len = typeof l === 'number' ? Math.trunc(l) : Math.trunc(Number.parseFloat(toStr(l)));
    if (Number.isNaN(len)) throw new DslError(`padding: invalid length '${toStr(l)}'`);
    if (len === 0) throw new DslError('padding: invalid padding length');
    const pad = toBytes(p);
    if (pad.length === 0) throw new DslError('padding: invalid padding byte');
    const data = toBytes(s);
    if (data.length >= len) return fromBytes(data);
    if (mode !== 'prefix' && mode !== 'suffix')
      throw new DslError("padding: padding mode must be 'prefix' or 'suffix'");
    const fill = Buffer.alloc(len - data.length);
    for (let i = 0; i < fill.length; i++) fill[i] = pad[i % pad.length];
    return fromBytes(mode === 'prefix' ? Buffer.concat([fill, data]) : Buffer.concat([data, fill]));
  });

  define('contains', 2, ([s, sub]) => toStr(s).includes(toStr(sub)));
  define('contains_all', undefined, (a) => {
    const body = toStr(a[0]);
    return a.slice(1).every((x) => body.includes(toStr(x)));
  });
  define('contains_any', undefined, (a) => {
    const body = toStr(a[0]);
    return a.slice(1).some((x) => body.includes(toStr(x)));
  });
  define('starts_with', undefined, (a) => {
    if (a.length < 2) throw invalid('starts_with');
    const s = toStr(a[0]);
    return a.slice(1).some((p) => s.startsWith(toStr(p)));
  });
  define('ends_with', undefined, (a) => {
    if (a.length < 2) throw invalid('ends_with');
    const s = toStr(a[0]);
    return a.slice(1).some((p) => s.endsWith(toStr(p)));
  });
  define('line_starts_with', undefined, (a) => {
    if (a.length < 2) throw invalid('line_starts_with');
    return toStr(a[0])
      .split('\n')
      .some((line) => a.slice(1).some((p) => line.startsWith(toStr(p))));
  });
  define('line_ends_with', undefined, (a) => {
    if (a.length < 2) throw invalid('line_ends_with');
    return toStr(a[0])
      .split('\n')
      .some((line) => a.slice(1).some((p) => line.endsWith(toStr(p))));
  });
  define('regex', 2, ([p, s]) => compileGoRegex(toStr(p)).test(toStr(s)));
  define('regex_all', undefined, (a) => {
    if (a.length < 2) throw invalid('regex_all');
    const re = compileGoRegex(toStr(a[0]));
    return a.slice(1).every((x) => re.test(toStr(x)));
  });
  define('regex_any', undefined, (a) => {
    if (a.length < 2) throw invalid('regex_any');
    const re = compileGoRegex(toStr(a[0]));
    return a.slice(1).some((x) => re.test(toStr(x)));
  });
  define('equals_any', undefined, (a) => {
    if (a.length < 2) throw invalid('equals_any');
    const s = toStr(a[0]);
    return a.slice(1).some((x) => toStr(x) === s);
  });

  define('to_string', 1, ([v]) => toStr(v));
  define('to_bool', 1, ([v]) => toBool(v));
  define('to_number', 1, ([v]) => {
    const s = toStr(v);
    if (/^[+-]?\d+$/.test(s)) return Number.parseInt(s, 10);
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number.parseFloat(s);
    throw new DslError(`to_number: ${s} could not be converted to int`);
  });
  define('print_debug', undefined, (a) => {
    if (a.length < 1) throw invalid('print_debug');
    debugOutput?.(`print_debug value: [${a.map(toStr).join(' ')}]`);
    return true;
  });
}

/**
 * Where print_debug writes: by default stderr, one line per call with control characters escaped (a
 * template must not forge log lines). A host that runs other people's templates next to secrets (the
 * platform's workers) turns it off with setDebugOutput(undefined).
 */
let debugOutput: ((line: string) => void) | undefined = (line) => process.stderr.write(escapeControl(line) + '\n');

export function setDebugOutput(fn: ((line: string) => void) | undefined): void {
  debugOutput = fn;
}

/** Control characters (newlines included) as JSON-style escapes, so one call is one line. */
export function escapeControl(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Longest string one DSL call may build (repeat, random text): templates cannot make the engine allocate more. */
export const MAX_DSL_STRING = 16 * 1024 * 1024;
