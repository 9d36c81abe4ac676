// Parses govaluate-syntax expressions with jsep. jsep is configured once (it is a global singleton) with
// govaluate's operators and precedence, and hooks for the parts of govaluate's lexer that differ from
// JavaScript: quoted strings where a backslash simply keeps the next character, and [bracketed] variable
// names that may contain any character.
import jsep from 'jsep';
import { DslError } from './errors.ts';

export type Node =
  | { kind: 'lit'; value: unknown }
  | { kind: 'var'; name: string }
  | { kind: 'call'; name: string; args: Node[] }
  | { kind: 'unary'; op: string; arg: Node }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'cond'; test: Node; then: Node; else: Node | null }
  | { kind: 'array'; items: Node[] };

let configured = false;

function configure(): void {
  if (configured) return;
  configured = true;
  for (const op of Object.keys(jsep.binary_ops)) jsep.removeBinaryOp(op);
  for (const op of Object.keys(jsep.unary_ops)) jsep.removeUnaryOp(op);
  // govaluate precedence, lowest first: ?? (with ?:), ||, &&, comparators, bitwise, shifts, additive,
  // multiplicative, exponent.
  // govaluate's ternary is two binary operators: `c ? x` gives x or nil, `v : y` gives v unless nil.
  // jsep's own ternary plugin is switched off so that a lone ':' (seen in real templates) parses too.
  (jsep.hooks as unknown as Record<string, unknown[]>)['after-expression'] = [];
  const levels: [string[], number][] = [
    [['??', '?', ':'], 1],
    [['||'], 2],
    [['&&'], 3],
    [['==', '!=', '>', '<', '>=', '<=', '=~', '!~', 'IN', 'in'], 4],
    [['&', '|', '^'], 5],
    [['<<', '>>'], 6],
    [['+', '-'], 7],
    [['*', '/', '%'], 8],
    [['**'], 9],
  ];
  for (const [ops, prec] of levels) for (const op of ops) jsep.addBinaryOp(op, prec);
  for (const op of ['-', '!', '~']) jsep.addUnaryOp(op);
  jsep.removeAllLiterals();
  jsep.addLiteral('true', true);
  jsep.addLiteral('false', false);
  jsep.addLiteral('nil', null);
  jsep.addLiteral('null', null);

  jsep.hooks.add('gobble-token', function (env) {
    const quote = this.char;
    if (quote === '"' || quote === "'") {
      let out = '';
      let i = this.index + 1;
      const src = this.expr;
      while (i < src.length && src[i] !== quote) {
        if (src[i] === '\\' && i + 1 < src.length) {
          out += src[i + 1];
          i += 2;
          continue;
        }
        out += src[i++];
      }
      if (i >= src.length) this.throwError('Unclosed quote after "' + out + '"');
      this.index = i + 1;
      env.node = { type: 'Literal', value: out, raw: src.slice(this.index, i + 1) };
    } else if (quote === '0' && /^0x[0-9a-fA-F]+/.test(this.expr.slice(this.index))) {
      // govaluate reads 0x.. literals as (double) numbers
      const m = /^0x[0-9a-fA-F]+/.exec(this.expr.slice(this.index))![0];
      this.index += m.length;
      env.node = { type: 'Literal', value: Number.parseInt(m.slice(2), 16), raw: m };
    } else if (quote === '[') {
      const end = this.expr.indexOf(']', this.index + 1);
      if (end < 0) this.throwError('Unclosed [');
      const name = this.expr.slice(this.index + 1, end);
      this.index = end + 1;
      env.node = { type: 'Identifier', name };
    }
  });
}

/** a.b.c written in an expression is the variable named "a.b.c" (govaluate reads dots as name chars). */
function dottedName(e: jsep.Expression): string | undefined {
  if (e.type === 'Identifier') return e.name as string;
  if (e.type === 'MemberExpression' && !e.computed) {
    const left = dottedName(e.object as jsep.Expression);
    const prop = e.property as jsep.Expression;
    if (left !== undefined && prop.type === 'Identifier') return `${left}.${prop.name as string}`;
  }
  return undefined;
}

function convert(e: jsep.Expression, isFunction: (name: string) => boolean): Node {
  switch (e.type) {
    case 'Literal':
      return { kind: 'lit', value: e.value };
    case 'Identifier':
      return { kind: 'var', name: e.name as string };
    case 'MemberExpression': {
      const name = dottedName(e);
      if (name !== undefined) return { kind: 'var', name };
      throw new DslError('unsupported member access in expression');
    }
    case 'CallExpression': {
      const callee = e.callee as jsep.Expression;
      if (callee.type !== 'Identifier') throw new DslError('only named functions can be called');
      const name = callee.name as string;
      if (!isFunction(name)) throw new DslError(`Undefined function ${name}`);
      return { kind: 'call', name, args: (e.arguments as jsep.Expression[]).map((a) => convert(a, isFunction)) };
    }
    case 'UnaryExpression':
      return { kind: 'unary', op: e.operator as string, arg: convert(e.argument as jsep.Expression, isFunction) };
    case 'BinaryExpression':
      return {
        kind: 'binary',
        op: (e.operator as string) === 'in' ? 'IN' : (e.operator as string),
        left: convert(e.left as jsep.Expression, isFunction),
        right: convert(e.right as jsep.Expression, isFunction),
      };
    case 'ConditionalExpression':
      return {
        kind: 'cond',
        test: convert(e.test as jsep.Expression, isFunction),
        then: convert(e.consequent as jsep.Expression, isFunction),
        else: e.alternate ? convert(e.alternate as jsep.Expression, isFunction) : null,
      };
    case 'SequenceExpression':
      return { kind: 'array', items: (e.expressions as jsep.Expression[]).map((x) => convert(x, isFunction)) };
    case 'ArrayExpression':
      return { kind: 'array', items: (e.elements as jsep.Expression[]).map((x) => convert(x, isFunction)) };
    case 'Compound':
      throw new DslError('unexpected token in expression (missing operator?)');
    default:
      throw new DslError(`unsupported syntax in expression: ${e.type}`);
  }
}

export function parse(expr: string, isFunction: (name: string) => boolean): Node {
  configure();
  if (expr.trim() === '') throw new DslError('empty expression');
  let ast: jsep.Expression;
  try {
    // A top-level comma makes the whole expression an array, as in govaluate.
    ast = jsep(hasTopLevelComma(expr) ? `(${expr})` : expr);
  } catch (e) {
    throw new DslError(`invalid expression '${expr}': ${(e as Error).message}`);
  }
  return convert(ast, isFunction);
}

function hasTopLevelComma(expr: string): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) return true;
  }
  return false;
}
