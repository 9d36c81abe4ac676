// Every validation message, each triggered by a real file; a file with any problem is refused whole.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecretFiles, SecretFileError } from '../../../src/engine/secrets/index.ts';
import { tempDir, writeFile } from './fixtures.ts';

async function problems(paths: string[], templatesDir?: string | string[]): Promise<SecretFileError> {
  const err = await loadSecretFiles(paths, { templatesDir }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SecretFileError);
  return err as SecretFileError;
}

/** Loads one YAML file and returns its problems as `where: reason` lines (file name stripped). */
async function linesOf(yaml: string, name = 's.yaml'): Promise<string[]> {
  const file = writeFile(tempDir(), name, yaml);
  const err = await problems([file]);
  return err.message
    .split('\n')
    .slice(1)
    .map((l) => l.trim().slice(file.length + 2));
}

const okEntry = '  - type: bearertoken\n    domains: [a.test]\n    token: t\n';

// [name, entry yaml under `static:`, expected problem line]
const ENTRY_CASES: Array<[string, string, string]> = [
  ['entry not a mapping', '  - just-a-string\n', 'static[0]: entry must be a mapping'],
  [
    'type missing',
    '  - domains: [a.test]\n    token: t\n',
    'static[0].type: type is required (one of basicauth, query, bearertoken, header, cookie)',
  ],
  [
    'unknown type',
    '  - type: oauth\n    domains: [a.test]\n',
    'static[0].type: unknown type "oauth" (expected one of basicauth, query, bearertoken, header, cookie)',
  ],
  [
    'field of another type',
    '  - type: basicauth\n    domains: [a.test]\n    username: u\n    password: p\n    token: t\n',
    'static[0].token: `token` is only valid with type bearertoken',
  ],
  [
    'dynamic field in static',
    okEntry.replace('token: t', 'token: t\n    template: login.yaml'),
    'static[0].template: `template` is only valid in dynamic entries',
  ],
  ['unknown field', okEntry + '    tokn: t\n', 'static[0].tokn: unknown field'],
  [
    'both scopes',
    '  - type: bearertoken\n    token: t\n    domains: [a.test]\n    domains-regex: [".*"]\n',
    'static[0].domains: domains and domains-regex are mutually exclusive: use one of them',
  ],
  [
    'no scope',
    '  - type: bearertoken\n    token: t\n',
    'static[0].domains: scope is required: give domains or domains-regex',
  ],
  [
    'domains not a list',
    '  - type: bearertoken\n    token: t\n    domains: a.test\n',
    'static[0].domains: domains must be a list of strings',
  ],
  [
    'empty domains',
    '  - type: bearertoken\n    token: t\n    domains: []\n',
    'static[0].domains: domains must not be empty',
  ],
  [
    'empty domain item',
    '  - type: bearertoken\n    token: t\n    domains: [""]\n',
    'static[0].domains[0]: must be a non-empty string',
  ],
  [
    'domain with scheme',
    '  - type: bearertoken\n    token: t\n    domains: ["https://a.test/"]\n',
    'static[0].domains[0]: "https://a.test/" is not a domain: write host or host:port, without scheme or path',
  ],
  [
    'domains-regex not a list',
    '  - type: bearertoken\n    token: t\n    domains-regex: ".*"\n',
    'static[0].domains-regex: domains-regex must be a list of strings',
  ],
  [
    'empty domains-regex',
    '  - type: bearertoken\n    token: t\n    domains-regex: []\n',
    'static[0].domains-regex: domains-regex must not be empty',
  ],
  [
    'invalid regex',
    '  - type: bearertoken\n    token: t\n    domains-regex: ["a(b"]\n',
    'static[0].domains-regex[0]: invalid regular expression "a(b": ',
  ],
  [
    'username missing',
    '  - type: basicauth\n    domains: [a.test]\n    password: p\n',
    'static[0].username: username is required for this type',
  ],
  [
    'password empty',
    '  - type: basicauth\n    domains: [a.test]\n    username: u\n    password: ""\n',
    'static[0].password: password must not be empty',
  ],
  [
    'token not a string',
    '  - type: bearertoken\n    domains: [a.test]\n    token: [a]\n',
    'static[0].token: token must be a string',
  ],
  [
    'headers missing',
    '  - type: header\n    domains: [a.test]\n',
    'static[0].headers: headers is required for this type',
  ],
  [
    'headers not a list',
    '  - type: header\n    domains: [a.test]\n    headers: {key: a, value: b}\n',
    'static[0].headers: headers must be a list of {key, value}',
  ],
  [
    'headers empty',
    '  - type: header\n    domains: [a.test]\n    headers: []\n',
    'static[0].headers: headers must not be empty',
  ],
  [
    'header item not a mapping',
    '  - type: header\n    domains: [a.test]\n    headers: [X-A]\n',
    'static[0].headers[0]: must be a mapping with key and value',
  ],
  [
    'header item unknown field',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: X-A, value: b, name: c}]\n',
    'static[0].headers[0].name: unknown field (expected key, value)',
  ],
  [
    'header key empty',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: "", value: b}]\n',
    'static[0].headers[0].key: key is required and must not be empty',
  ],
  [
    'header name invalid',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: "X A", value: b}]\n',
    'static[0].headers[0].key: "X A" is not a valid header name',
  ],
  [
    'header value missing',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: X-A}]\n',
    'static[0].headers[0].value: value is required and must not be empty',
  ],
  [
    'header value not a string',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: X-A, value: [1]}]\n',
    'static[0].headers[0].value: value must be a string',
  ],
  [
    'header value with line break',
    '  - type: header\n    domains: [a.test]\n    headers: [{key: X-A, value: "a\\r\\nX-B: c"}]\n',
    'static[0].headers[0].value: value must not contain line breaks',
  ],
  ['params missing', '  - type: query\n    domains: [a.test]\n', 'static[0].params: params is required for this type'],
  [
    'param value empty',
    '  - type: query\n    domains: [a.test]\n    params: [{key: k, value: ""}]\n',
    'static[0].params[0].value: value is required and must not be empty',
  ],
  [
    'cookies missing',
    '  - type: cookie\n    domains: [a.test]\n',
    'static[0].cookies: cookies is required for this type',
  ],
  [
    'cookies not a list',
    '  - type: cookie\n    domains: [a.test]\n    cookies: a=b\n',
    'static[0].cookies: cookies must be a list of {key, value} or {raw}',
  ],
  [
    'cookies empty',
    '  - type: cookie\n    domains: [a.test]\n    cookies: []\n',
    'static[0].cookies: cookies must not be empty',
  ],
  [
    'cookie item not a mapping',
    '  - type: cookie\n    domains: [a.test]\n    cookies: ["a=b"]\n',
    'static[0].cookies[0]: must be a mapping with key and value, or raw',
  ],
  [
    'cookie item unknown field',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{raw: "a=b", path: /}]\n',
    'static[0].cookies[0].path: unknown field (expected key, value or raw)',
  ],
  [
    'cookie raw and key',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{raw: "a=b", key: a}]\n',
    'static[0].cookies[0]: give key and value, or raw, not both',
  ],
  [
    'cookie raw empty',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{raw: ""}]\n',
    'static[0].cookies[0].raw: raw must be a non-empty string',
  ],
  [
    'cookie raw not a string',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{raw: [a=b]}]\n',
    'static[0].cookies[0].raw: raw must be a non-empty string',
  ],
  [
    'cookie raw without =',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{raw: "Set-Cookie: session"}]\n',
    'static[0].cookies[0].raw: raw cookie has no name=value pair',
  ],
  [
    'cookie key missing',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{value: b}]\n',
    'static[0].cookies[0].key: key is required (or give raw) and must not be empty',
  ],
  [
    'cookie value missing',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{key: a}]\n',
    'static[0].cookies[0].value: value is required (or give raw) and must not be empty',
  ],
  [
    'cookie value with ;',
    '  - type: cookie\n    domains: [a.test]\n    cookies: [{key: a, value: "b; c=d"}]\n',
    'static[0].cookies[0].value: value must not contain ";" or line breaks',
  ],
];

