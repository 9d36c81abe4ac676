// How values cross between the host and a sandboxed script: as text only. A value is JSON with one
// addition, byte arrays, written as {"\u0000bytes": "<one character per byte>"}. Text is all that
// crosses, so no object, function or prototype of either side ever reaches the other: a script's
// getters, proxies and cycles run (or fail) inside the sandbox while it writes the text, and what the
// host reads back is plain data from JSON.parse ("__proto__" is an own key there, never a prototype).
//
// HOST_ENCODE/HOST_DECODE are the host's side; VM_CODEC is the same format written as script source,
// for the sandbox's side (it runs inside QuickJS, before any template code, and keeps its own copies
// of the built-ins it uses so a script that replaces JSON or String later changes nothing of it).

const BYTES = '\u0000bytes';

/** Host value -> text. Buffers and other byte views become byte arrays; BigInts become strings. */
export function encodeValue(value: unknown): string {
  const text = JSON.stringify(
    value === undefined ? null : value,
    function replacer(this: Record<string, unknown>, key, v) {
      const raw = this[key];
      if (ArrayBuffer.isView(raw))
        return { [BYTES]: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1') };
      if (raw instanceof ArrayBuffer) return { [BYTES]: Buffer.from(raw).toString('latin1') };
      if (typeof v === 'bigint') return v.toString();
      return v;
    },
  );
  return text ?? 'null';
}

/** Text from a script -> host value: plain objects, arrays, strings, numbers, booleans, null, Buffers. */
export function decodeValue(text: string): unknown {
  return JSON.parse(text, (_key, v) => {
    if (
      v !== null &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      typeof v[BYTES] === 'string' &&
      Object.keys(v).length === 1
    ) {
      return Buffer.from(v[BYTES] as string, 'latin1');
    }
    return v;
  });
}

/**
 * Script source of an expression whose value is `{ encode, decode, message }`, the sandbox's side of
 * the format above: `encode(value)` -> text (throws a TypeError for a cycle, as JSON.stringify does),
 * `decode(text)` -> value (byte arrays as Uint8Array), `message(error)` -> a short text of a thrown value.
 */
export const VM_CODEC = `(() => {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, fromCharCode = String.fromCharCode;
  const apply = Reflect.apply, isView = ArrayBuffer.isView, keys = Object.keys, isArray = Array.isArray;
  const U8 = Uint8Array, AB = ArrayBuffer, Str = String;
  const BYTES = ${JSON.stringify(BYTES)};
  const byteView = (v) => (v instanceof AB ? new U8(v) : isView(v) ? new U8(v.buffer, v.byteOffset, v.byteLength) : undefined);
  function bytesText(u8) {
    let s = '';
    for (let i = 0; i < u8.length; i += 8192) s += apply(fromCharCode, null, u8.subarray(i, i + 8192));
    return s;
  }
  function replacer(key, v) {
    const b = byteView(v); // typed arrays have no toJSON: v is the array itself (this[key] would run a getter again)
    if (b !== undefined) return { [BYTES]: bytesText(b) };
    if (typeof v === 'bigint') return Str(v);
    return v;
  }
  function reviver(_key, v) {
    if (v !== null && typeof v === 'object' && !isArray(v) && typeof v[BYTES] === 'string' && keys(v).length === 1) {
      const s = v[BYTES];
      const u8 = new U8(s.length);
      for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
      return u8;
    }
    return v;
  }
  function encode(value) {
    const text = stringify(value === undefined ? null : value, replacer);
    return text === undefined ? 'null' : text;
  }
  function decode(text) { return parse(text, reviver); }
  function message(e) {
    try {
      if (e !== null && typeof e === 'object') {
        const m = e.message;
        const n = e.name;
        return (typeof n === 'string' && n !== 'Error' ? n + ': ' : '') + Str(m);
      }
      return Str(e);
    } catch {
      return 'the script threw a value that has no message';
    }
  }
  return { encode, decode, message };
})()`;

/**
 * Script source of a function (codec, call, names, dataText) -> [host, data]: one script function per
 * host function name, each encoding its arguments, calling the bridge `call(name, text)` and decoding
 * the answer (`{"v": value}`, or `{"e": message}` thrown as a plain Error); `data`, the values handed in.
 */
export const VM_SETUP = `(function (codec, call, names, dataText) {
  'use strict';
  const Err = Error, create = Object.create, encode = codec.encode, decode = codec.decode;
  const host = create(null);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    host[name] = function (...args) {
      const answer = decode(call(name, encode(args)));
      if (answer.e !== undefined) throw new Err(answer.e);
      return answer.v;
    };
  }
  return [host, decode(dataText)];
})`;

/** Without a prelude, the host functions and the values become globals by name. */
export const VM_INSTALL = `(function (host, data) {
  for (const k in host) globalThis[k] = host[k];
  for (const k in data) globalThis[k] = data[k];
})`;
