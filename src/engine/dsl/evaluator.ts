// Evaluates a parsed expression with govaluate's rules: numbers are doubles, '+' concatenates when either
// side is a string, comparisons need two numbers or two strings, && and || need booleans and short-circuit,
// =~ / !~ use Go regex syntax, IN tests membership of an array.
import { DslError } from './errors.ts';
import { compileGoRegex } from './goregex.ts';
import type { Node } from './parser.ts';
import { callFunction } from './functions/registry.ts';
import { isBytes, sprint, toBytes, valuesEqual, fromBytes, type Vars } from './values.ts';

function isNum(v: unknown): v is number {
  return typeof v === 'number';
}

function isText(v: unknown): v is string | Uint8Array {
  return typeof v === 'string' || isBytes(v);
}

function needNumber(v: unknown, op: string): number {
  if (typeof v === 'number') return v;
  throw new DslError(`Value '${sprint(v)}' cannot be used with the modifier '${op}', it is not a number`);
}

function needBool(v: unknown, op: string): boolean {
  if (typeof v === 'boolean') return v;
  throw new DslError(`Value '${sprint(v)}' cannot be used with the logical operator '${op}', it is not a bool`);
}

/** Go converts float64 to int64 for bitwise operators. */
function toInt64(n: number): bigint {
  return BigInt.asIntN(64, BigInt(Math.trunc(n)));
}

function compare(op: string, l: unknown, r: unknown): boolean {
  let a: number | string;
  let b: number | string;
  if (isNum(l) && isNum(r)) {
    a = l;
    b = r;
  } else if (isText(l) && isText(r)) {
    a = typeof l === 'string' ? l : toBytes(l).toString('latin1');
    b = typeof r === 'string' ? r : toBytes(r).toString('latin1');
  } else {
    throw new DslError(`Value '${sprint(l)}' cannot be used with the comparator '${op}', it is not a number`);
  }
  switch (op) {
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    default:
      return a <= b;
  }
}

function regexTest(op: string, l: unknown, r: unknown): boolean {
  if (!isText(l) || !isText(r)) {
    throw new DslError(
      `Value '${sprint(isText(l) ? r : l)}' cannot be used with the comparator '${op}', it is not a string`,
    );
  }
  const re = compileGoRegex(typeof r === 'string' ? r : toBytes(r).toString('latin1'));
  const hit = re.test(typeof l === 'string' ? l : toBytes(l).toString('latin1'));
  return op === '=~' ? hit : !hit;
}

function binary(op: string, l: unknown, r: unknown): unknown {
  switch (op) {
    case '+':
      if (isNum(l) && isNum(r)) return l + r;
      if (isText(l) || isText(r)) {
        if (isBytes(l) || isBytes(r)) {
          return fromBytes(
            Buffer.concat([isText(l) ? toBytes(l) : toBytes(sprint(l)), isText(r) ? toBytes(r) : toBytes(sprint(r))]),
          );
        }
        return (typeof l === 'string' ? l : sprint(l)) + (typeof r === 'string' ? r : sprint(r));
      }
      throw new DslError(`Value '${sprint(l)}' cannot be used with the modifier '+', it is not a number`);
    case '-':
      return needNumber(l, op) - needNumber(r, op);
    case '*':
      return needNumber(l, op) * needNumber(r, op);
    case '/':
      return needNumber(l, op) / needNumber(r, op);
    case '%': {
      const a = needNumber(l, op);
      const b = needNumber(r, op);
      return a % b; // math.Mod keeps the dividend's sign, like JS
    }
    case '**':
      return Math.pow(needNumber(l, op), needNumber(r, op));
    case '&':
      return Number(toInt64(needNumber(l, op)) & toInt64(needNumber(r, op)));
    case '|':
      return Number(toInt64(needNumber(l, op)) | toInt64(needNumber(r, op)));
    case '^':
      return Number(toInt64(needNumber(l, op)) ^ toInt64(needNumber(r, op)));
    case '<<':
      return Number(BigInt.asIntN(64, toInt64(needNumber(l, op)) << BigInt(Math.trunc(needNumber(r, op)))));
    case '>>':
      return Number(toInt64(needNumber(l, op)) >> BigInt(Math.trunc(needNumber(r, op))));
    case '==':
      return valuesEqual(l, r);
    case '!=':
      return !valuesEqual(l, r);
    case '>':
    case '<':
    case '>=':
    case '<=':
      return compare(op, l, r);
    case '=~':
    case '!~':
      return regexTest(op, l, r);
    case 'IN': {
      if (!Array.isArray(r))
        throw new DslError(`Value '${sprint(r)}' cannot be used with the comparator 'IN', it is not an array`);
      return r.some((x) => valuesEqual(l, x));
    }
    default:
      throw new DslError(`unsupported operator ${op}`);
  }
}

