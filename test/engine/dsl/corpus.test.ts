// Every DSL expression in the corpus's dsl matchers and extractors must compile (gadget generators
// included: they compile and only fail when run). Failures are listed to make regressions readable.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compile } from '../../../src/engine/dsl/index.ts';
import { hasShared } from '../../helpers/shared.ts';

const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/nuclei-templates');

function* yamlFiles(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* yamlFiles(p);
    else if (e.name.endsWith('.yaml')) yield p;
  }
}

function collect(o: unknown, out: { file: string; expr: string }[], file: string): void {
  if (Array.isArray(o)) o.forEach((x) => collect(x, out, file));
  else if (o && typeof o === 'object') {
    const rec = o as Record<string, unknown>;
    if (rec.type === 'dsl' && Array.isArray(rec.dsl))
      for (const e of rec.dsl) if (typeof e === 'string') out.push({ file, expr: e });
    Object.values(rec).forEach((x) => collect(x, out, file));
  }
}

// Expressions that govaluate (and so nuclei) rejects as well: adjacent tokens without an operator.
const INVALID_IN_NUCLEI = new Set([
  'No Network Policies found',
  'contains(body_1, ""success":true") && contains_all(body_2, "bin","etc")',
  'contains(body_1, ""success":true")',
]);

describe.skipIf(!hasShared('corpus/nuclei-templates'))('corpus DSL expressions', () => {
  it('all compile', () => {
    const exprs: { file: string; expr: string }[] = [];
    for (const f of yamlFiles(corpus)) {
      const text = fs.readFileSync(f, 'utf8');
      if (!text.includes('type: dsl')) continue;
      try {
        collect(parse(text), exprs, path.relative(corpus, f));
      } catch {
        // not our concern here: the template loader reports YAML errors
      }
    }
    const failures: string[] = [];
    for (const { file, expr } of exprs) {
      if (INVALID_IN_NUCLEI.has(expr)) {
        expect(() => compile(expr)).toThrow();
        continue;
      }
      try {
        compile(expr);
      } catch (e) {
        failures.push(`${file}: ${expr} -> ${(e as Error).message}`);
      }
    }
    if (failures.length)
      console.log(`${failures.length} of ${exprs.length} failed:\n` + failures.slice(0, 50).join('\n'));
    expect(exprs.length).toBeGreaterThan(9000);
    expect(failures).toEqual([]);
  }, 180000);
});
