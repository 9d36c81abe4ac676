// XPath evaluation over the small DOM: node-sets in document order, existential comparisons, and the
// string functions templates use (contains, starts-with, translate, matches, normalize-space ...).
import type { XExpr, XStep } from './parser.ts';
import { stringValue, type XNode } from './dom.ts';
import { compileGoRegex } from '../../dsl/goregex.ts';

type Val = XNode[] | string | number | boolean;

interface Ctx {
  node: XNode;
  pos: number;
  size: number;
}

function isSet(v: Val): v is XNode[] {
  return Array.isArray(v);
}

function str(v: Val): string {
  if (isSet(v)) return v.length ? stringValue(v[0]) : '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isNaN(v) ? 'NaN' : String(v);
  return String(v);
}

function num(v: Val): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = str(v).trim();
  return s === '' ? NaN : Number(s);
}

function bool(v: Val): boolean {
  if (isSet(v)) return v.length > 0;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return v;
}

function sortUnique(nodes: XNode[]): XNode[] {
  return [...new Set(nodes)].sort((a, b) => a.order - b.order);
}

function descendants(n: XNode, out: XNode[]): void {
  for (const c of n.children) {
    out.push(c);
    descendants(c, out);
  }
}

function axisNodes(n: XNode, axis: string): XNode[] {
  switch (axis) {
    case 'child':
      return n.children;
    case 'attribute':
      return n.attrs;
    case 'self':
      return [n];
    case 'parent':
      return n.parent ? [n.parent] : [];
    case 'descendant': {
      const o: XNode[] = [];
      descendants(n, o);
      return o;
    }
    case 'descendant-or-self': {
      const o: XNode[] = [n];
      descendants(n, o);
      return o;
    }
    case 'ancestor':
    case 'ancestor-or-self': {
      const o: XNode[] = axis === 'ancestor-or-self' ? [n] : [];
      for (let p = n.parent; p; p = p.parent) o.push(p);
      return o; // reverse axis: nearest first
    }
    case 'following-sibling':
    case 'preceding-sibling': {
      if (!n.parent || n.type === 'attribute') return [];
      const sib = n.parent.children;
      const i = sib.indexOf(n);
      return axis === 'following-sibling' ? sib.slice(i + 1) : sib.slice(0, i).reverse();
    }
    case 'following':
    case 'preceding': {
      let root = n;
      while (root.parent) root = root.parent;
      const all: XNode[] = [];
      descendants(root, all);
      const anc = new Set(axisNodes(n, 'ancestor'));
      const mine = new Set(axisNodes(n, 'descendant'));
      return axis === 'following'
        ? all.filter((x) => x.order > n.order && !mine.has(x))
        : all.filter((x) => x.order < n.order && !anc.has(x)).reverse();
    }
    default:
      return [];
  }
}

function testNode(n: XNode, step: XStep): boolean {
  const t = step.test;
  if (t.kind === 'type') {
    if (t.type === 'node') return true;
    return n.type === t.type;
  }
  const principal = step.axis === 'attribute' ? 'attribute' : 'element';
  if (n.type !== principal) return false;
  if (t.kind === 'any') return true;
  const name = t.name.includes(':') && !n.name.includes(':') ? t.name.split(':')[1] : t.name;
  return n.name === name || n.name.toLowerCase() === name.toLowerCase();
}

function applyPreds(nodes: XNode[], preds: XExpr[]): XNode[] {
  let cur = nodes;
  for (const p of preds) {
    cur = cur.filter((node, i) => {
      const v = evaluate(p, { node, pos: i + 1, size: cur.length });
      return typeof v === 'number' ? v === i + 1 : bool(v);
    });
  }
  return cur;
}

function runSteps(start: XNode[], steps: XStep[]): XNode[] {
  let set = start;
  for (const step of steps) {
    const next: XNode[] = [];
    for (const n of set)
      next.push(
        ...applyPreds(
          axisNodes(n, step.axis).filter((x) => testNode(x, step)),
          step.preds,
        ),
      );
    set = sortUnique(next);
  }
  return set;
}

function compare(op: string, a: Val, b: Val): boolean {
  const cmp = (x: Val, y: Val): boolean => {
    if (op === '=' || op === '!=') {
      let eq: boolean;
      if (typeof x === 'boolean' || typeof y === 'boolean') eq = bool(x) === bool(y);
      else if (typeof x === 'number' || typeof y === 'number') eq = num(x) === num(y);
      else eq = str(x) === str(y);
      return op === '=' ? eq : !eq;
    }
    const l = num(x);
    const r = num(y);
    return op === '<' ? l < r : op === '>' ? l > r : op === '<=' ? l <= r : l >= r;
  };
  if (isSet(a) && isSet(b)) return a.some((x) => b.some((y) => cmp(stringValue(x), stringValue(y))));
  if (isSet(a)) return typeof b === 'boolean' ? cmp(bool(a), b) : a.some((x) => cmp(stringValue(x), b));
  if (isSet(b)) return typeof a === 'boolean' ? cmp(a, bool(b)) : b.some((y) => cmp(a, stringValue(y)));
  return cmp(a, b);
}

