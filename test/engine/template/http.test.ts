// The http block: every field mapped to HttpRequest, nuclei's defaults, payloads and req-condition.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { issues, tpl } from './helpers.ts';

describe('http block mapping', () => {
  it('applies defaults', () => {
    const r = parseTemplate(tpl('http:\n  - path: ["{{BaseURL}}/a", "{{RootURL}}/b"]\n'), 'f');
    expect(issues(r)).toEqual([]);
    expect(r.template!.http[0]).toEqual({
      id: undefined,
      path: ['{{BaseURL}}/a', '{{RootURL}}/b'],
      raw: [],
      method: 'GET',
      headers: {},
      body: undefined,
      payloads: undefined,
      attack: 'batteringram',
      redirects: false,
      hostRedirects: false,
      maxRedirects: 0,
      cookieReuse: false,
      disableCookie: false,
      reqCondition: false,
      stopAtFirstMatch: false,
      unsafe: false,
      race: false,
      raceCount: 0,
      threads: 0,
      iterateAll: false,
      digestUsername: undefined,
      digestPassword: undefined,
      skipVariablesCheck: false,
      skipSecretFile: false,
      disablePathAutomerge: false,
      maxSize: undefined,
      readAll: false,
      matchers: [],
      extractors: [],
      matchersCondition: 'or',
      extra: {},
    });
  });

  it('maps every field', () => {
    const text = tpl(`http:
  - id: login
    name: first
    method: post
    path: ["{{BaseURL}}/login"]
    headers:
      Content-Type: application/json
      X-Num: 5
    body: '{"a":1}'
    redirects: true
    max-redirects: 3
    cookie-reuse: true
    disable-cookie: true
    req-condition: true
    stop-at-first-match: true
    unsafe: true
    race: false
    race_count: 5
    threads: 4
    iterate-all: true
    digest-username: u
    digest-password: p
    skip-variables-check: true
    skip-secret-file: true
    disable-path-automerge: true
    max-size: 2048
    read-all: true
    pipeline: true
    self-contained: true
    matchers-condition: and
    matchers:
      - type: status
        status: [200, 302]
      - type: word
        part: header
        words: [session]
        condition: and
        case-insensitive: true
    extractors:
      - type: regex
        name: token
        internal: true
        group: 1
        regex: ['token=([a-z]+)']
`);
    const r = parseTemplate(text, 'f');
    expect(issues(r)).toEqual([]);
    const h = r.template!.http[0];
    expect(h).toMatchObject({
      id: 'login',
      method: 'POST',
      path: ['{{BaseURL}}/login'],
      headers: { 'Content-Type': 'application/json', 'X-Num': '5' },
      body: '{"a":1}',
      redirects: true,
      hostRedirects: false,
      maxRedirects: 3,
      cookieReuse: true,
      disableCookie: true,
      reqCondition: true,
      stopAtFirstMatch: true,
      unsafe: true,
      race: false,
      raceCount: 5,
      threads: 4,
      iterateAll: true,
      digestUsername: 'u',
      digestPassword: 'p',
      skipVariablesCheck: true,
      skipSecretFile: true,
      disablePathAutomerge: true,
      maxSize: 2048,
      readAll: true,
      matchersCondition: 'and',
      extra: { name: 'first', pipeline: true, 'self-contained': true },
    });
    expect(h.matchers).toHaveLength(2);
    expect(h.matchers[0]).toMatchObject({ type: 'status', status: [200, 302] });
    expect(h.matchers[1]).toMatchObject({
      type: 'word',
      part: 'header',
      words: ['session'],
      condition: 'and',
      caseInsensitive: true,
    });
    expect(h.extractors[0]).toMatchObject({
      type: 'regex',
      name: 'token',
      internal: true,
      group: 1,
      regex: ['token=([a-z]+)'],
    });
  });

  it('keeps raw requests, fuzzing and pre-condition', () => {
    const r = parseTemplate(
      tpl(
        'http:\n  - raw:\n      - |\n        GET /x HTTP/1.1\n        Host: {{Hostname}}\n' +
          '  - pre-condition:\n      - type: dsl\n        dsl: [method == "GET"]\n    fuzzing:\n      - part: query\n        type: postfix\n        fuzz: ["\'"]\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([]);
    expect(r.template!.http[0].raw[0]).toBe('GET /x HTTP/1.1\nHost: {{Hostname}}\n');
    expect(r.template!.http[1].extra.fuzzing).toEqual([{ part: 'query', type: 'postfix', fuzz: ["'"] }]);
    expect(r.template!.http[1].extra['pre-condition']).toHaveLength(1);
  });

  it('defaults max-redirects to 10 when redirects are on', () => {
    const a = parseTemplate(tpl('http:\n  - path: ["{{BaseURL}}"]\n    redirects: true\n'), 'f');
    const b = parseTemplate(tpl('http:\n  - path: ["{{BaseURL}}"]\n    host-redirects: true\n'), 'f');
    expect(a.template!.http[0].maxRedirects).toBe(10);
    expect(b.template!.http[0]).toMatchObject({ hostRedirects: true, maxRedirects: 10 });
  });

  it('reports wrong types, values and combinations with field paths', () => {
    const r = parseTemplate(
      tpl(
        'http:\n  - path: ["{{BaseURL}}"]\n    method: FETCH\n    threads: many\n    max-redirects: -1\n    headers: [a]\n    redirects: true\n    host-redirects: true\n' +
          '  - path: "{{BaseURL}}"\n    attack: sniper\n' +
          '  - matchers:\n      - type: word\n        words: [x]\n' +
          '  - path: ["{{BaseURL}}"]\n    race: true\n    matchers:\n      - type: dsl\n        dsl: [status_code_1 == 200]\n',
      ),
      'f.yaml',
    );
    expect(r.issues.every((i) => i.file === 'f.yaml')).toBe(true);
    expect(issues(r)).toEqual([
      expect.stringMatching(/^http\[0\]\.method: must be one of GET, HEAD, POST, .*; got "FETCH"$/),
      'http[0].threads: must be a whole number, got a string ("many")',
      'http[0].max-redirects: must not be negative, got -1',
      'http[0].headers: must be a map, got a list',
      "http[0]: 'redirects' and 'host-redirects' can't be used together",
      'http[1].path: must be a list, got a string',
      'http[1].attack: must be one of batteringram, pitchfork, clusterbomb; got "sniper"',
      'http[2]: needs `path` or `raw` (or `fuzzing` rules)',
      "http[3]: 'race' and 'req-condition' can't be used together",
    ]);
  });

  it('requires paths to start with {{BaseURL}}, {{RootURL}}, a variable or a full URL', () => {
    const ok = parseTemplate(
      tpl('http:\n  - path: ["{{RootURL}}/a", "https://api.example.com/x", "{{Scheme}}://{{Host}}/"]\n'),
      'f',
    );
    expect(issues(ok)).toEqual([]);
    expect(issues(parseTemplate(tpl('http:\n  - path: ["{{BaseURL}}/a", "/admin"]\n'), 'f'))).toEqual([
      'http[0].path[1]: must start with {{BaseURL}} or {{RootURL}} (or be a full http(s) URL or start with a {{variable}})',
    ]);
  });

  it('allows a request without path for global matchers and fuzzing only', () => {
    expect(
      issues(
        parseTemplate(
          tpl('http:\n  - global-matchers: true\n    matchers:\n      - type: word\n        words: [x]\n'),
          'f',
        ),
      ),
    ).toEqual([]);
    expect(issues(parseTemplate(tpl('http:\n  - path: []\n'), 'f'))).toEqual([
      'http[0]: needs `path` or `raw` (or `fuzzing` rules)',
    ]);
  });

  it('refuses protocol-redirects without redirects and unsafe with fuzzing', () => {
    const r = parseTemplate(
      tpl(
        'http:\n  - path: ["{{BaseURL}}"]\n    protocol-redirects: true\n  - unsafe: true\n    fuzzing:\n      - part: query\n        fuzz: [x]\n',
      ),
      'f',
    );
    expect(issues(r)).toEqual([
      "http[0].protocol-redirects: requires 'redirects' or 'host-redirects'",
      "http[1]: 'unsafe' can't be used with 'fuzzing'",
    ]);
  });

  it('reports matcher and extractor problems with their index', () => {
    const r = parseTemplate(
      tpl(
        'http:\n  - path: ["{{BaseURL}}"]\n    matchers:\n      - type: status\n        status: [200]\n      - type: word\n        words: [a]\n      - type: wordz\n        words: [a]\n    extractors:\n      - regex: [a]\n',
      ),
      'f',
    );
    expect(r.template).toBeUndefined();
    expect(r.issues.map((i) => i.field)).toEqual(['http[0].matchers[2].type', 'http[0].extractors[0].type']);
  });
});

describe('req-condition detection', () => {
  const withMatcher = (m: string) =>
    parseTemplate(tpl(`http:\n  - path: ["{{BaseURL}}/a", "{{BaseURL}}/b"]\n    matchers:\n${m}`), 'f').template!
      .http[0];

  it('turns on for _N names in a dsl matcher', () => {
    expect(
      withMatcher('      - type: dsl\n        dsl: ["status_code_2 == 200 && contains(body_1, \'x\')"]\n').reqCondition,
    ).toBe(true);
  });

  it('turns on for a numbered part', () => {
    expect(withMatcher('      - type: word\n        part: body_2\n        words: [x]\n').reqCondition).toBe(true);
  });

  it('turns on for numbered names in extractors', () => {
    const t = parseTemplate(
      tpl('http:\n  - path: ["{{BaseURL}}"]\n    extractors:\n      - type: dsl\n        dsl: [header_1]\n'),
      'f',
    ).template!;
    expect(t.http[0].reqCondition).toBe(true);
  });

  it('stays off without numbered names', () => {
    expect(withMatcher('      - type: dsl\n        dsl: ["status_code == 200 && len(body) > 3"]\n').reqCondition).toBe(
      false,
    );
    expect(withMatcher('      - type: word\n        words: [body_1]\n').reqCondition).toBe(false);
  });
});

describe('payloads', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'vigil-payloads-'));
  mkdirSync(path.join(root, 'helpers', 'lists'), { recursive: true });
  mkdirSync(path.join(root, 'http', 'cves'), { recursive: true });
  writeFileSync(path.join(root, 'helpers', 'lists', 'users.txt'), 'admin\r\nroot\n\nguest\n');
  writeFileSync(path.join(root, 'http', 'cves', 'near.txt'), 'one\ntwo\n');
  const file = path.join(root, 'http', 'cves', 't.yaml');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const withPayloads = (p: string, extra = '', use = '{{user}}{{pass}}{{n}}') =>
    parseTemplate(tpl(`http:\n  - path: ["{{BaseURL}}/${use}"]\n${extra}    payloads:\n${p}`), file, {
      templatesRoot: root,
    });

  it('keeps inline lists, converting scalars and empty items to strings', () => {
    const r = withPayloads(
      '      user: [admin, 1, true, ""]\n      pass:\n        - x\n        -\n',
      '    attack: pitchfork\n',
    );
    expect(issues(r)).toEqual([]);
    expect(r.template!.http[0].payloads).toEqual({ user: ['admin', '1', 'true', ''], pass: ['x', ''] });
    expect(r.template!.http[0].attack).toBe('pitchfork');
  });

  it('reads a file relative to the templates root, one value per line', () => {
    const r = withPayloads('      user: helpers/lists/users.txt\n');
    expect(issues(r)).toEqual([]);
    expect(r.template!.http[0].payloads).toEqual({ user: ['admin', 'root', 'guest'] });
  });

  it("reads a file relative to the template's folder", () => {
    const r = withPayloads('      user: near.txt\n');
    expect(r.template!.http[0].payloads).toEqual({ user: ['one', 'two'] });
  });

  it('reports a missing file as an error, or as a warning when asked', () => {
    const bad = withPayloads('      user: helpers/nope.txt\n');
    expect(issues(bad)).toEqual([
      'http[0].payloads.user: payload file "helpers/nope.txt" not found (looked in the templates root and the template\'s folders)',
    ]);
    const lenient = parseTemplate(
      tpl('http:\n  - path: ["{{BaseURL}}/{{user}}"]\n    payloads:\n      user: helpers/nope.txt\n'),
      file,
      { templatesRoot: root, missingPayloadFile: 'warn' },
    );
    expect(lenient.template!.http[0].payloads).toEqual({ user: [] });
    expect(lenient.warnings.map((w) => w.field)).toEqual(['http[0].payloads.user']);
  });

  it('keeps payload files inside the templates folder unless local file access is allowed', () => {
    writeFileSync(path.join(root, '..', path.basename(root) + '-secret.txt'), 'secret\n');
    const escape = `../${path.basename(root)}-secret.txt`;
    expect(issues(withPayloads(`      user: ${escape}\n`))).toEqual([
      `http[0].payloads.user: payload file "${escape}" is outside the templates folder (allowLocalFileAccess permits it)`,
    ]);
    const allowed = parseTemplate(
      tpl(`http:\n  - path: ["{{BaseURL}}/{{user}}"]\n    payloads:\n      user: ${escape}\n`),
      file,
      {
        templatesRoot: root,
        allowLocalFileAccess: true,
      },
    );
    expect(allowed.template!.http[0].payloads).toEqual({ user: ['secret'] });
    rmSync(path.join(root, '..', path.basename(root) + '-secret.txt'));
  });

  it('refuses payload files for templates given as text (uploads), whatever file name they claim', () => {
    const text = (p: string) => tpl(`http:\n  - path: ["{{BaseURL}}/{{user}}"]\n    payloads:\n      user: ${p}\n`);
    const reason = (p: string) =>
      `http[0].payloads.user: payload file "${p}" cannot be used: templates given as text (uploads, private templates) may only use inline payload lists`;
    expect(issues(parseTemplate(text('/etc/hostname'), 'upload.yaml'))).toEqual([reason('/etc/hostname')]);
    // The name a user gives is a label, even when it is a real file on the server (the old path for the attack).
    for (const name of ['/etc/hostname', 'package.json', path.join(process.cwd(), 'package.json')]) {
      for (const p of ['/etc/passwd', '../proc/self/environ', 'package.json']) {
        expect(issues(parseTemplate(text(p), name)), `${name} ${p}`).toEqual([reason(p)]);
      }
    }
    // Lenient loading (validate's warnings) does not turn that into a warning with an empty list.
    const lenient = parseTemplate(text('/etc/hostname'), 'upload.yaml', { missingPayloadFile: 'warn' });
    expect(lenient.template).toBeUndefined();
    // Read from disk by the one running the scanner, the same file name works (nuclei's behaviour).
    const disk = parseTemplate(text('near.txt'), file, { fromDisk: true });
    expect(disk.template!.http[0].payloads).toEqual({ user: ['one', 'two'] });
  });

  it('picks aggression levels cumulatively', () => {
    const p = '      user:\n        low: [a]\n        medium: [b]\n        high: [c]\n';
    expect(withPayloads(p).template!.http[0].payloads).toEqual({ user: ['a'] });
    const high = parseTemplate(tpl(`http:\n  - path: ["{{BaseURL}}/{{user}}"]\n    payloads:\n${p}`), file, {
      aggression: 'high',
    });
    expect(high.template!.http[0].payloads).toEqual({ user: ['a', 'b', 'c'] });
    expect(issues(withPayloads('      user:\n        extreme: [a]\n'))).toEqual([
      'http[0].payloads.user.extreme: unknown aggression level (use low, medium, high)',
    ]);
  });

  it('rejects empty lists and wrong types', () => {
    expect(issues(withPayloads('      user: []\n'))).toEqual(['http[0].payloads.user: payload list is empty']);
    expect(issues(withPayloads('      user: [[a]]\n'))).toEqual([
      'http[0].payloads.user[0]: must be a string, got a list',
    ]);
    expect(issues(parseTemplate(tpl('http:\n  - path: ["{{BaseURL}}"]\n    payloads: [a]\n'), file))).toEqual([
      'http[0].payloads: must be a map of payload names to values, got a list',
    ]);
  });

  it('batteringram (the default) needs exactly one used payload set', () => {
    const r = withPayloads('      user: [a]\n      pass: [b]\n');
    expect(issues(r)).toEqual([
      'http[0].attack: batteringram (the default) takes exactly one payload set, found 2 (user, pass); use pitchfork or clusterbomb',
    ]);
    expect(issues(withPayloads('      user: [a]\n      pass: [b]\n', '    attack: batteringram\n'))).toHaveLength(1);
    expect(issues(withPayloads('      user: [a]\n      pass: [b]\n', '    attack: clusterbomb\n'))).toEqual([]);
  });

  it('ignores payload sets the request never uses, as nuclei does', () => {
    const r = withPayloads('      user: [a]\n      unused_set: [b]\n', '', '{{user}}');
    expect(issues(r)).toEqual([]);
    expect(r.template!.http[0].payloads).toEqual({ user: ['a'] });
  });
});