export function evalNode(node: Node, vars: Vars): unknown {
  switch (node.kind) {
    case 'lit':
      return node.value;
    case 'var': {
      if (!Object.prototype.hasOwnProperty.call(vars, node.name)) {
        throw new DslError(`No parameter '${node.name}' found.`, node.name);
      }
      const v = vars[node.name];
      return v === undefined ? null : v;
    }
    case 'array':
      return node.items.map((x) => evalNode(x, vars));
    case 'call': {
      let args = node.args.map((a) => evalNode(a, vars));
      // govaluate hands a lone (a, b) array argument over as the argument list.
      if (node.args.length === 1 && node.args[0].kind === 'array') args = args[0] as unknown[];
      return callFunction(node.name, args);
    }
    case 'unary': {
      const v = evalNode(node.arg, vars);
      if (node.op === '!') return !needBool(v, '!');
      if (node.op === '-') return -needNumber(v, '-');
      if (node.op === '~') return Number(~toInt64(needNumber(v, '~')));
      throw new DslError(`unsupported operator ${node.op}`);
    }
    case 'binary': {
      const op = node.op;
      if (op === '&&' || op === '||') {
        const l = needBool(evalNode(node.left, vars), op);
        if (op === '&&' && !l) return false;
        if (op === '||' && l) return true;
        return needBool(evalNode(node.right, vars), op);
      }
      if (op === '?') {
        const t = evalNode(node.left, vars);
        if (typeof t !== 'boolean')
          throw new DslError(`Value '${sprint(t)}' cannot be used with the ternary operator '?', it is not a bool`);
        return t ? evalNode(node.right, vars) : null;
      }
      if (op === ':') {
        const l = evalNode(node.left, vars);
        return l === null || l === undefined ? evalNode(node.right, vars) : l;
      }
      if (op === '??') {
        const l = evalNode(node.left, vars);
        return l === null || l === undefined ? evalNode(node.right, vars) : l;
      }
      return binary(op, evalNode(node.left, vars), evalNode(node.right, vars));
    }
    case 'cond': {
      const t = evalNode(node.test, vars);
      if (typeof t !== 'boolean')
        throw new DslError(`Value '${sprint(t)}' cannot be used with the ternary operator '?', it is not a bool`);
      if (t) return evalNode(node.then, vars);
      return node.else ? evalNode(node.else, vars) : null;
    }
  }
}

/** Variable names an expression reads, in first-use order. */
export function collectVariables(node: Node, out: string[] = []): string[] {
  switch (node.kind) {
    case 'var':
      if (!out.includes(node.name)) out.push(node.name);
      break;
    case 'array':
      node.items.forEach((x) => collectVariables(x, out));
      break;
    case 'call':
      node.args.forEach((x) => collectVariables(x, out));
      break;
    case 'unary':
      collectVariables(node.arg, out);
      break;
    case 'binary':
      collectVariables(node.left, out);
      collectVariables(node.right, out);
      break;
    case 'cond':
      collectVariables(node.test, out);
      collectVariables(node.then, out);
      if (node.else) collectVariables(node.else, out);
      break;
  }
  return out;
}
