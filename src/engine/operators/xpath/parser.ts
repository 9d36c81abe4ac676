// XPath 1.0 expression parser (plus the XPath 2 functions templates use, such as matches()).

export type XExpr =
  | { k: 'path'; absolute: boolean; start?: XExpr; steps: XStep[] }
  | { k: 'bin'; op: string; left: XExpr; right: XExpr }
  | { k: 'neg'; arg: XExpr }
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'fn'; name: string; args: XExpr[] }
  | { k: 'filter'; expr: XExpr; preds: XExpr[] };

export interface XStep {
  axis: string;
  test: { kind: 'name'; name: string } | { kind: 'any' } | { kind: 'type'; type: 'text' | 'node' | 'comment' };
  preds: XExpr[];
}

type Tok = { t: 'name' | 'str' | 'num' | 'op' | 'eof'; v: string };

const AXES = new Set([
  'child',
  'descendant',
  'descendant-or-self',
  'self',
  'parent',
  'ancestor',
  'ancestor-or-self',
  'following-sibling',
  'preceding-sibling',
  'following',
  'preceding',
  'attribute',
]);

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Error('unterminated string literal');
      out.push({ t: 'str', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^\d*\.?\d+|^\d+\.?/.exec(src.slice(i))!;
      out.push({ t: 'num', v: m[0] });
      i += m[0].length;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['//', '::', '..', '!=', '<=', '>='].includes(two)) {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if ('/()[]@,|=<>*+-.$'.includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    const m = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/.exec(src.slice(i));
    if (!m) throw new Error(`unexpected character '${c}'`);
    // A trailing '-' or '.' belongs to the name only when followed by a name character.
    out.push({ t: 'name', v: m[0] });
    i += m[0].length;
  }
  out.push({ t: 'eof', v: '' });
  return out;
}

class P {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}
  private peek(o = 0) {
    return this.toks[this.i + o];
  }
  private next() {
    return this.toks[this.i++];
  }
  private isOp(v: string) {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private expect(v: string) {
    const t = this.next();
    if (t.v !== v) throw new Error(`expected '${v}' but found '${t.v || 'end'}'`);
  }

  parse(): XExpr {
    const e = this.or();
    if (this.peek().t !== 'eof') throw new Error(`unexpected '${this.peek().v}'`);
    return e;
  }
  private binLevel(ops: string[], sub: () => XExpr, names = false): XExpr {
    let left = sub();
    for (;;) {
      const t = this.peek();
      const match = names ? t.t === 'name' && ops.includes(t.v) : t.t === 'op' && ops.includes(t.v);
      // '*' is multiplication only after an operand; names 'and'/'or'/'div'/'mod' likewise.
      if (!match) return left;
      this.next();
      left = { k: 'bin', op: t.v, left, right: sub() };
    }
  }
  private or(): XExpr {
    return this.binLevel(['or'], () => this.and(), true);
  }
  private and(): XExpr {
    return this.binLevel(['and'], () => this.eq(), true);
  }
  private eq(): XExpr {
    return this.binLevel(['=', '!='], () => this.rel());
  }
  private rel(): XExpr {
    return this.binLevel(['<', '>', '<=', '>='], () => this.add());
  }
  private add(): XExpr {
    return this.binLevel(['+', '-'], () => this.mul());
  }
  private mul(): XExpr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if ((t.t === 'op' && t.v === '*') || (t.t === 'name' && (t.v === 'div' || t.v === 'mod'))) {
        this.next();
        left = { k: 'bin', op: t.v, left, right: this.unary() };
      } else return left;
    }
  }
  private unary(): XExpr {
    if (this.isOp('-')) {
      this.next();
      return { k: 'neg', arg: this.unary() };
    }
    return this.binLevel(['|'], () => this.pathExpr());
  }
  private pathExpr(): XExpr {
    const t = this.peek();
    const isPrimary =
      t.t === 'str' ||
      t.t === 'num' ||
      (t.t === 'op' && (t.v === '(' || t.v === '$')) ||
      (t.t === 'name' &&
        this.peek(1).t === 'op' &&
        this.peek(1).v === '(' &&
        !['text', 'node', 'comment', 'processing-instruction'].includes(t.v));
    if (isPrimary) {
      let e = this.primary();
      const preds: XExpr[] = [];
      while (this.isOp('[')) preds.push(this.predicate());
      if (preds.length) e = { k: 'filter', expr: e, preds };
      if (this.isOp('/') || this.isOp('//')) {
        const steps: XStep[] = [];
        this.relative(steps);
        return { k: 'path', absolute: false, start: e, steps };
      }
      return e;
    }
    const steps: XStep[] = [];
    if (this.isOp('/')) {
      this.next();
      const n = this.peek();
      if (n.t === 'name' || (n.t === 'op' && ['*', '@', '.', '..'].includes(n.v))) this.steps(steps);
      return { k: 'path', absolute: true, steps };
    }
    if (this.isOp('//')) {
      this.next();
      steps.push({ axis: 'descendant-or-self', test: { kind: 'type', type: 'node' }, preds: [] });
      this.steps(steps);
      return { k: 'path', absolute: true, steps };
    }
    this.steps(steps);
    return { k: 'path', absolute: false, steps };
  }
  private relative(steps: XStep[]): void {
    while (this.isOp('/') || this.isOp('//')) {
      if (this.next().v === '//')
        steps.push({ axis: 'descendant-or-self', test: { kind: 'type', type: 'node' }, preds: [] });
      steps.push(this.step());
    }
  }
  private steps(steps: XStep[]): void {
    steps.push(this.step());
    this.relative(steps);
  }
  private step(): XStep {
    if (this.isOp('.')) {
      this.next();
      return { axis: 'self', test: { kind: 'type', type: 'node' }, preds: [] };
    }
    if (this.isOp('..')) {
      this.next();
      return { axis: 'parent', test: { kind: 'type', type: 'node' }, preds: [] };
    }
    let axis = 'child';
    if (this.isOp('@')) {
      this.next();
      axis = 'attribute';
    } else if (this.peek().t === 'name' && this.peek(1).v === '::') {
      axis = this.next().v;
      if (!AXES.has(axis)) throw new Error(`unknown axis '${axis}'`);
      this.next();
    }
    const t = this.next();
    let test: XStep['test'];
    if (t.t === 'op' && t.v === '*') test = { kind: 'any' };
    else if (t.t === 'name' && this.isOp('(') && ['text', 'node', 'comment'].includes(t.v)) {
      this.next();
      this.expect(')');
      test = { kind: 'type', type: t.v as 'text' | 'node' | 'comment' };
    } else if (t.t === 'name') test = { kind: 'name', name: t.v };
    else throw new Error(`expected a node test but found '${t.v || 'end'}'`);
    const preds: XExpr[] = [];
    while (this.isOp('[')) preds.push(this.predicate());
    return { axis, test, preds };
  }
  private predicate(): XExpr {
    this.expect('[');
    const e = this.or();
    this.expect(']');
    return e;
  }
  private primary(): XExpr {
    const t = this.next();
    if (t.t === 'str') return { k: 'str', v: t.v };
    if (t.t === 'num') return { k: 'num', v: Number(t.v) };
    if (t.t === 'op' && t.v === '(') {
      const e = this.or();
      this.expect(')');
      return e;
    }
    if (t.t === 'op' && t.v === '$') throw new Error('variables are not supported');
    if (t.t === 'name') {
      this.expect('(');
      const args: XExpr[] = [];
      if (!this.isOp(')')) {
        args.push(this.or());
        while (this.isOp(',')) {
          this.next();
          args.push(this.or());
        }
      }
      this.expect(')');
      return { k: 'fn', name: t.v, args };
    }
    throw new Error(`unexpected '${t.v}'`);
  }
}

export function parseXPathExpr(src: string): XExpr {
  if (src.trim() === '') throw new Error('empty expression');
  return new P(lex(src)).parse();
}
