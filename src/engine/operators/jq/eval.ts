// Evaluates parsed jq queries. Every filter maps one input to a list of outputs (jq's streams).
import type { JqNode } from './parser.ts';
import { goJsonMarshal } from '../../dsl/functions/gojson.ts';

export class JqError extends Error {}

type Env = Record<string, unknown>;

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object'
    ? 'object'
    : typeof v === 'number'
      ? 'number'
      : typeof v === 'boolean'
        ? 'boolean'
        : 'string';
}

function truthy(v: unknown): boolean {
  return v !== null && v !== undefined && v !== false;
}

const ORDER = ['null', 'boolean', 'number', 'string', 'array', 'object'];

export function compareJson(a: unknown, b: unknown): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) return ORDER.indexOf(ta) - ORDER.indexOf(tb);
  switch (ta) {
    case 'null':
      return 0;
    case 'boolean':
      return Number(a) - Number(b);
    case 'number':
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 'string':
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareJson(x[i], y[i]);
        if (c) return c;
      }
      return x.length - y.length;
    }
    default: {
      const ka = Object.keys(a as object).sort();
      const kb = Object.keys(b as object).sort();
      const c = compareJson(ka, kb);
      if (c) return c;
      for (const k of ka) {
        const d = compareJson((a as Env)[k], (b as Env)[k]);
        if (d) return d;
      }
      return 0;
    }
  }
}

function contains(a: unknown, b: unknown): boolean {
  const ta = typeName(a);
  if (ta !== typeName(b)) throw new JqError(`${ta} and ${typeName(b)} cannot have their containment checked`);
  if (ta === 'string') return (a as string).includes(b as string);
  if (ta === 'array')
    return (b as unknown[]).every((y) => (a as unknown[]).some((x) => typeName(x) === typeName(y) && contains(x, y)));
  if (ta === 'object')
    return Object.keys(b as object).every(
      (k) => Object.prototype.hasOwnProperty.call(a, k) && contains((a as Env)[k], (b as Env)[k]),
    );
  return compareJson(a, b) === 0;
}

function index(target: unknown, key: unknown): unknown {
  if (target === null || target === undefined) return null;
  if (typeof key === 'string') {
    if (typeof target !== 'object' || Array.isArray(target))
      throw new JqError(`Cannot index ${typeName(target)} with "${key}"`);
    const v = (target as Env)[key];
    return v === undefined ? null : v;
  }
  if (typeof key === 'number') {
    if (!Array.isArray(target)) throw new JqError(`Cannot index ${typeName(target)} with number`);
    const i = Math.floor(key);
    const v = target[i < 0 ? target.length + i : i];
    return v === undefined ? null : v;
  }
  throw new JqError(`Cannot index ${typeName(target)} with ${typeName(key)}`);
}

function iterate(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  throw new JqError(`Cannot iterate over ${typeName(v)}${v === null ? '' : ''}`);
}

function arith(op: string, a: unknown, b: unknown): unknown {
  if (op === '+') {
    if (a === null) return b;
    if (b === null) return a;
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (typeName(a) === 'object' && typeName(b) === 'object') return { ...(a as Env), ...(b as Env) };
  } else if (typeof a === 'number' && typeof b === 'number') {
    if (op === '-') return a - b;
    if (op === '*') return a * b;
    if (op === '/') {
      if (b === 0) throw new JqError('cannot be divided because the divisor is zero');
      return a / b;
    }
    if (op === '%') {
      if (Math.trunc(b) === 0) throw new JqError('cannot be divided because the divisor is zero');
      return Math.trunc(a) % Math.trunc(b);
    }
  } else if (op === '-' && Array.isArray(a) && Array.isArray(b)) {
    return a.filter((x) => !b.some((y) => compareJson(x, y) === 0));
  } else if (op === '/' && typeof a === 'string' && typeof b === 'string') {
    return a.split(b);
  }
  throw new JqError(`${typeName(a)} and ${typeName(b)} cannot be ${op === '+' ? 'added' : 'combined with ' + op}`);
}

function cartesian(lists: unknown[][]): unknown[][] {
  return lists.reduce<unknown[][]>((acc, list) => acc.flatMap((prefix) => list.map((x) => [...prefix, x])), [[]]);
}

