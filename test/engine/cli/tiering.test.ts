// Which scans get V8's lower tiering budget (src/cli/tiering.ts): few templates that send many requests
// each, never a scan of many templates.
import { describe, expect, it } from 'vitest';
import { wantsLowerBudget as wants } from '../../../src/cli/tiering.ts';
import { requestsPerTarget } from '../../../src/engine/index.ts';
import type { Template } from '../../../src/engine/index.ts';

const wantsLowerBudget = (ts: Template[]) => wants(ts, requestsPerTarget);
import { tpl } from '../../helpers/templates.ts';

const words = (n: number) => `[${Array.from({ length: n }, (_, i) => `w${i}`).join(', ')}]`;
const fuzz = (n: number, extra = '') =>
  tpl(
    `id: fuzz${n}\ninfo:\n  name: f\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/{{p}}"]\n    payloads:\n      p: ${words(n)}\n${extra}    matchers:\n      - type: status\n        status: [200]\n`,
  );
const single = (i: number) =>
  tpl(
    `id: one${i}\ninfo:\n  name: o\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/x"]\n    matchers:\n      - type: status\n        status: [200]\n`,
  );

describe('tiering budget', () => {
  it('is lowered for a few templates sending thousands of requests each', () => {
    expect(wantsLowerBudget([fuzz(2000)])).toBe(true);
    expect(wantsLowerBudget([fuzz(2500), single(1)])).toBe(true);
    // clusterbomb multiplies: 50 x 50 requests
    const bomb = tpl(
      `id: bomb\ninfo:\n  name: b\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/{{a}}/{{b}}"]\n    attack: clusterbomb\n    payloads:\n      a: ${words(50)}\n      b: ${words(50)}\n    matchers:\n      - type: status\n        status: [200]\n`,
    );
    expect(wantsLowerBudget([bomb])).toBe(true);
  });

  it('is left alone for short templates, or many of them', () => {
    expect(wantsLowerBudget([fuzz(100)])).toBe(false);
    expect(wantsLowerBudget(Array.from({ length: 5 }, (_, i) => single(i)))).toBe(false);
    expect(wantsLowerBudget([fuzz(5000), ...Array.from({ length: 30 }, (_, i) => single(i))])).toBe(false);
  });
});