describe('entry validation messages', () => {
  for (const [name, entry, expected] of ENTRY_CASES) {
    it(name, async () => {
      const lines = await linesOf(`static:\n${entry}`);
      expect(
        lines.some((l) => l.startsWith(expected)),
        `${lines.join('\n')}\nexpected: ${expected}`,
      ).toBe(true);
    });
  }
});

describe('dynamic entry validation messages', () => {
  const dir = tempDir();
  const templates = path.join(dir, 'templates');
  mkdirSync(templates);
  writeFile(templates, 'login.yaml', 'id: login\n');
  const base = '  - type: bearertoken\n    domains: [a.test]\n    token: "{{tok}}"\n';
  const cases: Array<[string, string, string]> = [
    ['template missing', base, 'dynamic[0].template: template is required in dynamic entries'],
    ['template empty', base + '    template: ""\n', 'dynamic[0].template: template must be a non-empty path'],
    [
      'template not found',
      base + '    template: nope.yaml\n',
      `dynamic[0].template: login template not found: ${path.join(templates, 'nope.yaml')}`,
    ],
    [
      'input empty',
      base + '    template: login.yaml\n    input: ""\n',
      'dynamic[0].input: input must be a non-empty string (a target URL or host)',
    ],
    [
      'variables not a list',
      base + '    template: login.yaml\n    variables: {user: a}\n',
      'dynamic[0].variables: variables must be a list of {key, value}',
    ],
    [
      'variable key missing',
      base + '    template: login.yaml\n    variables: [{value: a}]\n',
      'dynamic[0].variables[0].key: key is required and must not be empty',
    ],
  ];
  for (const [name, entry, expected] of cases) {
    it(name, async () => {
      const file = writeFile(dir, 'd.yaml', `dynamic:\n${entry}`);
      const err = await problems([file], templates);
      const lines = err.issues.map((i) => `${i.list}[${i.index}].${i.field}: ${i.reason}`);
      expect(lines).toContain(expected);
    });
  }

  it('several templates directories: the first holding the file wins; none holding it names them all', async () => {
    const first = path.join(dir, 'first');
    const second = path.join(dir, 'second');
    writeFile(second, 'auth.yaml', 'id: auth\n');
    writeFile(first, 'both.yaml', 'id: both\n');
    writeFile(second, 'both.yaml', 'id: both\n');
    const ok = writeFile(
      dir,
      'dirs.yaml',
      `dynamic:\n${base}    template: auth.yaml\n${base}    template: both.yaml\n`,
    );
    const store = await loadSecretFiles([ok], { templatesDir: [first, second] });
    expect(store.entries.map((e) => e.dynamic!.template)).toEqual([
      path.join(second, 'auth.yaml'),
      path.join(first, 'both.yaml'),
    ]);
    const bad = writeFile(dir, 'dirs-bad.yaml', `dynamic:\n${base}    template: none.yaml\n`);
    const err = await problems([bad], [first, second]);
    expect(err.issues.map((i) => `${i.list}[${i.index}].${i.field}: ${i.reason}`)).toEqual([
      `dynamic[0].template: login template "none.yaml" not found in any templates directory (${first}, ${second})`,
    ]);
  });

  it('accepts a placeholder raw cookie, relative and absolute template paths, and variables', async () => {
    const file = writeFile(
      dir,
      'ok.yaml',
      `dynamic:
  - type: cookie
    domains: [a.test]
    cookies: [{raw: "{{session_cookie}}"}]
    template: login.yaml
    variables: [{key: user, value: admin}, {key: pin, value: 1234}]
    input: http://127.0.0.1:1
  - type: bearertoken
    domains-regex: [".*"]
    token: "{{tok}}"
    template: ${JSON.stringify(path.join(templates, 'login.yaml'))}
`,
    );
    const store = await loadSecretFiles([file], { templatesDir: templates });
    expect(store.entries).toHaveLength(2);
    expect(store.entries[0]!.dynamic).toMatchObject({
      template: path.join(templates, 'login.yaml'),
      variables: [
        { key: 'user', value: 'admin' },
        { key: 'pin', value: '1234' },
      ],
      input: 'http://127.0.0.1:1',
    });
    expect(store.entries[1]!.dynamic!.template).toBe(path.join(templates, 'login.yaml'));
  });
});

