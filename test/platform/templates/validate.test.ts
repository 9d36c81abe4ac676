// POST /v1/template/validate: the validator's problems with the line each is on, for the console's editor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { fieldPath } from '../../../src/platform/templates/locate.ts';

const VALID = `id: console-check
info:
  name: Console check
  author: vigil
  severity: info
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        words:
          - hello
`;

describe('template validation with lines', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  }, 120_000);
  afterAll(() => t?.close());

  const check = (template: string, key?: string) =>
    t.request({ method: 'POST', url: '/v1/template/validate', payload: { template }, key });

  it('a valid template has no problems', async () => {
    const res = await check(VALID);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, errors: [] });
  });

  it('a wrong matcher type is marked on its line', async () => {
    const res = await check(VALID.replace('type: word', 'type: wrd'));
    expect(res.json().valid).toBe(false);
    const err = res.json().errors[0];
    expect(err.field).toMatch(/^http\[0\]\.matchers\[0\]/);
    expect(err.line).toBe(11);
  });

  it('a YAML syntax error is marked where the parser stopped', async () => {
    const res = await check(VALID.replace('  severity: info', '  severity: [info'));
    const err = res.json().errors[0];
    expect(err.message).toMatch(/invalid YAML/);
    expect(err.line).toBeGreaterThanOrEqual(5);
  });

  it('Members may not use it (it belongs to template management)', async () => {
    const m = await t.addUser('member-validate@example.com', 'member');
    expect((await check(VALID, m.key)).statusCode).toBe(403);
  });

  it('parses field paths', () => {
    expect(fieldPath('http[0].matchers[12].type')).toEqual(['http', 0, 'matchers', 12, 'type']);
    expect(fieldPath('info.name')).toEqual(['info', 'name']);
  });
});
