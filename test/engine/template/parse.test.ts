// Top-level validation rules: id, info, unknown keys, protocol blocks, variables, randstr, template type.
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { HTTP_OK, issues, tpl } from './helpers.ts';

describe('parseTemplate: top level', () => {
  it('accepts a minimal http template and maps info', () => {
    const r = parseTemplate(
      'id: git-config\ninfo:\n  name: Git Config\n  author: alice, bob\n  tags: Git,Config ,exposure\n  severity: HIGH\n' +
        '  reference: https://example.com/a\n  metadata:\n    max-request: 1\n' +
        '  classification:\n    cve-id: CVE-2021-1234\n    cwe-id: CWE-22,CWE-23\n    cvss-score: "9.8"\n    cpe: cpe:/a:x:y\n' +
        HTTP_OK,
      'git.yaml',
    );
    expect(issues(r)).toEqual([]);
    const t = r.template!;
    expect(t.id).toBe('git-config');
    expect(t.path).toBe('git.yaml');
    expect(t.type).toBe('http');
    expect(t.info).toMatchObject({
      name: 'Git Config',
      author: ['alice', 'bob'],
      tags: ['git', 'config', 'exposure'],
      severity: 'high',
      reference: ['https://example.com/a'],
      metadata: { 'max-request': 1 },
      classification: {
        'cve-id': ['CVE-2021-1234'],
        'cwe-id': ['CWE-22', 'CWE-23'],
        'cvss-score': 9.8,
        cpe: 'cpe:/a:x:y',
      },
    });
    expect(t.http).toHaveLength(1);
  });

  it('accepts author and tags as lists and reference as a list without comma splitting', () => {
    const r = parseTemplate(
      tpl(
        HTTP_OK,
        'id: x\ninfo:\n  name: X\n  author: [a, b]\n  tags: [one, two]\n  reference:\n    - https://a/?x=1,2\n',
      ),
      'f.yaml',
    );
    expect(r.template?.info.author).toEqual(['a', 'b']);
    expect(r.template?.info.tags).toEqual(['one', 'two']);
    expect(r.template?.info.reference).toEqual(['https://a/?x=1,2']);
  });

  it.each([
    ['bad id', 'id'],
    ['-leading', 'id'],
    ['double--dash', 'id'],
    ['trailing_', 'id'],
  ])('rejects id %j', (id, field) => {
    const r = parseTemplate(tpl(HTTP_OK, `id: "${id}"\ninfo:\n  name: X\n  author: a\n`), 'f.yaml');
    expect(r.template).toBeUndefined();
    expect(r.issues[0]).toMatchObject({ file: 'f.yaml', field });
    expect(r.issues[0].reason).toContain('not a valid id');
  });

  it('accepts ids with single - and _ separators', () => {
    for (const id of ['CVE-2021-44228', 'a_b-c', 'x1']) {
      expect(parseTemplate(tpl(HTTP_OK, `id: ${id}\ninfo:\n  name: X\n  author: a\n`), 'f').template?.id).toBe(id);
    }
  });

  it('requires id, info, info.name and info.author', () => {
    expect(issues(parseTemplate('info:\n  name: X\n  author: a\n' + HTTP_OK, 'f'))).toEqual(['id: is required']);
    expect(issues(parseTemplate('id: x\n' + HTTP_OK, 'f'))).toEqual(['info: is required']);
    expect(issues(parseTemplate(tpl(HTTP_OK, 'id: x\ninfo:\n  author: a\n'), 'f'))).toEqual(['info.name: is required']);
    expect(issues(parseTemplate(tpl(HTTP_OK, 'id: x\ninfo:\n  name: X\n'), 'f'))).toEqual(['info.author: is required']);
    expect(issues(parseTemplate(tpl(HTTP_OK, 'id: x\ninfo:\n  name: X\n  author: ""\n'), 'f'))).toEqual([
      'info.author: must name at least one author',
    ]);
  });

  it('treats a missing severity as a warning and an unknown one as an error', () => {
    const missing = parseTemplate(tpl(HTTP_OK, 'id: x\ninfo:\n  name: X\n  author: a\n'), 'f');
    expect(missing.template?.info.severity).toBe('unknown');
    expect(missing.warnings.map((w) => w.field)).toEqual(['info.severity']);
    const bad = parseTemplate(tpl(HTTP_OK, 'id: x\ninfo:\n  name: X\n  author: a\n  severity: severe\n'), 'f');
    expect(issues(bad)).toEqual([
      'info.severity: must be one of info, low, medium, high, critical, unknown; got "severe"',
    ]);
  });

  it('rejects unknown keys at the top level, in info and in classification', () => {
    const r = parseTemplate(
      tpl(
        HTTP_OK + 'tag: x\n',
        'id: x\ninfo:\n  name: X\n  author: a\n  severty: high\n  classification:\n    cve: CVE-1\n',
      ),
      'f.yaml',
    );
    expect(issues(r)).toEqual([
      'tag: unknown top-level field',
      'info.severty: unknown field (did you mean "severity"?)',
      'info.classification.cve: unknown field',
    ]);
  });

  it('type-checks info fields, metadata and classification', () => {
    const r = parseTemplate(
      tpl(
        HTTP_OK,
        'id: x\ninfo:\n  name: [X]\n  author: a\n  metadata: nope\n  classification:\n    cvss-score: high\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([
      'info.name: must be a string, got a list',
      'info.metadata: must be a map, got a string',
      'info.classification.cvss-score: must be a number, got a string ("high")',
    ]);
  });

  it('reports invalid YAML, duplicate keys and non-map documents', () => {
    expect(issues(parseTemplate('id: x\n  bad: [', 'f'))[0]).toMatch(/^: invalid YAML/);
    expect(issues(parseTemplate('id: a\nid: b\n', 'f'))).toEqual([': invalid YAML: duplicated mapping key (2:1)']);
    expect(issues(parseTemplate('- a\n- b\n', 'f'))).toEqual([': a template must be a YAML map, got a list']);
  });

  it('marks YAML without id, info or protocol lists as not a template', () => {
    expect(parseTemplate('extends: default\nrules: {}\n', 'f').notTemplate).toBe(true);
    expect(parseTemplate('tags: [cve]\ncode: true\n', 'profile.yml').notTemplate).toBe(true);
    expect(parseTemplate('', 'empty.yml').notTemplate).toBe(true);
    // A protocol list without id/info is a broken template, not a config file.
    const r = parseTemplate(HTTP_OK, 'f');
    expect(r.notTemplate).toBeFalsy();
    expect(issues(r)).toEqual(['id: is required', 'info: is required']);
  });

  it('treats keys named like Object properties as plain keys, never crashing', () => {
    const r = parseTemplate(
      tpl(
        'http:\n  - path: ["{{BaseURL}}/{{__proto__}}"]\n    constructor: 1\n    headers:\n      __proto__: x\n    payloads:\n      __proto__: [a]\n' +
          'toString: 1\nvariables:\n  __proto__: v\n',
        'id: x\ninfo:\n  name: X\n  author: a\n  constructor: 1\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([
      'toString: unknown top-level field',
      'info.constructor: unknown field',
      'http[0].constructor: unknown field',
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const ok = parseTemplate(
      tpl(
        'http:\n  - path: ["{{BaseURL}}/{{__proto__}}"]\n    headers:\n      __proto__: x\n    payloads:\n      __proto__: [a]\nvariables:\n  __proto__: v\n',
      ),
      'f',
    ).template!;
    expect(Object.hasOwn(ok.http[0].headers, '__proto__')).toBe(true);
    expect(Object.hasOwn(ok.http[0].payloads!, '__proto__')).toBe(true);
    expect(Object.hasOwn(ok.variables, '__proto__')).toBe(true);
  });

  it('requires a protocol block or workflows', () => {
    expect(issues(parseTemplate(tpl(''), 'f'))).toEqual([
      ': template has no protocol block (http, dns, tcp, ...) and no workflows',
    ]);
  });

  it('rejects both old and new names of a block', () => {
    expect(issues(parseTemplate(tpl(HTTP_OK + 'requests:\n  - path: ["{{BaseURL}}"]\n'), 'f'))).toContain(
      "requests: use 'http' or 'requests', not both",
    );
  });

  it('reads the old `requests` name as http and reports its own field path', () => {
    const ok = parseTemplate(tpl('requests:\n  - method: get\n    path: ["{{BaseURL}}"]\n'), 'f');
    expect(ok.template?.http[0].method).toBe('GET');
    const bad = parseTemplate(tpl('requests:\n  - path: ["{{BaseURL}}"]\n    redirect: true\n'), 'f');
    expect(issues(bad)).toEqual(['requests[0].redirect: unknown field (did you mean "redirects"?)']);
  });

  it('reads variables, constants, self-contained, stop-at-first-match and flow', () => {
    const r = parseTemplate(
      tpl(
        HTTP_OK +
          'variables:\n  user: admin\n  num: 42\n  regions: [a, b]\nconstants:\n  key: v\nself-contained: true\nstop-at-first-match: true\nflow: http(1)\n',
      ),
      'f',
    );
    const t = r.template!;
    expect(t.variables).toEqual({ user: 'admin', num: '42', regions: '["a","b"]' });
    expect(t.variableValues?.regions).toEqual(['a', 'b']);
    expect(t.constants).toEqual({ key: 'v' });
    expect(t.selfContained).toBe(true);
    expect(t.stopAtFirstMatch).toBe(true);
    expect(t.flow).toBe('http(1)');
  });

  it('checks flow calls against the blocks the template has', () => {
    const two = 'http:\n  - id: first\n    path: ["{{BaseURL}}/a"]\n  - path: ["{{BaseURL}}/b"]\n';
    const ok = parseTemplate(tpl(two + 'flow: http(1) && http("first") && http(2) && http()\n'), 'f');
    expect(issues(ok)).toEqual([]);
    expect(ok.warnings).toEqual([]);
    const missing = parseTemplate(tpl(two + 'flow: http(1) && dns(1)\n'), 'f');
    expect(issues(missing)).toEqual(['flow: dns(1) calls a dns block the template does not have']);
    const range = parseTemplate(tpl(two + 'flow: http(3) || http("nope")\n'), 'f');
    expect(range.template).toBeDefined();
    expect(range.warnings.map((w) => `${w.field}: ${w.reason}`)).toEqual([
      'flow: http(3): the template has 2 http request(s)',
      'flow: http("nope"): no http request has id "nope"',
    ]);
    expect(issues(parseTemplate(tpl(HTTP_OK + 'flow: " "\n'), 'f'))).toEqual(['flow: must not be empty']);
  });

  it('type-checks variables and booleans', () => {
    const r = parseTemplate(tpl(HTTP_OK + 'variables: [a]\nself-contained: "yes"\n'), 'f');
    expect(issues(r)).toEqual([
      'variables: must be a map of names to values, got a list',
      'self-contained: must be true or false, got a string ("yes")',
    ]);
  });
});

describe('parseTemplate: randstr', () => {
  const text = tpl(
    'http:\n  - path: ["{{BaseURL}}/{{randstr}}/{{randstr_1}}/{{randstr}}"]\n    body: "{{randstr_1}}"\n',
  );

  it('replaces each name with one 27-character alphanumeric id per load', () => {
    const t = parseTemplate(text, 'f').template!;
    const m = /\/([A-Za-z0-9]{27})\/([A-Za-z0-9]{27})\/([A-Za-z0-9]{27})$/.exec(t.http[0].path[0]);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(m![3]);
    expect(m![1]).not.toBe(m![2]);
    expect(t.http[0].body).toBe(m![2]);
    expect(t.raw).toContain(m![1]);
    expect(t.raw).not.toContain('{{randstr');
  });

  it('gives new values on the next load', () => {
    const a = parseTemplate(text, 'f').template!.http[0].path[0];
    const b = parseTemplate(text, 'f').template!.http[0].path[0];
    expect(a).not.toBe(b);
  });
});

describe('parseTemplate: other protocol blocks', () => {
  it('keeps valid blocks raw, names the type, and maps network to tcp', () => {
    const r = parseTemplate(
      tpl(
        'network:\n  - host: ["{{Hostname}}"]\n    inputs:\n      - data: "PING\\r\\n"\n    read-size: 64\n    matchers:\n      - type: word\n        words: [PONG]\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([]);
    expect(r.template!.type).toBe('tcp');
    expect(r.template!.other).toEqual([
      {
        protocol: 'tcp',
        raw: expect.objectContaining({ host: ['{{Hostname}}'], 'read-size': 64 }),
        fields: expect.objectContaining({ 'read-size': 64 }),
      },
    ]);
  });

  it.each([
    ['dns', 'dns:\n  - name: "{{FQDN}}"\n    type: cname\n', 'dns'],
    ['ssl', 'ssl:\n  - address: "{{Host}}:{{Port}}"\n    min_version: ssl30\n', 'ssl'],
    ['file', 'file:\n  - extensions: [all]\n', 'file'],
    ['headless', 'headless:\n  - steps:\n      - action: navigate\n        args: {url: "{{BaseURL}}"}\n', 'headless'],
    ['code', 'code:\n  - engine: [sh]\n    source: echo 1\n', 'code'],
    ['javascript', 'javascript:\n  - code: "1"\n', 'javascript'],
    ['websocket', 'websocket:\n  - address: "{{BaseURL}}"\n    inputs:\n      - data: hi\n', 'websocket'],
    ['whois', 'whois:\n  - query: "{{Host}}"\n', 'whois'],
    ['workflows', 'workflows:\n  - template: a.yaml\n    subtemplates:\n      - tags: x\n', 'workflow'],
  ])('accepts a %s block', (_, body, type) => {
    const r = parseTemplate(tpl(body), 'f');
    expect(issues(r)).toEqual([]);
    expect(r.template!.type).toBe(type);
  });

  it('picks the reported type in nuclei order for multi-protocol templates', () => {
    const r = parseTemplate(
      tpl('code:\n  - engine: [sh]\n    source: x\n' + HTTP_OK + 'flow: code(1) && http(1)\n'),
      'f',
    );
    expect(r.template!.type).toBe('http');
    expect(r.template!.other[0].protocol).toBe('code');
  });

  it('reports structural errors with field paths', () => {
    const r = parseTemplate(
      tpl(
        'dns:\n  - name: "{{FQDN}}"\n    type: BOGUS\n    retries: two\n' +
          'tcp:\n  - host: ["x"]\n    inputs:\n      - data: a\n        kind: text\n' +
          'headless:\n  - steps:\n      - action: fly\n' +
          'code:\n  - source: x\n' +
          'ssl:\n  - matchers:\n      - type: nope\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([
      'dns[0].type: must be one of A, NS, DS, CNAME, SOA, PTR, MX, TXT, AAAA, CAA, TLSA, ANY, SRV; got "BOGUS"',
      'dns[0].retries: must be a whole number, got a string ("two")',
      'tcp[0].inputs[0].kind: unknown field',
      expect.stringMatching(/^headless\[0\]\.steps\[0\]\.action: must be one of navigate, /),
      'code[0]: needs `engine`',
      expect.stringMatching(/^ssl\[0\]\.matchers\[0\]\.type: /),
    ]);
  });

  it('checks workflows recursively', () => {
    const r = parseTemplate(
      tpl(
        'workflows:\n  - template: a.yaml\n    matchers:\n      - name: wp\n        subtemplates:\n          - templat: b.yaml\n  - {}\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([
      'workflows[0].matchers[0].subtemplates[0].templat: unknown field (did you mean "template"?)',
      'workflows[0].matchers[0].subtemplates[0]: needs `template` or `tags`',
      'workflows[1]: needs `template` or `tags`',
    ]);
  });

  it('refuses a workflow that also has protocol blocks', () => {
    expect(issues(parseTemplate(tpl(HTTP_OK + 'workflows:\n  - template: a.yaml\n'), 'f'))).toEqual([
      'workflows: a workflow cannot also contain protocol blocks',
    ]);
  });
});
