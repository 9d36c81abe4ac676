// XPath queries over HTML or XML response text, for xpath matchers and extractors.
import { parseMarkup, stringValue, type XNode } from './dom.ts';
import { evaluate } from './eval.ts';
import { parseXPathExpr, type XExpr } from './parser.ts';

export interface XPathHit {
  /** Inner text of an element, or the value of an attribute node. */
  text: string;
  /** An attribute of the matched element ('' when absent). */
  attr(name: string): string;
}

const exprCache = new Map<string, XExpr>();

export function parseXPath(q: string): XExpr {
  let e = exprCache.get(q);
  if (!e) {
    e = parseXPathExpr(q);
    if (exprCache.size > 2000) exprCache.clear();
    exprCache.set(q, e);
  }
  return e;
}

let lastDoc: { src: string; doc: XNode } | undefined;

function documentFor(src: string): XNode {
  if (lastDoc && lastDoc.src === src) return lastDoc.doc;
  const xml = src.trimStart().startsWith('<?xml');
  const doc = parseMarkup(src, xml);
  lastDoc = { src, doc };
  return doc;
}

/** Nodes selected by `query` in `src`; an invalid query or a non-node result selects nothing. */
export function queryXPath(src: string, query: string): XPathHit[] {
  let expr: XExpr;
  try {
    expr = parseXPath(query);
  } catch {
    return [];
  }
  const doc = documentFor(src);
  let v;
  try {
    v = evaluate(expr, { node: doc, pos: 1, size: 1 });
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return v.map((n) => ({
    text: stringValue(n),
    attr: (name: string) => {
      if (n.type === 'attribute') return n.name === name ? n.value : '';
      return n.attrs.find((a) => a.name === name || a.name === name.toLowerCase())?.value ?? '';
    },
  }));
}
