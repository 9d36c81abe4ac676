// The secret file end to end through the engine's runner: dynamic cookie and bearer logins (one login
// for a scan of 20 templates at concurrency 10), a failed login, skip-secret-file, static secrets.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, type ResultEvent } from '../../../src/engine/index.ts';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { loadSecretFiles, runnerLogin, SecretLoginError } from '../../../src/engine/secrets/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { CREDS, entryYaml, protectedHandler, tempDir, writeFile } from './fixtures.ts';

const SESSION = 'authenticated-session-token';
const BEARER = 'bearer-9d8c7b6a5f';

/** The login app: POST /login (form) sets a session cookie, POST /api/login (JSON) returns a token. */
let app: TestServer;
beforeAll(async () => {
  app = await startHttpServer((req, res, body) => {
    const url = req.url ?? '/';
    if (req.method === 'POST' && url === '/login') {
      const form = new URLSearchParams(body);
      if (form.get('username') === 'admin' && form.get('password') === 'letmein') {
        res.setHeader('Set-Cookie', `session=${SESSION}; Path=/; HttpOnly`);
        return void res.end('authenticated');
      }
      res.statusCode = 403;
      return void res.end('wrong credentials');
    }
    if (req.method === 'POST' && url === '/api/login') {
      const creds = JSON.parse(body || '{}') as { user?: string };
      res.setHeader('Content-Type', 'application/json');
      return void res.end(JSON.stringify(creds.user === 'api-admin' ? { access_token: BEARER } : { error: 'no' }));
    }
    if (url === '/protected') {
      const ok = (req.headers.cookie ?? '').split(/;\s*/).includes(`session=${SESSION}`);
      res.statusCode = ok ? 200 : 401;
      return void res.end(ok ? 'authenticated-data' : 'login required');
    }
    if (url === '/api/data') {
      const ok = req.headers.authorization === `Bearer ${BEARER}`;
      res.statusCode = ok ? 200 : 401;
      return void res.end(ok ? 'api-secret-data' : 'login required');
    }
    res.statusCode = 404;
    res.end();
  });
});
afterAll(() => app.close());

const COOKIE_LOGIN = `id: auth-secret-file-login
info: {name: login, author: vigil, severity: info}
http:
  - raw:
      - |
        POST /login HTTP/1.1
        Host: {{Hostname}}
        Content-Type: application/x-www-form-urlencoded

        username={{username}}&password={{password}}
    extractors:
      - type: regex
        name: session_cookie
        part: header
        internal: true
        regex:
          - 'session=[A-Za-z0-9-]+'
`;

const BEARER_LOGIN = `id: api-login
info: {name: api login, author: vigil, severity: info}
http:
  - method: POST
    path: ['{{BaseURL}}/api/login']
    headers: {Content-Type: application/json}
    body: '{"user":"{{user}}"}'
    extractors:
      - type: json
        name: access_token
        internal: true
        json: ['.access_token']
`;

function probe(id: string, p: string, word: string, extra = ''): string {
  return `id: ${id}
info: {name: ${id}, author: vigil, severity: low}
http:
  - method: GET
    path: ['{{BaseURL}}${p}']
${extra}    matchers:
      - type: word
        words: ['${word}']
`;
}

