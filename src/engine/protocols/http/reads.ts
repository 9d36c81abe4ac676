// Which response values a block's matchers and extractors can read. Most responses of a scan match
// nothing, and most blocks read a few values (status_code, body): the costly ones (a key per header
// and cookie, the header block and raw response, the request dump) are then built only when a result
// event needs them. Conservative by construction: any name it cannot place turns everything on.
import type { Extractor, HttpRequest, Matcher } from '../../template/types.ts';
import { compile } from './deps.ts';

export interface Reads {
  /** A key per response header and cookie (content_type, set-cookie names ...). */
  headers: boolean;
  /** header, all_headers and response (the header block and the raw response). */
  head: boolean;
  /** The request as sent. */
  request: boolean;
  /**
   * The operators may call a DSL function that defers: a network helper answered from a child process
   * (resolve, jarm, public_ip: dsl/functions/network.ts) or wait_for (dsl/functions/time.ts). Only then
   * does matching a response need to wait for anything.
   */
  defers: boolean;
}

export const READS_ALL: Readonly<Reads> = Object.freeze({ headers: true, head: true, request: true, defers: true });

// Named anywhere in a block's matchers or extractors (expressions, words with markers, regexes): conservative.
const DEFERRING = /\b(?:resolve|jarm|public_ip|wait_for)\s*\(/;

/** Values responseData always sets: cheap, and most operators read only these. */
const STANDARD = new Set([
  'status_code',
  'body',
  'content_length',
  'duration',
  'host',
  'ip',
  'matched',
  'template-id',
  'template-path',
  'type',
]);
const HEAD = new Set(['header', 'all_headers', 'response', 'raw', 'all']);

const cache = new WeakMap<HttpRequest, Reads>();

export function readsOf(r: HttpRequest): Reads {
  let hit = cache.get(r);
  if (!hit) cache.set(r, (hit = analyse(r.matchers, r.extractors)));
  return hit;
}

function analyse(matchers: Matcher[], extractors: Extractor[]): Reads {
  const defers = DEFERRING.test(JSON.stringify([matchers, extractors]));
  const reads: Reads = { headers: false, head: false, request: false, defers };
  let all = false;
  // Any other name may be a header key, a cookie, or a value that a header or cookie of the same name
  // would shadow: every header and cookie key is built then.
  const name = (n: string) => {
    if (STANDARD.has(n)) return;
    if (HEAD.has(n)) reads.head = true;
    else if (n === 'request') reads.request = true;
    else reads.headers = true;
  };
  const part = (p: string | undefined) => name(p || 'body');
  const expressions = (list: string[] | undefined) => {
    for (const expr of list ?? []) {
      // {{markers}} are rendered against the values first: what they name is not known here.
      if (expr.includes('{{') || expr.includes('§')) all = true;
      else {
        try {
          for (const v of compile(expr).variables) name(v);
        } catch {
          all = true; // a syntax error is reported where it is evaluated; nothing is skipped meanwhile
        }
      }
    }
  };
  const markers = (list: string[] | undefined) => {
    for (const w of list ?? []) if (w.includes('{{') || w.includes('§')) all = true;
  };
  for (const m of matchers) {
    if (m.type === 'status') name('status_code');
    else if (m.type === 'dsl') expressions(m.dsl);
    else if (
      m.type === 'word' ||
      m.type === 'regex' ||
      m.type === 'binary' ||
      m.type === 'xpath' ||
      m.type === 'size'
    ) {
      part(m.part);
      markers(m.words);
    } else all = true;
  }
  for (const e of extractors) {
    if (e.type === 'dsl') expressions(e.dsl);
    else if (e.type === 'kval') {
      if (e.caseInsensitive) all = true; // reads every value, under lower-cased names
      for (const k of e.kval ?? []) {
        name(k.toLowerCase());
        name(k.toLowerCase().replaceAll('-', '_'));
      }
    } else if (e.type === 'regex' || e.type === 'json' || e.type === 'xpath') part(e.part);
    else all = true;
  }
  return all ? { ...READS_ALL, defers } : reads;
}
