// A jq parser for the subset real templates use: paths, iteration, slices, pipes, commas, //, and/or,
// comparisons, arithmetic, object and array construction, string interpolation, if/then/else, variables
// (`as $x`), optional `?` and function calls with `;`-separated arguments.

export type JqNode =
  | { k: 'identity' }
  | { k: 'recurse' }
  | { k: 'lit'; v: unknown }
  | { k: 'str'; parts: (string | JqNode)[] }
  | { k: 'index'; target: JqNode; key: JqNode; opt: boolean }
  | { k: 'slice'; target: JqNode; from: JqNode | null; to: JqNode | null; opt: boolean }
  | { k: 'iterate'; target: JqNode; opt: boolean }
  | { k: 'try'; body: JqNode }
  | { k: 'pipe'; left: JqNode; right: JqNode }
  | { k: 'comma'; left: JqNode; right: JqNode }
  | { k: 'bin'; op: string; left: JqNode; right: JqNode }
  | { k: 'neg'; arg: JqNode }
  | { k: 'array'; body: JqNode | null }
  | { k: 'object'; entries: { key: JqNode; value: JqNode | null }[] }
  | { k: 'call'; name: string; args: JqNode[] }
  | { k: 'var'; name: string }
  | { k: 'as'; source: JqNode; name: string; body: JqNode }
  | { k: 'if'; cond: JqNode; then: JqNode; elifs: [JqNode, JqNode][]; else: JqNode | null }
  | { k: 'reduce'; source: JqNode; name: string; init: JqNode; update: JqNode };

type Tok = {
  t: 'op' | 'ident' | 'field' | 'num' | 'str' | 'var' | 'eof';
  v: string;
  parts?: (string | string)[];
  raw?: (string | { expr: string })[];
};

const OPS = [
  '?//',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '|=',
  '..',
  '|',
  ',',
  '.',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  ':',
  ';',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '?',
  '=',
];

