// Protocol-call flows: compiled without a JavaScript engine, evaluated with short-circuit rules; flows
// with statements are refused with a reason. Checked on every flow of the corpus.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import '../../../src/engine/dsl/index.ts'; // the DSL configures the shared jsep instance: flows must still parse
import { compileSimpleFlow, runSimpleFlow, type CompiledFlow } from '../../../src/engine/flow/simple.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';

async function trace(src: string, answers: Record<string, boolean>): Promise<{ value: boolean; calls: string[] }> {
  const flow = compileSimpleFlow(src);
  if ('error' in flow) throw new Error(flow.error);
  const calls: string[] = [];
  const value = await runSimpleFlow(flow, async (p, ids) => {
    const key = `${p}(${ids.join(',')})`;
    calls.push(key);
    return answers[key] ?? false;
  });
  return { value, calls };
}

describe('protocol-call flows', () => {
  it('short-circuits && and || as JavaScript does, line by line', async () => {
    expect(await trace('http(1) && http(2)', { 'http(1)': false })).toEqual({ value: false, calls: ['http(1)'] });
    expect(await trace('http(1) && http(2)', { 'http(1)': true, 'http(2)': true })).toEqual({
      value: true,
      calls: ['http(1)', 'http(2)'],
    });
    expect(
      await trace('http(1) && (http(2) || http(3)) && http(4)', { 'http(1)': true, 'http(2)': true, 'http(4)': true }),
    ).toEqual({ value: true, calls: ['http(1)', 'http(2)', 'http(4)'] });
    expect(await trace('http(1) && http(2)\nhttp(3)', { 'http(1)': false, 'http(3)': true })).toEqual({
      value: true,
      calls: ['http(1)', 'http(3)'],
    });
    expect(await trace('dns(); !http("login") // comment\n/* more */ network(2)', {})).toEqual({
      value: false,
      calls: ['dns()', 'http(login)', 'tcp(2)'],
    });
  });

  it('refuses statements and non-protocol calls with a reason', () => {
    for (const src of [
      'if (http(1)) { http(2) }',
      'for (let x of iterate(template.a)) { http(1) }',
      'set("a", 1)',
      'http(1) + 1',
      'http(template.x)',
    ]) {
      const r = compileSimpleFlow(src);
      expect('error' in r, src).toBe(true);
      expect((r as { error: string }).error).toMatch(/JavaScript beyond protocol calls/);
    }
  });

  const corpus = path.join(sharedDir, 'corpus/nuclei-templates');
  it.skipIf(!hasShared('corpus/nuclei-templates'))('compiles the corpus flows that call only http blocks', () => {
    let total = 0;
    let simple = 0;
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (!e.name.startsWith('.')) walk(p);
          continue;
        }
        if (!/\.ya?ml$/.test(e.name)) continue;
        const text = readFileSync(p, 'utf8');
        if (!/^flow:/m.test(text)) continue;
        const doc = yaml.load(text) as { flow?: string };
        if (!doc?.flow || /\b(code|headless|javascript)\s*\(/.test(doc.flow)) continue;
        total++;
        const r = compileSimpleFlow(doc.flow);
        if (!('error' in r)) {
          simple++;
          expect(
            (r as CompiledFlow).calls.every((c) => c.protocol === 'http'),
            p,
          ).toBe(true);
        }
      }
    };
    walk(corpus);
    console.log(`flows: ${simple} of ${total} http-only corpus flows are protocol-call flows`);
    expect(total).toBeGreaterThan(400);
    expect(simple / total).toBeGreaterThan(0.95);
  });
});
