// Dynamic secrets at the store level: placeholders filled from a login's extracted values, the login run
// once however many callers wait on it, and errors that name entry and template but no value.
// The login runner here performs a real HTTP login against a 127.0.0.1 server; the end-to-end tests with
// the engine's runner live in scan.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretFiles, SecretLoginError, type LoginRunner } from '../../../src/engine/secrets/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { tempDir, writeFile } from './fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer(async (req, res, body) => {
    if (req.url === '/login-crlf') return void res.end(JSON.stringify({ token: 'a\r\nX-Injected: 1' }));
    if (req.url === '/login') {
      await new Promise((r) => setTimeout(r, 50)); // keep the login in flight while others wait
      const creds = new URLSearchParams(body);
      if (creds.get('user') !== 'admin' || creds.get('pass') !== 'pw') {
        res.statusCode = 403;
        return void res.end('bad');
      }
      res.setHeader('Set-Cookie', 'session=dyn-cookie-123; Path=/');
      res.end(JSON.stringify({ token: 'dyn-token-456' }));
    }
  });
});
afterAll(() => server.close());

/** A login the way a login template does it: POST the variables, extract cookie and token. */
const httpLogin: LoginRunner = async ({ input, variables }) => {
  const res = await fetch(`${input}/login`, { method: 'POST', body: new URLSearchParams(variables) });
  if (res.status !== 200) return {};
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { session_cookie: setCookie, token: [(await res.json()).token, 'second'], unused: '' };
};

async function storeFor(entry: string) {
  const dir = tempDir();
  writeFile(dir, 'login.yaml', 'id: login\n');
  const file = writeFile(dir, 'secrets.yaml', `dynamic:\n${entry}`);
  return loadSecretFiles([file], { templatesDir: dir });
}

const cookieEntry = (pass = 'pw') => `  - type: cookie
    domains: [app.test]
    cookies: [{raw: "{{session_cookie}}"}]
    template: login.yaml
    variables: [{key: user, value: admin}, {key: pass, value: ${pass}}]
    input: URL
`;

describe('dynamic secrets', () => {
  it('fills a raw cookie placeholder and logs in once for many concurrent callers', async () => {
    const store = await storeFor(cookieEntry().replace('URL', server.url));
    const before = server.requests.length;
    await Promise.all(Array.from({ length: 10 }, () => store.prepare({ login: httpLogin })));
    await store.prepare({ login: httpLogin });
    expect(server.requests.length - before).toBe(1);
    const req = { url: new URL('https://app.test/x'), headers: { cookie: 'a=1' } as Record<string, string> };
    store.apply(req);
    expect(req.headers).toEqual({ Cookie: 'a=1; session=dyn-cookie-123' });
    expect(store.secretValues()).toContain('dyn-cookie-123');
  });

  it('fills bearer tokens from the first of several values and placeholders inside text', async () => {
    const store = await storeFor(`  - type: header
    domains: [api.test]
    headers: [{key: Authorization, value: "Token {{ token }}"}, {key: "X-{{token}}", value: fixed}]
    template: login.yaml
    variables: [{key: user, value: admin}, {key: pass, value: pw}]
    input: ${server.url}
`);
    await store.prepare({ login: httpLogin });
    const req = { url: new URL('http://api.test/'), headers: {} as Record<string, string> };
    store.apply(req);
    expect(req.headers).toEqual({ Authorization: 'Token dyn-token-456', 'X-dyn-token-456': 'fixed' });
  });

  it('a login that extracts nothing fails, naming entry and template; the failure is remembered', async () => {
    const store = await storeFor(cookieEntry('wrong').replace('URL', server.url));
    const tpl = path.join(path.dirname(store.entries[0]!.origin.file), 'login.yaml');
    const before = server.requests.length;
    const err = await store.prepare({ login: httpLogin }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretLoginError);
    expect((err as Error).message).toBe(
      `secret file ${store.entries[0]!.origin.file}: dynamic[0]: login template ${tpl}: the login extracted no values`,
    );
    await expect(store.prepare({ login: httpLogin })).rejects.toThrow('extracted no values');
    expect(server.requests.length - before).toBe(1);
    expect(() => store.apply({ url: new URL('https://app.test/'), headers: {} })).toThrow('login has not run');
  });

  it('a placeholder without an extracted value fails with names only', async () => {
    const store = await storeFor(`  - type: bearertoken
    domains: [api.test]
    token: "{{access_token}}"
    template: login.yaml
    variables: [{key: user, value: admin}, {key: pass, value: pw}]
    input: ${server.url}
`);
    const err = (await store.prepare({ login: httpLogin }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/no extracted value for \{\{access_token\}\} \(extracted: session_cookie, token\)$/);
    expect(err.message).not.toContain('dyn-token-456');
  });

  it('a login that throws is reported as a failed login', async () => {
    const store = await storeFor(cookieEntry().replace('URL', 'http://127.0.0.1:1'));
    await expect(store.prepare({ login: httpLogin })).rejects.toThrow(
      /dynamic\[0\]: login template .*login\.yaml: the login failed: /,
    );
  });

  it('a filled raw cookie must still hold a name=value pair', async () => {
    const store = await storeFor(cookieEntry().replace('URL', server.url).replace('{{session_cookie}}', '{{token}}'));
    await expect(store.prepare({ login: httpLogin })).rejects.toThrow(
      'cookies[0].raw has no name=value pair once filled',
    );
  });

  it('an extracted value with a line break is refused', async () => {
    const store = await storeFor(`  - type: header
    domains: [api.test]
    headers: [{key: X-T, value: "{{tok}}"}]
    template: login.yaml
`);
    const login: LoginRunner = async () => ({ tok: (await (await fetch(`${server.url}/login-crlf`)).json()).token });
    await expect(store.prepare({ login })).rejects.toThrow('an extracted value holds a line break');
  });
});