function parse(text: string, file: string): Template {
  const r = parseTemplate(text, file);
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

async function scan(templates: Template[], secretsYaml: string, opts: { templatesDir: string }) {
  const file = writeFile(opts.templatesDir, 'secrets.yaml', secretsYaml);
  const store = await loadSecretFiles([file], { templatesDir: opts.templatesDir });
  await store.prepare({ login: runnerLogin({ timeout: 5 }) });
  const results: ResultEvent[] = [];
  await runScan({
    targets: [app.url],
    templates,
    secrets: store,
    concurrency: 10,
    retries: 0,
    cluster: false,
    onResult: (e) => results.push(e),
  });
  return { results, store };
}

const host = () => `127.0.0.1:${app.port}`;

describe('dynamic secrets through the runner', () => {
  it('cookie login: one login for 20 templates at concurrency 10, every protected request authenticated', async () => {
    const dir = tempDir();
    writeFile(dir, 'login.yaml', COOKIE_LOGIN);
    const templates = Array.from({ length: 20 }, (_, i) =>
      parse(probe(`protected-${i}`, '/protected', 'authenticated-data'), `p${i}.yaml`),
    );
    const start = app.requests.length;
    const { results } = await scan(
      templates,
      `dynamic:
  - template: login.yaml
    variables:
      - {key: username, value: admin}
      - {key: password, value: letmein}
    input: ${app.url}
    type: Cookie
    domains: ["${host()}"]
    cookies:
      - raw: "{{session_cookie}}"
`,
      { templatesDir: dir },
    );
    const seen = app.requests.slice(start);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/login' });
    expect(seen.filter((r) => r.url === '/login')).toHaveLength(1);
    expect(seen.filter((r) => r.url === '/protected')).toHaveLength(20);
    expect(
      results
        .filter((r) => r['matcher-status'])
        .map((r) => r['template-id'])
        .sort(),
    ).toEqual(templates.map((t) => t.id).sort());
    // The session value never shows in output.
    expect(JSON.stringify(results)).not.toContain(SESSION);
  });

  it('bearer login: JSON token extracted and sent as Authorization: Bearer', async () => {
    const dir = tempDir();
    writeFile(dir, 'api-login.yaml', BEARER_LOGIN);
    const templates = Array.from({ length: 20 }, (_, i) =>
      parse(probe(`api-${i}`, '/api/data', 'api-secret-data'), `a${i}.yaml`),
    );
    const start = app.requests.length;
    const { results } = await scan(
      templates,
      `dynamic:
  - template: ${path.join(dir, 'api-login.yaml')}
    variables: [{key: user, value: api-admin}]
    input: ${app.url}
    type: bearertoken
    domains-regex: ['^127\\.0\\.0\\.1:${app.port}$']
    token: "{{access_token}}"
`,
      { templatesDir: dir },
    );
    const seen = app.requests.slice(start);
    expect(seen.filter((r) => r.url === '/api/login')).toHaveLength(1);
    expect(seen.filter((r) => r.url === '/api/data').map((r) => r.headers.authorization)).toEqual(
      Array(20).fill(`Bearer ${BEARER}`),
    );
    expect(results.filter((r) => r['matcher-status'])).toHaveLength(20);
  });

  it('a failed login stops before any scan request, naming the entry and template', async () => {
    const dir = tempDir();
    writeFile(dir, 'login.yaml', COOKIE_LOGIN);
    const file = writeFile(
      dir,
      'secrets.yaml',
      `dynamic:
  - template: login.yaml
    variables: [{key: username, value: admin}, {key: password, value: wrong}]
    input: ${app.url}
    type: cookie
    domains: ["${host()}"]
    cookies: [{raw: "{{session_cookie}}"}]
`,
    );
    const store = await loadSecretFiles([file], { templatesDir: dir });
    const err = await store.prepare({ login: runnerLogin({ timeout: 5 }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretLoginError);
    expect((err as Error).message).toContain(
      `dynamic[0]: login template ${path.join(dir, 'login.yaml')}: the login extracted no values`,
    );
  });
});

describe('static secrets and skip-secret-file through the runner', () => {
  let target: TestServer;
  beforeAll(async () => {
    target = await startHttpServer(protectedHandler);
  });
  afterAll(() => target.close());

  it('each static type opens its endpoint; skip-secret-file requests go without', async () => {
    const h = `127.0.0.1:${target.port}`;
    const types = ['basicauth', 'bearertoken', 'header', 'cookie', 'query'];
    const paths: Record<string, string> = {
      basicauth: '/basic',
      bearertoken: '/bearer',
      header: '/header',
      cookie: '/cookie',
      query: '/query',
    };
    for (const type of types) {
      const dir = tempDir();
      const file = writeFile(dir, 's.yaml', `static:\n${entryYaml(type, h)}`);
      const store = await loadSecretFiles([file]);
      const templates = [
        parse(probe(`with-${type}`, paths[type]!, `granted:${paths[type]!.slice(1)}`), 'w.yaml'),
        parse(
          probe(`skip-${type}`, paths[type]!, `granted:${paths[type]!.slice(1)}`, '    skip-secret-file: true\n'),
          's.yaml',
        ),
      ];
      const results: ResultEvent[] = [];
      const start = target.requests.length;
      await runScan({ targets: [target.url], templates, secrets: store, retries: 0, onResult: (e) => results.push(e) });
      expect(
        results.filter((r) => r['matcher-status']).map((r) => r['template-id']),
        type,
      ).toEqual([`with-${type}`]);
      const seen = target.requests.slice(start);
      expect(seen.map((r) => r.url.split('?')[0]).sort()).toEqual([paths[type], paths[type]]);
      // Without any secret file the endpoint stays closed.
      const none: ResultEvent[] = [];
      await runScan({ targets: [target.url], templates: [templates[0]!], retries: 0, onResult: (e) => none.push(e) });
      expect(none.filter((r) => r['matcher-status'])).toEqual([]);
    }
  });
});

describe('scope through the runner', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startHttpServer(protectedHandler), startHttpServer(protectedHandler)]);
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it('a domain with a port reaches only that port; a regex entry covers the rest, domains first', async () => {
    const file = writeFile(
      tempDir(),
      's.yaml',
      `static:
  - type: header
    domains-regex: ['^127\\.0\\.0\\.1:\\d+$']
    headers: [{key: X-Api-Key, value: wrong-key-for-all}]
${entryYaml('header', `127.0.0.1:${a.port}`)}`,
    );
    const store = await loadSecretFiles([file]);
    const t = parse(probe('header-probe', '/header', 'granted:header'), 'h.yaml');
    const results: ResultEvent[] = [];
    const [sa, sb] = [a.requests.length, b.requests.length];
    await runScan({
      targets: [a.url, b.url],
      templates: [t],
      secrets: store,
      retries: 0,
      onResult: (e) => results.push(e),
    });
    expect(results.filter((r) => r['matcher-status']).map((r) => r.host)).toEqual([a.url]);
    expect(a.requests.slice(sa).map((r) => r.headers['x-api-key'])).toEqual([CREDS.apiKey]);
    expect(b.requests.slice(sb).map((r) => r.headers['x-api-key'])).toEqual(['wrong-key-for-all']);
  });
});

