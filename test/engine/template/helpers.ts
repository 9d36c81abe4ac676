// Small helpers for the template tests: build template text from parts and list issues compactly.
import type { ParseResult } from '../../../src/engine/template/index.ts';

/** A minimal valid template with `body` appended (YAML text). */
export function tpl(
  body: string,
  head = 'id: test-template\ninfo:\n  name: Test\n  author: tester\n  severity: info\n',
): string {
  return head + body;
}

export const HTTP_OK =
  'http:\n  - path: ["{{BaseURL}}/"]\n    matchers:\n      - type: status\n        status: [200]\n';

/** `field: reason` strings, easy to assert on. */
export function issues(r: ParseResult): string[] {
  return r.issues.map((i) => `${i.field}: ${i.reason}`);
}
