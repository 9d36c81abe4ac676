// Every matcher and extractor of the real template corpus must validate: types, fields, Go regexes,
// DSL expressions, jq queries and XPath expressions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateExtractor, validateMatcher } from '../../../src/engine/operators/index.ts';
import { hasShared } from '../../helpers/shared.ts';

const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/nuclei-templates');

// Known-bad in the corpus itself: govaluate rejects these expressions too (adjacent tokens).
const KNOWN_INVALID = ['No Network Policies found', '""success":true"'];

function* yamlFiles(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* yamlFiles(p);
    else if (e.name.endsWith('.yaml')) yield p;
  }
}

describe.skipIf(!hasShared('corpus/nuclei-templates'))('corpus operators', () => {
  it('all matchers and extractors validate', () => {
    const problems: string[] = [];
    let matchers = 0;
    let extractors = 0;
    const walk = (o: unknown, file: string, where: string) => {
      if (Array.isArray(o)) o.forEach((x, i) => walk(x, file, `${where}[${i}]`));
      else if (o && typeof o === 'object') {
        for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
          if ((k === 'matchers' || k === 'extractors') && Array.isArray(v)) {
            v.forEach((item, i) => {
              // Workflow matchers (name + subtemplates) are a different structure.
              if (k === 'matchers' && item && typeof item === 'object' && 'subtemplates' in item) return;
              const field = `${where}.${k}[${i}]`;
              const r =
                k === 'matchers'
                  ? (matchers++, validateMatcher(item, field))
                  : (extractors++, validateExtractor(item, field));
              for (const issue of r.issues) {
                if (KNOWN_INVALID.some((s) => issue.reason.includes(s))) continue;
                problems.push(`${file} ${issue.field}: ${issue.reason}`);
              }
            });
          } else walk(v, file, `${where}.${k}`);
        }
      }
    };
    for (const f of yamlFiles(corpus)) {
      const text = fs.readFileSync(f, 'utf8');
      if (!text.includes('matchers:') && !text.includes('extractors:')) continue;
      let doc: unknown;
      try {
        doc = parse(text);
      } catch {
        continue;
      }
      walk(doc, path.relative(corpus, f), '');
    }
    if (problems.length) console.log(`${problems.length} problems:\n${problems.slice(0, 60).join('\n')}`);
    expect(matchers).toBeGreaterThan(30000);
    expect(extractors).toBeGreaterThan(5000);
    expect(problems).toEqual([]);
  }, 300000);
});