export class JqSyntaxError extends Error {}

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      // String with \( ) interpolation: keep raw pieces, parse the expressions later.
      const raw: (string | { expr: string })[] = [];
      let cur = '';
      i++;
      while (i < src.length && src[i] !== '"') {
        if (src[i] === '\\') {
          const d = src[i + 1];
          if (d === '(') {
            let depth = 1;
            let j = i + 2;
            while (j < src.length && depth > 0) {
              if (src[j] === '(') depth++;
              else if (src[j] === ')') depth--;
              j++;
            }
            if (cur) raw.push(cur);
            cur = '';
            raw.push({ expr: src.slice(i + 2, j - 1) });
            i = j;
            continue;
          }
          const map: Record<string, string> = {
            n: '\n',
            t: '\t',
            r: '\r',
            b: '\b',
            f: '\f',
            '"': '"',
            '\\': '\\',
            '/': '/',
          };
          if (d === 'u') {
            cur += String.fromCharCode(Number.parseInt(src.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          if (map[d] === undefined) throw new JqSyntaxError(`invalid escape \\${d}`);
          cur += map[d];
          i += 2;
          continue;
        }
        cur += src[i++];
      }
      if (i >= src.length) throw new JqSyntaxError('unterminated string');
      i++;
      if (cur || raw.length === 0) raw.push(cur);
      toks.push({ t: 'str', v: '', raw });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i))!;
      toks.push({ t: 'num', v: m[0] });
      i += m[0].length;
      continue;
    }
    if (c === '$') {
      const m = /^\$[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
      if (!m) throw new JqSyntaxError('bad variable');
      toks.push({ t: 'var', v: m[0].slice(1) });
      i += m[0].length;
      continue;
    }
    if (c === '.' && /[A-Za-z_]/.test(src[i + 1] ?? '')) {
      const m = /^\.[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      toks.push({ t: 'field', v: m[0].slice(1) });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_@]/.test(c)) {
      const m = /^@?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i))!;
      toks.push({ t: 'ident', v: m[0] });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new JqSyntaxError(`unexpected character '${c}'`);
    toks.push({ t: 'op', v: op });
    i += op.length;
  }
  toks.push({ t: 'eof', v: '' });
  return toks;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'if',
  'then',
  'elif',
  'else',
  'end',
  'as',
  'reduce',
  'foreach',
  'try',
  'catch',
  'def',
  'import',
  'include',
  'label',
]);

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.i];
  }
  private next(): Tok {
    return this.toks[this.i++];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private isIdent(v: string): boolean {
    const t = this.peek();
    return t.t === 'ident' && t.v === v;
  }
  private expectOp(v: string): void {
    const t = this.next();
    if (t.t !== 'op' || t.v !== v) throw new JqSyntaxError(`expected '${v}' but found '${t.v || t.t}'`);
  }
  private expectIdent(v: string): void {
    const t = this.next();
    if (t.t !== 'ident' || t.v !== v) throw new JqSyntaxError(`expected '${v}' but found '${t.v || t.t}'`);
  }

  parseProgram(): JqNode {
    const n = this.parsePipe();
    if (this.peek().t !== 'eof') throw new JqSyntaxError(`unexpected '${this.peek().v}'`);
    return n;
  }

  parsePipe(): JqNode {
    const left = this.parseComma();
    if (this.isIdent('as')) {
      this.next();
      const v = this.next();
      if (v.t !== 'var') throw new JqSyntaxError('expected $name after as');
      this.expectOp('|');
      return { k: 'as', source: left, name: v.v, body: this.parsePipe() };
    }
    if (this.isOp('|')) {
      this.next();
      return { k: 'pipe', left, right: this.parsePipe() };
    }
    return left;
  }

  private parseComma(): JqNode {
    let left = this.parseAlt();
    while (this.isOp(',')) {
      this.next();
      left = { k: 'comma', left, right: this.parseAlt() };
    }
    return left;
  }

  private parseAlt(): JqNode {
    const left = this.parseOr();
    if (this.isOp('//')) {
      this.next();
      return { k: 'bin', op: '//', left, right: this.parseAlt() };
    }
    return left;
  }

  private parseOr(): JqNode {
    let left = this.parseAnd();
    while (this.isIdent('or')) {
      this.next();
      left = { k: 'bin', op: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): JqNode {
    let left = this.parseCmp();
    while (this.isIdent('and')) {
      this.next();
      left = { k: 'bin', op: 'and', left, right: this.parseCmp() };
    }
    return left;
  }

  private parseCmp(): JqNode {
    const left = this.parseAdd();
    const t = this.peek();
    if (t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.next();
      return { k: 'bin', op: t.v, left, right: this.parseAdd() };
    }
    return left;
  }

  private parseAdd(): JqNode {
    let left = this.parseMul();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '+' || t.v === '-')) {
        this.next();
        left = { k: 'bin', op: t.v, left, right: this.parseMul() };
      } else return left;
    }
  }

  private parseMul(): JqNode {
    let left = this.parseUnary();
    for (;;) {
      const t = this.peek();
      if (t.t === 'op' && (t.v === '*' || t.v === '/' || t.v === '%')) {
        this.next();
        left = { k: 'bin', op: t.v, left, right: this.parseUnary() };
      } else return left;
    }
  }

  private parseUnary(): JqNode {
    if (this.isOp('-')) {
      this.next();
      return { k: 'neg', arg: this.parsePostfix() };
    }
    return this.parsePostfix();
  }

  /** Suffixes after a term: .name, ."name", [..], [], ?, and jq 1.7's .[..] */
  private parsePostfix(): JqNode {
    let node = this.parseTerm();
    for (;;) {
      const t = this.peek();
      if (t.t === 'field') {
        this.next();
        node = { k: 'index', target: node, key: { k: 'lit', v: t.v }, opt: false };
      } else if (t.t === 'op' && t.v === '.' && this.toks[this.i + 1].t === 'str') {
        this.next();
        node = { k: 'index', target: node, key: this.stringNode(this.next()), opt: false };
      } else if (t.t === 'op' && t.v === '.' && this.toks[this.i + 1].t === 'op' && this.toks[this.i + 1].v === '[') {
        this.next();
      } else if (t.t === 'op' && t.v === '[') {
        node = this.parseBracket(node);
      } else if (t.t === 'op' && t.v === '?') {
        this.next();
        node = { k: 'try', body: node };
      } else return node;
    }
  }

  private parseBracket(target: JqNode): JqNode {
    this.expectOp('[');
    if (this.isOp(']')) {
      this.next();
      return { k: 'iterate', target, opt: false };
    }
    if (this.isOp(':')) {
      this.next();
      const to = this.parsePipe();
      this.expectOp(']');
      return { k: 'slice', target, from: null, to, opt: false };
    }
    const key = this.parsePipe();
    if (this.isOp(':')) {
      this.next();
      const to = this.isOp(']') ? null : this.parsePipe();
      this.expectOp(']');
      return { k: 'slice', target, from: key, to, opt: false };
    }
    this.expectOp(']');
    return { k: 'index', target, key, opt: false };
  }

  private stringNode(t: Tok): JqNode {
    const parts = (t.raw ?? []).map((p) => (typeof p === 'string' ? p : parseJq(p.expr)));
    if (parts.every((p) => typeof p === 'string')) return { k: 'lit', v: parts.join('') };
    return { k: 'str', parts };
  }

  private parseTerm(): JqNode {
    const t = this.next();
    switch (t.t) {
      case 'num':
        return { k: 'lit', v: Number(t.v) };
      case 'str':
        return this.stringNode(t);
      case 'field':
        return { k: 'index', target: { k: 'identity' }, key: { k: 'lit', v: t.v }, opt: false };
      case 'var':
        return { k: 'var', name: t.v };
      case 'op':
        if (t.v === '.') {
          if (this.peek().t === 'str')
            return { k: 'index', target: { k: 'identity' }, key: this.stringNode(this.next()), opt: false };
          return { k: 'identity' };
        }
        if (t.v === '..') return { k: 'recurse' };
        if (t.v === '(') {
          const e = this.parsePipe();
          this.expectOp(')');
          return e;
        }
        if (t.v === '[') {
          if (this.isOp(']')) {
            this.next();
            return { k: 'array', body: null };
          }
          const body = this.parsePipe();
          this.expectOp(']');
          return { k: 'array', body };
        }
        if (t.v === '{') return this.parseObject();
        throw new JqSyntaxError(`unexpected '${t.v}'`);
      case 'ident': {
        if (t.v === 'true') return { k: 'lit', v: true };
        if (t.v === 'false') return { k: 'lit', v: false };
        if (t.v === 'null') return { k: 'lit', v: null };
        if (t.v === 'if') return this.parseIf();
        if (t.v === 'reduce') return this.parseReduce();
        if (t.v === 'try') {
          const body = this.parsePostfix();
          return { k: 'try', body };
        }
        if (KEYWORDS.has(t.v)) throw new JqSyntaxError(`unexpected keyword '${t.v}'`);
        const args: JqNode[] = [];
        if (this.isOp('(')) {
          this.next();
          args.push(this.parsePipe());
          while (this.isOp(';')) {
            this.next();
            args.push(this.parsePipe());
          }
          this.expectOp(')');
        }
        return { k: 'call', name: t.v, args };
      }
      default:
        throw new JqSyntaxError('unexpected end of query');
    }
  }

  private parseIf(): JqNode {
    const cond = this.parsePipe();
    this.expectIdent('then');
    const then = this.parsePipe();
    const elifs: [JqNode, JqNode][] = [];
    let els: JqNode | null = null;
    while (this.isIdent('elif')) {
      this.next();
      const c = this.parsePipe();
      this.expectIdent('then');
      elifs.push([c, this.parsePipe()]);
    }
    if (this.isIdent('else')) {
      this.next();
      els = this.parsePipe();
    }
    this.expectIdent('end');
    return { k: 'if', cond, then, elifs, else: els };
  }

  private parseReduce(): JqNode {
    const source = this.parsePostfix();
    this.expectIdent('as');
    const v = this.next();
    if (v.t !== 'var') throw new JqSyntaxError('expected $name in reduce');
    this.expectOp('(');
    const init = this.parsePipe();
    this.expectOp(';');
    const update = this.parsePipe();
    this.expectOp(')');
    return { k: 'reduce', source, name: v.v, init, update };
  }

  private parseObject(): JqNode {
    const entries: { key: JqNode; value: JqNode | null }[] = [];
    if (this.isOp('}')) {
      this.next();
      return { k: 'object', entries };
    }
    for (;;) {
      const t = this.next();
      let key: JqNode;
      if (t.t === 'ident') key = { k: 'lit', v: t.v };
      else if (t.t === 'str') key = this.stringNode(t);
      else if (t.t === 'var') {
        // {$x} means {"x": $x}
        entries.push({ key: { k: 'lit', v: t.v }, value: { k: 'var', name: t.v } });
        if (this.isOp(',')) {
          this.next();
          continue;
        }
        this.expectOp('}');
        return { k: 'object', entries };
      } else if (t.t === 'op' && t.v === '(') {
        key = this.parsePipe();
        this.expectOp(')');
      } else throw new JqSyntaxError(`bad object key '${t.v}'`);
      let value: JqNode | null = null;
      if (this.isOp(':')) {
        this.next();
        value = this.parseObjectValue();
      }
      entries.push({ key, value });
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      this.expectOp('}');
      return { k: 'object', entries };
    }
  }

  /** Object values bind tighter than ',' (which separates entries) but allow pipes in parentheses. */
  private parseObjectValue(): JqNode {
    let left = this.parseAlt();
    while (this.isOp('|')) {
      this.next();
      left = { k: 'pipe', left, right: this.parseAlt() };
    }
    return left;
  }
}

export function parseJq(src: string): JqNode {
  return new Parser(lex(src)).parseProgram();
}
