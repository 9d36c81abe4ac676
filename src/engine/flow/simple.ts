// Flows that are only protocol calls joined by &&, || and !, with parentheses, one or more per line:
// `http(1) && http(2)`, `dns() && (http(1) || http(2))`. That is 97% of the corpus's flows that call no
// `code`, `javascript` or `headless` block, and it needs no JavaScript engine: the calls are evaluated
// in order with JavaScript's short-circuit rules, each call running its block(s) and answering whether
// any matcher matched. Flows with statements (if, for, set, template[...]) are refused with a reason.
import jsep from 'jsep';

/** The protocol functions a flow may call; `network` is the old name of `tcp`. */
export const FLOW_PROTOCOLS = [
  'http',
  'dns',
  'tcp',
  'network',
  'ssl',
  'file',
  'headless',
  'websocket',
  'whois',
  'code',
  'javascript',
] as const;
const PROTOCOLS = new Set<string>(FLOW_PROTOCOLS);

/** The protocols a flow's text calls (for flows with statements, which are not compiled here). */
export function calledProtocols(source: string): string[] {
  const re = new RegExp(`\\b(${FLOW_PROTOCOLS.join('|')})\\s*\\(`, 'g');
  return [...new Set([...source.matchAll(re)].map((m) => (m[1] === 'network' ? 'tcp' : m[1]!)))];
}

/** Runs the blocks of `protocol` named by `ids` (1-based positions or block ids; none = all, in order). */
export type FlowCall = (protocol: string, ids: string[]) => Promise<boolean>;

export type FlowNode =
  | { kind: 'call'; protocol: string; ids: string[] }
  | { kind: 'and' | 'or'; left: FlowNode; right: FlowNode }
  | { kind: 'not'; arg: FlowNode }
  | { kind: 'const'; value: boolean }
  | { kind: 'seq'; body: FlowNode[] };

export interface CompiledFlow {
  root: FlowNode;
  /** Every call in the flow (for checks: which protocols it needs). */
  calls: { protocol: string; ids: string[] }[];
}

/** Comments out, strings kept (a `//` inside quotes is not a comment). */
function stripComments(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = src.indexOf(c, i + 1);
      const stop = end < 0 ? src.length : end + 1;
      out += src.slice(i, stop);
      i = stop - 1;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

type JsepNode = jsep.Expression & Record<string, unknown>;

function toNode(n: JsepNode, calls: CompiledFlow['calls']): FlowNode {
  switch (n.type) {
    case 'Compound':
      return { kind: 'seq', body: (n.body as JsepNode[]).map((b) => toNode(b, calls)) };
    case 'BinaryExpression': {
      const op = n.operator as string;
      if (op !== '&&' && op !== '||') throw new Error(`operator ${op} is not a protocol-call flow`);
      return {
        kind: op === '&&' ? 'and' : 'or',
        left: toNode(n.left as JsepNode, calls),
        right: toNode(n.right as JsepNode, calls),
      };
    }
    case 'UnaryExpression':
      if (n.operator !== '!') throw new Error(`operator ${String(n.operator)} is not a protocol-call flow`);
      return { kind: 'not', arg: toNode(n.argument as JsepNode, calls) };
    case 'Literal':
      if (typeof n.value === 'boolean') return { kind: 'const', value: n.value };
      throw new Error(`a bare value (${String(n.raw)}) is not a protocol call`);
    case 'CallExpression': {
      const callee = n.callee as JsepNode;
      const name = callee.type === 'Identifier' ? String(callee.name) : '';
      if (!PROTOCOLS.has(name)) throw new Error(`${name || 'this'}() is not a protocol call`);
      const ids = (n.arguments as JsepNode[]).map((a) => {
        if (a.type !== 'Literal' || (typeof a.value !== 'number' && typeof a.value !== 'string'))
          throw new Error(`${name}() takes request positions or ids`);
        return String(a.value);
      });
      const protocol = name === 'network' ? 'tcp' : name;
      calls.push({ protocol, ids });
      return { kind: 'call', protocol, ids };
    }
    default:
      throw new Error(`${n.type} is not a protocol-call flow`);
  }
}

/**
 * Compiles a flow of protocol calls; a flow with anything else (statements, variables, loops) gives
 * `{ error }` with the reason, so the template can be reported as not run.
 */
export function compileSimpleFlow(source: string): CompiledFlow | { error: string } {
  const src = stripComments(source).replace(/;/g, '\n').trim();
  if (src === '') return { error: 'the flow is empty' };
  // One expression per line (a line ending in an operator or an open parenthesis continues).
  let parsed: JsepNode;
  try {
    parsed = jsep(src) as JsepNode;
  } catch (err) {
    return { error: `the flow uses JavaScript beyond protocol calls (${(err as Error).message})` };
  }
  const calls: CompiledFlow['calls'] = [];
  try {
    return { root: toNode(parsed, calls), calls };
  } catch (err) {
    return { error: `the flow uses JavaScript beyond protocol calls: ${(err as Error).message}` };
  }
}

/** Evaluates the flow with JavaScript's short-circuit rules; the value of its last expression. */
export async function runSimpleFlow(flow: CompiledFlow, call: FlowCall): Promise<boolean> {
  const ev = async (n: FlowNode): Promise<boolean> => {
    switch (n.kind) {
      case 'call':
        return call(n.protocol, n.ids);
      case 'and':
        return (await ev(n.left)) && ev(n.right);
      case 'or':
        return (await ev(n.left)) || ev(n.right);
      case 'not':
        return !(await ev(n.arg));
      case 'const':
        return n.value;
      case 'seq': {
        let last = false;
        for (const b of n.body) last = await ev(b);
        return last;
      }
    }
  };
  return ev(flow.root);
}