function callFn(name: string, args: XExpr[], ctx: Ctx): Val {
  const a = (i: number) => evaluate(args[i], ctx);
  const s = (i: number) => (args.length > i ? str(a(i)) : stringValue(ctx.node));
  switch (name) {
    case 'contains':
      return s(0).includes(s(1));
    case 'starts-with':
      return s(0).startsWith(s(1));
    case 'ends-with':
      return s(0).endsWith(s(1));
    case 'not':
      return !bool(a(0));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'boolean':
      return bool(a(0));
    case 'number':
      return args.length ? num(a(0)) : num(stringValue(ctx.node));
    case 'string':
      return s(0);
    case 'concat':
      return args.map((_, i) => str(a(i))).join('');
    case 'normalize-space':
      return s(0).trim().replace(/\s+/g, ' ');
    case 'string-length':
      return Array.from(s(0)).length;
    case 'lower-case':
      return s(0).toLowerCase();
    case 'upper-case':
      return s(0).toUpperCase();
    case 'translate': {
      const from = Array.from(str(a(1)));
      const to = Array.from(str(a(2)));
      return Array.from(s(0))
        .map((ch) => {
          const i = from.indexOf(ch);
          return i < 0 ? ch : i < to.length ? to[i] : '';
        })
        .join('');
    }
    case 'matches': {
      const flags = args.length > 2 ? str(a(2)) : '';
      const re = compileGoRegex((flags.includes('i') ? '(?i)' : '') + str(a(1)));
      return re.test(s(0));
    }
    case 'substring': {
      const chars = Array.from(s(0));
      const start = Math.round(num(a(1)));
      const len = args.length > 2 ? Math.round(num(a(2))) : Infinity;
      return chars.filter((_, i) => i + 1 >= start && i + 1 < start + len).join('');
    }
    case 'substring-before': {
      const x = s(0);
      const i = x.indexOf(str(a(1)));
      return i < 0 ? '' : x.slice(0, i);
    }
    case 'substring-after': {
      const x = s(0);
      const y = str(a(1));
      const i = x.indexOf(y);
      return i < 0 ? '' : x.slice(i + y.length);
    }
    case 'count': {
      const v = a(0);
      return isSet(v) ? v.length : 0;
    }
    case 'sum': {
      const v = a(0);
      return isSet(v) ? v.reduce((acc, n) => acc + num(stringValue(n)), 0) : num(v);
    }
    case 'position':
      return ctx.pos;
    case 'last':
      return ctx.size;
    case 'name':
    case 'local-name': {
      const v = args.length ? a(0) : [ctx.node];
      const n = isSet(v) ? v[0] : undefined;
      return n && (n.type === 'element' || n.type === 'attribute')
        ? name === 'local-name'
          ? n.name.split(':').pop()!
          : n.name
        : '';
    }
    case 'floor':
      return Math.floor(num(a(0)));
    case 'ceiling':
      return Math.ceil(num(a(0)));
    case 'round':
      return Math.round(num(a(0)));
    default:
      throw new Error(`unknown xpath function ${name}()`);
  }
}

export function evaluate(e: XExpr, ctx: Ctx): Val {
  switch (e.k) {
    case 'str':
      return e.v;
    case 'num':
      return e.v;
    case 'neg':
      return -num(evaluate(e.arg, ctx));
    case 'fn':
      return callFn(e.name, e.args, ctx);
    case 'filter': {
      const v = evaluate(e.expr, ctx);
      if (!isSet(v)) throw new Error('predicate on a non-node-set');
      return applyPreds(v, e.preds);
    }
    case 'path': {
      let start: XNode[];
      if (e.start) {
        const v = evaluate(e.start, ctx);
        if (!isSet(v)) throw new Error('path step on a non-node-set');
        start = v;
      } else if (e.absolute) {
        let root = ctx.node;
        while (root.parent) root = root.parent;
        start = [root];
      } else start = [ctx.node];
      return runSteps(start, e.steps);
    }
    case 'bin': {
      switch (e.op) {
        case 'or':
          return bool(evaluate(e.left, ctx)) || bool(evaluate(e.right, ctx));
        case 'and':
          return bool(evaluate(e.left, ctx)) && bool(evaluate(e.right, ctx));
        case '|': {
          const l = evaluate(e.left, ctx);
          const r = evaluate(e.right, ctx);
          if (!isSet(l) || !isSet(r)) throw new Error('| needs node-sets');
          return sortUnique([...l, ...r]);
        }
        case '=':
        case '!=':
        case '<':
        case '>':
        case '<=':
        case '>=':
          return compare(e.op, evaluate(e.left, ctx), evaluate(e.right, ctx));
        default: {
          const l = num(evaluate(e.left, ctx));
          const r = num(evaluate(e.right, ctx));
          return e.op === '+' ? l + r : e.op === '-' ? l - r : e.op === '*' ? l * r : e.op === 'div' ? l / r : l % r;
        }
      }
    }
  }
}