describe('file validation messages', () => {
  it('unsupported extension', async () => {
    const file = writeFile(tempDir(), 's.txt', 'static: []');
    expect((await problems([file])).issues[0]!.reason).toBe('unsupported file type ".txt": use .yaml, .yml or .json');
  });
  it('unreadable file', async () => {
    const err = await problems([path.join(tempDir(), 'missing.yaml')]);
    expect(err.issues[0]!.reason).toBe('cannot read the file: ENOENT');
  });
  it('bad YAML and bad JSON, without quoting file text', async () => {
    const y = await problems([
      writeFile(tempDir(), 's.yaml', 'static:\n  - type: header\n   password: "hunter2-secret\n'),
    ]);
    expect(y.issues[0]!.reason).toMatch(/^not valid YAML/);
    const j = await problems([writeFile(tempDir(), 's.json', '{"static": [{"password": "hunter2-secret" }')]);
    expect(j.issues[0]!.reason).toMatch(/^not valid JSON/);
    expect(y.message + j.message).not.toContain('hunter2');
  });
  it('not a mapping', async () => {
    expect(await linesOf('- a\n- b\n')).toEqual(['the file must be a mapping with `static` and/or `dynamic` lists']);
  });
  it('unknown top-level field and no lists', async () => {
    expect(await linesOf('id: x\nsecrets: []\n')).toEqual([
      'secrets: unknown top-level field (expected id, info, static, dynamic)',
      'the file has neither a `static` nor a `dynamic` list',
    ]);
  });
  it('list not a list', async () => {
    expect(await linesOf('static: {type: header}\n')).toEqual(['static: static must be a list of entries']);
  });
});

