// Evaluation of one extractor. Results are unique and keep the order in which they were found.
import type { Extractor } from '../template/types.ts';
import { compile, DslError, valueToString } from '../dsl/index.ts';
import { compileGoRegex, withGlobal } from '../dsl/goregex.ts';
import { goJsonMarshal } from '../dsl/functions/gojson.ts';
import { sprint } from '../dsl/values.ts';
import { matchPart } from './parts.ts';
import { runJq } from './jq/index.ts';
import { queryXPath } from './xpath/index.ts';

function jsonValueToString(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return valueToString(v);
  return goJsonMarshal(v);
}

export function runExtractor(e: Extractor, data: Record<string, unknown>): string[] {
  const out = new Set<string>();
  switch (e.type) {
    case 'regex': {
      const corpus = matchPart(e.part, data);
      if (corpus === undefined) return [];
      const group = e.group ?? 0;
      for (const r of e.regex ?? []) {
        for (const m of corpus.matchAll(withGlobal(compileGoRegex(r)))) {
          if (m.length > group) out.add(m[group] ?? ''); // Go yields "" for a group that did not take part
        }
      }
      break;
    }
    case 'kval': {
      let source = data;
      if (e.caseInsensitive) {
        source = {};
        for (const [k, v] of Object.entries(data))
          source[k.toLowerCase()] = typeof v === 'string' ? v.toLowerCase() : v;
      }
      for (const raw of e.kval ?? []) {
        // nuclei lower-cases kval keys when it compiles them (response names are lower case, '-' as '_').
        const key = raw.toLowerCase();
        const alt = key.replaceAll('-', '_');
        const k = Object.prototype.hasOwnProperty.call(source, key)
          ? key
          : Object.prototype.hasOwnProperty.call(source, alt)
            ? alt
            : undefined;
        if (k === undefined) continue;
        out.add(valueToString(source[k]));
      }
      break;
    }
    case 'json': {
      const corpus = matchPart(e.part, data);
      if (corpus === undefined) return [];
      let doc: unknown;
      try {
        doc = JSON.parse(corpus);
      } catch {
        return [];
      }
      for (const q of e.json ?? []) {
        let values: unknown[];
        try {
          values = runJq(q, doc);
        } catch {
          continue; // a runtime jq error stops this query only, as gojq's iterator does
        }
        for (const v of values) {
          const s = jsonValueToString(v);
          if (s !== undefined) out.add(s);
        }
      }
      break;
    }
    case 'xpath': {
      const corpus = matchPart(e.part, data);
      if (corpus === undefined) return [];
      for (const q of e.xpath ?? []) {
        for (const node of queryXPath(corpus, q)) {
          out.add(e.attribute ? node.attr(e.attribute) : node.text);
        }
      }
      break;
    }
    case 'dsl': {
      for (const expr of e.dsl ?? []) {
        let v: unknown;
        try {
          v = compile(expr).evaluate(data);
        } catch (err) {
          if (!(err instanceof DslError)) throw err;
          // A missing variable skips this expression; any other error ends the extractor (as in nuclei).
          if (err.missingVariable !== undefined) continue;
          break;
        }
        if (v === null || v === undefined) continue;
        const s = sprint(v); // fmt.Sprint, as nuclei formats dsl extractor results
        if (s !== '') out.add(s);
      }
      break;
    }
  }
  return [...out];
}