describe('redaction of results', () => {
  let echo: TestServer;
  beforeAll(async () => {
    echo = await startHttpServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('X-Seen-Auth', String(req.headers.authorization ?? ''));
      res.end(`you sent k=${url.searchParams.get('k')} and ${req.headers.authorization}`);
    });
  });
  afterAll(() => echo.close());

  it('every field of an emitted result is redacted: matched-at, host, extracted results, request, response, curl', async () => {
    const h = `127.0.0.1:${echo.port}`;
    const file = writeFile(
      tempDir(),
      's.yaml',
      `static:
  - type: query
    domains: ["${h}"]
    params: [{key: k, value: "${CREDS.queryKey}"}]
  - type: header
    domains-regex: ['.*']
    headers: [{key: Authorization, value: "Token ${CREDS.token}"}]
`,
    );
    const store = await loadSecretFiles([file]);
    const t = parse(
      `id: echo
info: {name: echo, author: vigil, severity: info}
http:
  - method: GET
    path: ['{{BaseURL}}/e']
    matchers:
      - type: word
        words: ['you sent']
    extractors:
      - type: regex
        regex: ['k=.+ and']
`,
      'e.yaml',
    );
    const results: ResultEvent[] = [];
    await runScan({
      targets: [echo.url],
      templates: [t],
      secrets: store,
      retries: 0,
      onResult: (e) => results.push(e),
    });
    expect(results).toHaveLength(1);
    const text = JSON.stringify(results);
    expect(text).not.toContain(encodeURIComponent(CREDS.queryKey));
    expect(text).not.toContain(CREDS.queryKey);
    // matched-at is either the URL as the template wrote it or with the secret redacted, never the secret.
    expect([`${echo.url}/e`, `${echo.url}/e?k=[REDACTED]`]).toContain(results[0]!['matched-at']);
    expect(results[0]!['extracted-results']).toEqual(['k=[REDACTED] and']);
    expect(results[0]!.response).toContain('you sent k=[REDACTED] and undefined');
    // Only one secret per target: the domains entry (query) won over the regex entry (header).
    expect(echo.requests.at(-1)!.headers.authorization).toBeUndefined();
  });
});