describe('whole-file refusal', () => {
  it('one error lists every problem of every file, naming entry, field and reason', async () => {
    const dir = tempDir();
    const a = writeFile(
      dir,
      'a.yaml',
      `static:\n${okEntry}  - type: basicauth\n    domains: [b.test]\n    username: u\n`,
    );
    const b = writeFile(
      dir,
      'b.json',
      JSON.stringify({ static: [{ type: 'header', 'domains-regex': ['('], headers: [] }] }),
    );
    const err = await problems([a, b]);
    expect(err.issues).toEqual([
      { file: a, list: 'static', index: 1, field: 'password', reason: 'password is required for this type' },
      {
        file: b,
        list: 'static',
        index: 0,
        field: 'domains-regex[0]',
        reason: expect.stringContaining('invalid regular expression "("'),
      },
      { file: b, list: 'static', index: 0, field: 'headers', reason: 'headers must not be empty' },
    ]);
    expect(err.message.split('\n')[0]).toBe('invalid secret file (3 problems):');
    expect(err.message).toContain(`${a}: static[1].password: password is required for this type`);
  });

  it('a valid file loads; types are case-insensitive; numbers count as text', async () => {
    const store = await loadSecretFiles([
      writeFile(
        tempDir(),
        'ok.yaml',
        `id: x
info: {name: test}
static:
  - type: BasicAuth
    domains: [a.test]
    username: admin
    password: 1234
`,
      ),
    ]);
    expect(store.entries[0]!.secret).toMatchObject({ type: 'basicauth', password: '1234' });
  });
});
