// The public nuclei-templates corpus: at least 99% must load, and real templates with deliberate
// breakage must be refused with the right field path. Rejected classes are printed for
// docs/engine-validation.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTemplates, parseTemplate } from '../../../src/engine/template/index.ts';
import { hasShared } from '../../helpers/shared.ts';

const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/nuclei-templates');
const read = (rel: string) => readFileSync(path.join(corpus, rel), 'utf8');
const parse = (rel: string, text = read(rel)) => parseTemplate(text, path.join(corpus, rel), { templatesRoot: corpus });

/** Groups issues by field shape (indexes dropped) and reason (quoted values dropped). */
function classes(list: { field: string; reason: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const i of list) {
    const field = i.field.replace(/\[\d+\]/g, '[]').replace(/(payloads)\.[^.[]+/, '$1.*');
    const key = `${field}: ${i.reason.replace(/"[^"]*"/g, '"…"')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

describe.skipIf(!hasShared('corpus/nuclei-templates'))('nuclei-templates corpus', () => {
  it('loads at least 99% of the templates', { timeout: 120_000 }, async () => {
    // The corpus copy leaves out the helpers/*.txt word lists, so missing payload files are warnings here.
    const r = await loadTemplates([corpus], {}, { missingPayloadFile: 'warn' });
    const total = r.valid + r.invalid;
    const rate = r.valid / total;
    console.log(
      `corpus: ${r.valid} valid, ${r.invalid} invalid, ${r.skipped.length} skipped; ${(rate * 100).toFixed(2)}% valid`,
    );
    console.log('rejected classes:', classes(r.issues));
    console.log('warning classes:', classes(r.warnings));
    expect(r.files).toBe(total + r.skipped.length);
    expect(rate).toBeGreaterThanOrEqual(0.99);
    // Only configuration files are skipped, never files in the protocol folders.
    for (const f of r.skipped) expect(path.relative(corpus, f)).toMatch(/^(profiles\/[^/]+|[^/]+)\.ya?ml$/);
    expect(r.templates.length).toBe(r.valid);
  });

  const breakages: [string, string, (text: string) => string, string, RegExp][] = [
    [
      'unknown matcher type',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('type: word', 'type: words'),
      'http[0].matchers[0].type',
      /words/,
    ],
    [
      'invalid id',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('id: git-config', 'id: git config'),
      'id',
      /not a valid id/,
    ],
    [
      'missing name',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace(/\n {2}name: .*\n/, '\n'),
      'info.name',
      /required/,
    ],
    [
      'bad severity',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('severity: medium', 'severity: moderate'),
      'info.severity',
      /one of/,
    ],
    [
      'unknown request key',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('    path:\n', '    paths:\n'),
      'http[0].paths',
      /unknown field/,
    ],
    [
      'unknown top-level key',
      'http/exposures/configs/git-config.yaml',
      (t) => t + '\nrequest:\n  - path: [x]\n',
      'request',
      /unknown top-level/,
    ],
    [
      'bad method',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('method: GET', 'method: GRAB'),
      'http[0].method',
      /GRAB/,
    ],
    [
      'bad matchers-condition',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('matchers-condition: and', 'matchers-condition: xor'),
      'http[0].matchers-condition',
      /and, or/,
    ],
    [
      'status as text',
      'http/exposures/configs/git-config.yaml',
      (t) => t.replace('          - 200', '          - ok'),
      'http[0].matchers[2].status[0]',
      /integer|number/,
    ],
    [
      'two payload sets without attack',
      'http/default-logins/octobercms/octobercms-default-login.yaml',
      (t) => t.replace('    attack: clusterbomb\n', ''),
      'http[0].attack',
      /batteringram/,
    ],
    [
      'bad attack',
      'http/default-logins/octobercms/octobercms-default-login.yaml',
      (t) => t.replace('attack: clusterbomb', 'attack: sniper'),
      'http[0].attack',
      /one of/,
    ],
    ['bad dns type', 'dns/caa-fingerprint.yaml', (t) => t.replace('type: CAA', 'type: CAB'), 'dns[0].type', /one of/],
    [
      'tcp inputs not a list',
      'network/detection/activemq-openwire-transport-detect.yaml',
      (t) => t.replace(/ {2}- inputs:\n(\s+- .*\n)+/, '  - inputs: nope\n'),
      'tcp[0].inputs',
      /list/,
    ],
    [
      'workflow typo',
      'workflows/74cms-workflow.yaml',
      (t) => t.replace('- tags: 74cms', '- tag: 74cms'),
      'workflows[0].matchers[0].subtemplates[0].tag',
      /unknown field/,
    ],
  ];

  it.each(breakages)('refuses a corpus template with %s', (_, rel, breakIt, field, reason) => {
    const original = read(rel);
    expect(parse(rel).issues).toEqual([]);
    const broken = breakIt(original);
    expect(broken).not.toBe(original);
    const r = parse(rel, broken);
    expect(r.template).toBeUndefined();
    const issue = r.issues.find((i) => i.field === field);
    expect(issue, JSON.stringify(r.issues)).toBeDefined();
    expect(issue!.reason).toMatch(reason);
    expect(issue!.file).toBe(path.join(corpus, rel));
  });
});
