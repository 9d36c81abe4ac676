// Go (RE2) regular expressions run on JavaScript's engine. Templates are written for Go's syntax, so the
// few places where the two differ are translated here: inline flags, (?P<name>), \A \z, \Q..\E, POSIX
// classes, \x{..}. Constructs RE2 rejects (lookaround, backreferences) are rejected here too, so a
// template that nuclei would refuse is refused by us as well.
import v8 from 'node:v8';
import { DslError } from './errors.ts';

// Go's regexp (RE2) runs in linear time; V8's backtracks, so a template's `(a+)+$` on a 30-byte body
// froze the process for 98 s. This V8 switch makes any regex that backtracks too much (50,000 steps by
// default) finish on V8's linear-time engine instead. The constructs that engine lacks (lookaround,
// backreferences) are the ones RE2 rejects too, and translateGoRegex refuses them. Process-wide, so it
// also bounds the jq and xpath regexes.
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

export interface TranslatedRegex {
  source: string;
  flags: string;
}

function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Translate a Go regex to a JS source + flags; throws DslError for syntax Go would reject. */
export function translateGoRegex(pattern: string): TranslatedRegex {
  const flags = new Set<string>();
  let out = '';
  let i = 0;
  let inClass = false;
  let needUnicode = false;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i];
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined) throw new DslError(`invalid regex '${pattern}': trailing backslash`);
      if (d === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end);
        out += escapeLiteral(lit);
        i = end < 0 ? n : end + 2;
        continue;
      }
      if (!inClass && d === 'A') {
        out += '(?<![\\s\\S])';
        i += 2;
        continue;
      }
      if (!inClass && d === 'z') {
        out += '(?![\\s\\S])';
        i += 2;
        continue;
      }
      if (/[0-7]/.test(d)) {
        // Go reads \0 and \1-\7 followed by another octal digit as an octal character code.
        const m = /^[0-7]{1,3}/.exec(pattern.slice(i + 1))![0];
        if (d !== '0' && m.length === 1)
          throw new DslError(`invalid regex '${pattern}': backreferences are not supported`);
        const code = Number.parseInt(d === '0' ? m.slice(0, 3) : m, 8);
        out += '\\x' + (code & 0xff).toString(16).padStart(2, '0');
        i += 1 + m.length;
        continue;
      }
      if (/[89]/.test(d)) throw new DslError(`invalid regex '${pattern}': backreferences are not supported`);
      if (d === 'Z') throw new DslError(`invalid regex '${pattern}': invalid escape sequence \\Z`);
      if (d === 'x' && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 3);
        if (end < 0) throw new DslError(`invalid regex '${pattern}': bad \\x{}`);
        const cp = Number.parseInt(pattern.slice(i + 3, end), 16);
        out +=
          cp <= 0xff
            ? '\\x' + cp.toString(16).padStart(2, '0')
            : cp <= 0xffff
              ? '\\u' + cp.toString(16).padStart(4, '0')
              : String.fromCodePoint(cp);
        i = end + 1;
        continue;
      }
      if (d === 'p' || d === 'P') {
        needUnicode = true;
        if (pattern[i + 2] === '{') {
          const end = pattern.indexOf('}', i + 3);
          const name = pattern.slice(i + 3, end);
          const general =
            /^(L|Lu|Ll|Lt|Lm|Lo|M|Mn|Mc|Me|N|Nd|Nl|No|P|Pc|Pd|Ps|Pe|Pi|Pf|Po|S|Sm|Sc|Sk|So|Z|Zs|Zl|Zp|C|Cc|Cf|Co|Cs)$/.test(
              name,
            );
          out += `\\${d}{${general ? name : 'Script=' + name}}`;
          i = end + 1;
        } else {
          out += `\\${d}{${pattern[i + 2]}}`;
          i += 3;
        }
        continue;
      }
      out += c + d;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        if (end > 0) {
          let name = pattern.slice(i + 2, end);
          const neg = name.startsWith('^');
          if (neg) name = name.slice(1);
          const cls = POSIX[name];
          if (!cls) throw new DslError(`invalid regex '${pattern}': invalid character class range [:${name}:]`);
          if (neg) throw new DslError(`invalid regex '${pattern}': negated POSIX classes are not supported`);
          out += cls;
          i = end + 2;
          continue;
        }
      }
      if (c === '[') {
        out += '\\[';
        i++;
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      i++;
      if (pattern[i] === '^') {
        out += '^';
        i++;
      }
      // A ']' right after '[' or '[^' is a literal in Go.
      if (pattern[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2);
      if (rest.startsWith('P<')) {
        out += '(?<';
        i += 4;
        continue;
      }
      if (rest.startsWith('<') && !rest.startsWith('<=') && !rest.startsWith('<!')) {
        out += '(?<';
        i += 3;
        continue;
      }
      if (/^(=|!|<=|<!)/.test(rest)) throw new DslError(`invalid regex '${pattern}': lookaround is not supported`);
      const m = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
      if (m) {
        for (const f of m[1]) if (f !== 'U') flags.add(f);
        if (m[3] === ')') {
          i += 2 + m[0].length; // flag group applies to the rest: approximated as whole-pattern flags
          continue;
        }
        out += '(?:';
        i += 2 + m[0].length;
        continue;
      }
      throw new DslError(`invalid regex '${pattern}': invalid or unsupported Perl syntax`);
    }
    out += c;
    i++;
  }
  if (inClass) throw new DslError(`invalid regex '${pattern}': missing closing ]`);
  let f = [...flags].filter((x) => 'ims'.includes(x)).join('');
  if (needUnicode) {
    f += 'u';
    // In unicode mode JS refuses identity escapes of non-syntax characters that Go accepts.
    out = out.replace(/\\([^\w\s^$\\.*+?()[\]{}|/\-pPdDwWsSbBnrtfvux0-9ck])/g, (_m, ch: string) => ch);
    out = out.replace(/\\-/g, '\\x2d');
  }
  return { source: out, flags: f };
}

