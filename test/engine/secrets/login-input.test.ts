// A dynamic entry without `input`: the login runs when its template names the login URL itself
// (self-contained, absolute URLs, a Host header, a variable); otherwise the entry is refused with a
// message naming it, before the login server sees anything.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretFiles, loginTargetNeed, runnerLogin, SecretLoginError } from '../../../src/engine/secrets/index.ts';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { tempDir, writeFile } from './fixtures.ts';

const TOKEN = 'no-input-token-31337';

let app: TestServer;
beforeAll(async () => {
  app = await startHttpServer((req, res) => {
    if (req.method === 'POST' && req.url === '/login') return void res.end(`token=${TOKEN}`);
    res.statusCode = 404;
    res.end();
  });
});
afterAll(() => app.close());

const head = 'id: login\ninfo: {name: login, author: vigil, severity: info}\n';
const extractor = `    extractors:
      - type: regex
        name: tok
        internal: true
        group: 1
        regex: ['token=([a-z0-9-]+)']
`;
const pathLogin = (p: string, extra = '') => `${head}${extra}http:\n  - method: POST\n    path: ['${p}']\n${extractor}`;
const rawLogin = (lines: string[]) =>
  `${head}http:\n  - raw:\n      - |\n${lines.map((l) => `        ${l}`).join('\n')}\n\n${extractor}`;

/** Writes the login template and a secret file whose one dynamic entry has no input; runs prepare(). */
async function loginWithoutInput(template: string, variables = '') {
  const dir = tempDir();
  writeFile(dir, 'login.yaml', template);
  const file = writeFile(
    dir,
    's.yaml',
    `dynamic:
  - template: login.yaml
${variables}    type: bearertoken
    domains: [app.test]
    token: "{{tok}}"
`,
  );
  const store = await loadSecretFiles([file], { templatesDir: dir });
  const before = app.requests.length;
  const error = await store.prepare({ login: runnerLogin({ timeout: 5, retries: 0 }) }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  const req = { url: new URL('https://app.test/'), headers: {} as Record<string, string> };
  if (!error) store.apply(req);
  return {
    error,
    file,
    template: path.join(dir, 'login.yaml'),
    logins: app.requests.length - before,
    sent: req.headers,
  };
}

describe('dynamic entry without input', () => {
  it('runs a template with an absolute login URL', async () => {
    const r = await loginWithoutInput(pathLogin(`${app.url}/login`));
    expect(r.error).toBeUndefined();
    expect(r.logins).toBe(1);
    expect(r.sent).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });

  it('runs a self-contained template', async () => {
    const r = await loginWithoutInput(pathLogin(`${app.url}/login`, 'self-contained: true\n'));
    expect(r.error).toBeUndefined();
    expect(r.sent).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });

  it('runs a template whose URL comes from the entry variables', async () => {
    const r = await loginWithoutInput(
      pathLogin('{{login_url}}'),
      `    variables: [{key: login_url, value: "${app.url}/login"}]\n`,
    );
    expect(r.error).toBeUndefined();
    expect(r.sent).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });

  it('runs a raw template with a fixed Host header', async () => {
    const r = await loginWithoutInput(rawLogin(['POST /login HTTP/1.1', `Host: 127.0.0.1:${app.port}`]));
    expect(r.error).toBeUndefined();
    expect(r.logins).toBe(1);
    expect(r.sent).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });

  it('refuses a template built on the target, naming entry and template, before any request', async () => {
    const r = await loginWithoutInput(pathLogin('{{BaseURL}}/login'));
    expect(r.error).toBeInstanceOf(SecretLoginError);
    expect(r.error!.message).toBe(
      `secret file ${r.file}: dynamic[0]: login template ${r.template}: input is required because the login template ` +
        'login.yaml is not self-contained (its requests use {{BaseURL}}); add `input: <login target URL>` to this entry, ' +
        'or write absolute URLs in the template',
    );
    expect(r.logins).toBe(0);
  });

  it('refuses a raw request with neither an absolute URL nor a Host header', async () => {
    const r = await loginWithoutInput(rawLogin(['POST /login HTTP/1.1', 'Content-Type: text/plain']));
    expect(r.error!.message).toContain('dynamic[0]: login template');
    expect(r.error!.message).toContain(
      'input is required because the login template login.yaml is not self-contained (its raw request has neither an absolute URL nor a Host header)',
    );
    expect(r.logins).toBe(0);
  });
});

describe('loginTargetNeed', () => {
  const need = (text: string, given: Record<string, string> = {}) => {
    const r = parseTemplate(text, 'login.yaml');
    if (!r.template) throw new Error(JSON.stringify(r.issues));
    return loginTargetNeed(r.template, given);
  };

  it('sees target variables in DSL calls, headers and through template variables', () => {
    expect(need(rawLogin(['POST /login HTTP/1.1', 'Host: {{Hostname}}']))).toBe('its requests use {{Hostname}}');
    expect(need(pathLogin('http://127.0.0.1:1/login?h={{base64(Host)}}'))).toBe('its requests use {{Host}}');
    expect(need(pathLogin('{{login}}', 'variables:\n  login: "{{RootURL}}/login"\n'))).toBe(
      'its requests use {{RootURL}}',
    );
  });

  it('a variable given by the entry, or one that does not use the target, needs no input', () => {
    expect(need(pathLogin('{{BaseURL}}/login'), { BaseURL: 'http://127.0.0.1:1' })).toBeUndefined();
    expect(
      need(pathLogin('{{login}}', 'variables:\n  login: "http://127.0.0.1:1/{{to_lower(\'LOGIN\')}}"\n')),
    ).toBeUndefined();
  });
});