function recurse(v: unknown, out: unknown[]): void {
  out.push(v);
  if (Array.isArray(v)) v.forEach((x) => recurse(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => recurse(x, out));
}

function one(node: JqNode, input: unknown, env: Env): unknown {
  const out = run(node, input, env);
  if (out.length === 0) throw new JqError('expected a value');
  return out[0];
}

function toEntries(v: unknown): unknown[] {
  if (typeName(v) !== 'object') throw new JqError(`${typeName(v)} has no keys`);
  return Object.entries(v as Env).map(([key, value]) => ({ key, value }));
}

function fromEntries(v: unknown): Env {
  const out: Env = {};
  for (const e of iterate(v)) {
    const o = e as Env;
    const key = o.key ?? o.k ?? o.name ?? o.Name ?? o.Key ?? o.K;
    out[typeof key === 'string' ? key : JSON.stringify(key)] = o.value ?? o.v ?? o.Value ?? o.V ?? null;
  }
  return out;
}

function callBuiltin(name: string, args: JqNode[], input: unknown, env: Env): unknown[] {
  const arity = args.length;
  const f = (i: number, x: unknown = input) => run(args[i], x, env);
  switch (`${name}/${arity}`) {
    case 'empty/0':
      return [];
    case 'not/0':
      return [!truthy(input)];
    case 'length/0': {
      if (input === null || input === undefined) return [0];
      if (typeof input === 'string') return [Array.from(input).length];
      if (typeof input === 'number') return [Math.abs(input)];
      if (typeof input === 'boolean') throw new JqError('boolean has no length');
      return [Array.isArray(input) ? input.length : Object.keys(input).length];
    }
    case 'keys/0':
    case 'keys_unsorted/0': {
      if (Array.isArray(input)) return [input.map((_, i) => i)];
      if (typeName(input) !== 'object') throw new JqError(`${typeName(input)} has no keys`);
      const ks = Object.keys(input as Env);
      return [name === 'keys' ? ks.sort() : ks];
    }
    case 'values/0':
      return truthy(input) || input === false ? (input === null ? [] : [input]) : [];
    case 'has/1':
      return f(0).map((k) =>
        Array.isArray(input)
          ? typeof k === 'number' && k >= 0 && k < input.length
          : Object.prototype.hasOwnProperty.call(input, k as string),
      );
    case 'select/1':
      return f(0)
        .filter(truthy)
        .map(() => input);
    case 'map/1':
      return [iterate(input).flatMap((x) => f(0, x))];
    case 'map_values/1': {
      if (Array.isArray(input)) return [input.map((x) => f(0, x)[0])];
      const o: Env = {};
      for (const [k, v] of Object.entries(input as Env)) {
        const r = f(0, v);
        if (r.length) o[k] = r[0];
      }
      return [o];
    }
    case 'to_entries/0':
      return [toEntries(input)];
    case 'from_entries/0':
      return [fromEntries(input)];
    case 'with_entries/1':
      return [fromEntries(toEntries(input).flatMap((e) => f(0, e)))];
    case 'contains/1':
      return f(0).map((b) => contains(input, b));
    case 'inside/1':
      return f(0).map((b) => contains(b, input));
    case 'startswith/1':
      return f(0).map((s) =>
        typeof input === 'string' && typeof s === 'string'
          ? input.startsWith(s)
          : (() => {
              throw new JqError('startswith() requires string inputs');
            })(),
      );
    case 'endswith/1':
      return f(0).map((s) =>
        typeof input === 'string' && typeof s === 'string'
          ? input.endsWith(s)
          : (() => {
              throw new JqError('endswith() requires string inputs');
            })(),
      );
    case 'ltrimstr/1':
      return f(0).map((s) =>
        typeof input === 'string' && typeof s === 'string' && input.startsWith(s) ? input.slice(s.length) : input,
      );
    case 'rtrimstr/1':
      return f(0).map((s) =>
        typeof input === 'string' && typeof s === 'string' && s !== '' && input.endsWith(s)
          ? input.slice(0, -s.length)
          : input,
      );
    case 'test/1':
    case 'test/2': {
      if (typeof input !== 'string') throw new JqError(`${typeName(input)} cannot be matched, as it is not a string`);
      const flags = arity === 2 ? String(f(1)[0] ?? '') : '';
      return f(0).map((re) => new RegExp(String(re), flags.replace(/[^imsu]/g, '')).test(input));
    }
    case 'ascii_downcase/0':
      return [String(input).replace(/[A-Z]/g, (c) => c.toLowerCase())];
    case 'ascii_upcase/0':
      return [String(input).replace(/[a-z]/g, (c) => c.toUpperCase())];
    case 'tostring/0':
      return [typeof input === 'string' ? input : goJsonMarshal(input)];
    case 'tonumber/0': {
      if (typeof input === 'number') return [input];
      const n = Number(input);
      if (typeof input !== 'string' || input.trim() === '' || Number.isNaN(n))
        throw new JqError(`Cannot parse '${String(input)}' as JSON`);
      return [n];
    }
    case 'tojson/0':
      return [goJsonMarshal(input)];
    case 'fromjson/0':
      return [JSON.parse(String(input))];
    case 'type/0':
      return [typeName(input)];
    case 'add/0':
      return [
        iterate(input).reduce((acc: unknown, x) => (acc === undefined ? x : arith('+', acc, x)), undefined) ?? null,
      ];
    case 'any/0':
      return [iterate(input).some(truthy)];
    case 'all/0':
      return [iterate(input).every(truthy)];
    case 'any/1':
      return [iterate(input).some((x) => f(0, x).some(truthy))];
    case 'all/1':
      return [iterate(input).every((x) => f(0, x).every(truthy))];
    case 'first/0':
      return [index(input, 0)];
    case 'last/0':
      return [index(input, -1)];
    case 'first/1':
      return f(0).slice(0, 1);
    case 'last/1':
      return f(0).slice(-1);
    case 'limit/2': {
      const n = Number(f(0)[0]);
      return f(1).slice(0, Math.max(0, n));
    }
    case 'reverse/0':
      return [
        typeof input === 'string'
          ? Array.from(input).reverse().join('')
          : input === null
            ? []
            : [...(input as unknown[])].reverse(),
      ];
    case 'sort/0':
      return [[...(input as unknown[])].sort(compareJson)];
    case 'sort_by/1':
      return [[...(input as unknown[])].sort((a, b) => compareJson(f(0, a), f(0, b)))];
    case 'group_by/1': {
      const sorted = [...(input as unknown[])].sort((a, b) => compareJson(f(0, a), f(0, b)));
      const groups: unknown[][] = [];
      for (const x of sorted) {
        const last = groups[groups.length - 1];
        if (last && compareJson(f(0, last[0]), f(0, x)) === 0) last.push(x);
        else groups.push([x]);
      }
      return [groups];
    }
    case 'unique/0':
      return [
        [...(input as unknown[])].sort(compareJson).filter((x, i, a) => i === 0 || compareJson(a[i - 1], x) !== 0),
      ];
    case 'unique_by/1': {
      const seen: unknown[] = [];
      const out: unknown[] = [];
      for (const x of [...(input as unknown[])].sort((a, b) => compareJson(f(0, a), f(0, b)))) {
        const k = f(0, x);
        if (!seen.some((s) => compareJson(s, k) === 0)) {
          seen.push(k);
          out.push(x);
        }
      }
      return [out];
    }
    case 'min/0':
      return [(input as unknown[]).length ? [...(input as unknown[])].sort(compareJson)[0] : null];
    case 'max/0':
      return [(input as unknown[]).length ? [...(input as unknown[])].sort(compareJson).pop() : null];
    case 'min_by/1':
      return [[...(input as unknown[])].sort((a, b) => compareJson(f(0, a), f(0, b)))[0] ?? null];
    case 'max_by/1':
      return [[...(input as unknown[])].sort((a, b) => compareJson(f(0, a), f(0, b))).pop() ?? null];
    case 'flatten/0':
    case 'flatten/1': {
      const depth = arity ? Number(f(0)[0]) : 1e9;
      return [(input as unknown[]).flat(depth)];
    }
    case 'join/1':
      return f(0).map((sep) =>
        iterate(input)
          .map((x) => (x === null ? '' : typeof x === 'string' ? x : goJsonMarshal(x)))
          .join(String(sep)),
      );
    case 'split/1':
      return f(0).map((sep) => String(input).split(String(sep)));
    case 'range/1': {
      const n = Number(f(0)[0]);
      return Array.from({ length: rangeLength(0, n) }, (_, i) => i);
    }
    case 'range/2': {
      const a = Number(f(0)[0]);
      const b = Number(f(1)[0]);
      const o: number[] = [];
      const len = rangeLength(a, b);
      for (let i = 0; i < len; i++) o.push(a + i);
      return o;
    }
    case 'floor/0':
      return [Math.floor(input as number)];
    case 'ceil/0':
      return [Math.ceil(input as number)];
    case 'round/0':
      return [Math.round(input as number)];
    case 'sqrt/0':
      return [Math.sqrt(input as number)];
    case 'abs/0':
      return [Math.abs(input as number)];
    case 'objects/0':
      return typeName(input) === 'object' ? [input] : [];
    case 'arrays/0':
      return Array.isArray(input) ? [input] : [];
    case 'strings/0':
      return typeof input === 'string' ? [input] : [];
    case 'numbers/0':
      return typeof input === 'number' ? [input] : [];
    case 'booleans/0':
      return typeof input === 'boolean' ? [input] : [];
    case 'nulls/0':
      return input === null ? [input] : [];
    case 'iterables/0':
      return Array.isArray(input) || typeName(input) === 'object' ? [input] : [];
    case 'scalars/0':
      return Array.isArray(input) || typeName(input) === 'object' ? [] : [input];
    case 'recurse/0': {
      const o: unknown[] = [];
      recurse(input, o);
      return o;
    }
    case 'error/0':
      throw new JqError(String(input));
    case 'error/1':
      throw new JqError(String(f(0)[0]));
    case 'ascii/0':
      return [String.fromCharCode(input as number)];
    case 'env/0':
      return [{}];
    case 'input/0':
    case 'inputs/0':
      return [];
    case 'splits/1':
      return f(0).flatMap((re) => String(input).split(new RegExp(String(re))));
    case 'sub/2':
    case 'gsub/2': {
      const re = new RegExp(String(f(0)[0]), name === 'gsub' ? 'g' : '');
      return f(1).map((r) => String(input).replace(re, String(r)));
    }
    case 'getpath/1':
      return f(0).map((p) => (p as unknown[]).reduce((acc: unknown, k) => index(acc, k), input));
    case 'paths/0': {
      const out: unknown[] = [];
      const walk = (v: unknown, path: unknown[]) => {
        const kids = Array.isArray(v)
          ? v.map((x, i) => [i, x] as const)
          : v && typeof v === 'object'
            ? Object.entries(v)
            : [];
        for (const [k, x] of kids) {
          out.push([...path, k]);
          walk(x, [...path, k]);
        }
      };
      walk(input, []);
      return out;
    }
    case 'in/1':
      return f(0).map((o) =>
        Array.isArray(o)
          ? typeof input === 'number' && input < o.length
          : Object.prototype.hasOwnProperty.call(o, input as string),
      );
    case 'index/1':
      return f(0).map((s) => {
        const i = String(input).indexOf(String(s));
        return i < 0 ? null : i;
      });
    case 'isempty/1':
      return [f(0).length === 0];
    case '@text/0':
      return [typeof input === 'string' ? input : goJsonMarshal(input)];
    case '@json/0':
      return [goJsonMarshal(input)];
    case '@base64/0':
      return [Buffer.from(typeof input === 'string' ? input : goJsonMarshal(input)).toString('base64')];
    case '@base64d/0':
      return [Buffer.from(String(input), 'base64').toString('utf8')];
    case '@uri/0':
      return [
        encodeURIComponent(String(input)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()),
      ];
    case '@html/0':
      return [
        String(input).replace(
          /[<>&'"]/g,
          (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[c]!,
        ),
      ];
    default:
      throw new JqError(`${name}/${arity} is not defined`);
  }
}

export function run(node: JqNode, input: unknown, env: Env): unknown[] {
  switch (node.k) {
    case 'identity':
      return [input];
    case 'recurse': {
      const o: unknown[] = [];
      recurse(input, o);
      return o;
    }
    case 'lit':
      return [node.v];
    case 'str': {
      let acc: string[] = [''];
      for (const p of node.parts) {
        if (typeof p === 'string') acc = acc.map((a) => a + p);
        else {
          const vals = run(p, input, env).map((v) => (typeof v === 'string' ? v : goJsonMarshal(v)));
          acc = acc.flatMap((a) => vals.map((v) => a + v));
        }
      }
      return acc;
    }
    case 'index':
      return run(node.target, input, env).flatMap((t) => run(node.key, input, env).map((k) => index(t, k)));
    case 'slice':
      return run(node.target, input, env).map((t) => {
        if (t === null) return null;
        const len = typeof t === 'string' ? t.length : (t as unknown[]).length;
        const norm = (v: unknown, d: number) => {
          if (v === null || v === undefined) return d;
          const n = Math.floor(v as number);
          return n < 0 ? Math.max(0, len + n) : Math.min(n, len);
        };
        const from = norm(node.from ? one(node.from, input, env) : null, 0);
        const to = norm(node.to ? one(node.to, input, env) : null, len);
        return (t as string | unknown[]).slice(from, Math.max(from, to));
      });
    case 'iterate':
      return run(node.target, input, env).flatMap(iterate);
    case 'try': {
      try {
        return run(node.body, input, env);
      } catch (e) {
        if (e instanceof JqError) return [];
        throw e;
      }
    }
    case 'pipe':
      return run(node.left, input, env).flatMap((x) => run(node.right, x, env));
    case 'comma':
      return [...run(node.left, input, env), ...run(node.right, input, env)];
    case 'neg':
      return run(node.arg, input, env).map((v) => {
        if (typeof v !== 'number') throw new JqError(`${typeName(v)} cannot be negated`);
        return -v;
      });
    case 'bin': {
      if (node.op === '//') {
        let left: unknown[];
        try {
          left = run(node.left, input, env).filter(truthy);
        } catch (e) {
          if (!(e instanceof JqError)) throw e;
          left = [];
        }
        return left.length ? left : run(node.right, input, env);
      }
      if (node.op === 'and' || node.op === 'or') {
        return run(node.left, input, env).flatMap((l) => {
          if (node.op === 'and' && !truthy(l)) return [false];
          if (node.op === 'or' && truthy(l)) return [true];
          return run(node.right, input, env).map(truthy);
        });
      }
      const rights = run(node.right, input, env);
      return rights.flatMap((r) =>
        run(node.left, input, env).map((l) => {
          switch (node.op) {
            case '==':
              return compareJson(l, r) === 0;
            case '!=':
              return compareJson(l, r) !== 0;
            case '<':
              return compareJson(l, r) < 0;
            case '<=':
              return compareJson(l, r) <= 0;
            case '>':
              return compareJson(l, r) > 0;
            case '>=':
              return compareJson(l, r) >= 0;
            default:
              return arith(node.op, l, r);
          }
        }),
      );
    }
    case 'array':
      return [node.body ? run(node.body, input, env) : []];
    case 'object': {
      const options = node.entries.map((e) => {
        const keys = run(e.key, input, env);
        return keys.flatMap((k) => {
          if (typeof k !== 'string') throw new JqError(`Object keys must be strings`);
          const values = e.value ? run(e.value, input, env) : [index(input, k)];
          return values.map((v) => [k, v] as const);
        });
      });
      return cartesian(options).map((pairs) => Object.fromEntries(pairs as [string, unknown][]));
    }
    case 'call':
      return callBuiltin(node.name, node.args, input, env);
    case 'var': {
      if (!Object.prototype.hasOwnProperty.call(env, node.name)) throw new JqError(`$${node.name} is not defined`);
      return [env[node.name]];
    }
    case 'as':
      return run(node.source, input, env).flatMap((v) => run(node.body, input, { ...env, [node.name]: v }));
    case 'if': {
      const branch = (conds: [JqNode, JqNode][], els: JqNode | null): unknown[] => {
        if (conds.length === 0) return els ? run(els, input, env) : [input];
        const [[c, t], ...rest] = conds;
        return run(c, input, env).flatMap((v) => (truthy(v) ? run(t, input, env) : branch(rest, els)));
      };
      return branch([[node.cond, node.then], ...node.elifs], node.else);
    }
    case 'reduce': {
      let acc = run(node.init, input, env);
      for (const v of run(node.source, input, env)) {
        acc = acc.flatMap((a) => run(node.update, a, { ...env, [node.name]: v }));
      }
      return acc;
    }
  }
}

/** Values one jq range may produce: a query can ask for range(1e12), the engine does not build that. */
export const MAX_JQ_RANGE = 100_000;

function rangeLength(from: number, to: number): number {
  const n = Math.ceil(to - from);
  if (!Number.isFinite(n) || n <= 0) return 0;
  if (n > MAX_JQ_RANGE) throw new Error(`range: ${n} values is over the limit of ${MAX_JQ_RANGE}`);
  return n;
}