const cache = new Map<string, RegExp>();

/** Compile a Go regex (cached). The returned RegExp has no 'g' flag; use withGlobal for scans. */
export function compileGoRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  const t = translateGoRegex(pattern);
  try {
    re = new RegExp(t.source, t.flags);
  } catch (e) {
    throw new DslError(`invalid regex '${pattern}': ${(e as Error).message}`);
  }
  if (cache.size > 5000) cache.clear();
  cache.set(pattern, re);
  return re;
}

const globalCache = new WeakMap<RegExp, RegExp>();

/** The 'g' twin of a compiled regex, for matchAll/replace (cached; callers must not rely on lastIndex). */
export function withGlobal(re: RegExp): RegExp {
  if (re.flags.includes('g')) return re;
  let g = globalCache.get(re);
  if (!g) {
    g = new RegExp(re.source, re.flags + 'g');
    globalCache.set(re, g);
  }
  g.lastIndex = 0;
  return g;
}

/** Go's ReplaceAllString: $1, ${1}, $name, ${name}; $$ is a literal dollar. */
export function goReplaceAll(input: string, re: RegExp, repl: string): string {
  return input.replace(withGlobal(re), (...args) => {
    const hasGroups = typeof args[args.length - 1] === 'object';
    const groups = (hasGroups ? args[args.length - 1] : undefined) as Record<string, string> | undefined;
    const subs = args.slice(1, hasGroups ? -3 : -2) as (string | undefined)[];
    const whole = args[0] as string;
    return repl.replace(/\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g, (_m, all: string, braced?: string, bare?: string) => {
      if (all === '$') return '$';
      const name = braced ?? bare ?? '';
      if (/^\d+$/.test(name)) {
        const idx = Number(name);
        if (idx === 0) return whole;
        return subs[idx - 1] ?? '';
      }
      return groups?.[name] ?? '';
    });
  });
}
