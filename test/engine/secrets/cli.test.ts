// `vigil scan --secret-file/-sf`: the real command line, its JSON output redacted, its refusals.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { CREDS, tempDir, vigil, writeFile } from './fixtures.ts';

const BASIC = Buffer.from(`${CREDS.user}:${CREDS.password}`).toString('base64');

/** Echoes back everything it was sent (headers and query) once the credentials are right. */
let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const ok = req.headers.authorization === `Basic ${BASIC}` && url.searchParams.get('k') === CREDS.queryKey;
    res.statusCode = ok ? 200 : 401;
    res.setHeader('X-Echo-Auth', String(req.headers.authorization ?? ''));
    res.end(ok ? `welcome; you sent ${req.headers.authorization} and k=${url.searchParams.get('k')}` : 'denied');
  });
});
afterAll(() => server.close());

const TEMPLATE = `id: echo-probe
info: {name: echo probe, author: vigil, severity: info}
http:
  - method: GET
    path: ['{{BaseURL}}/echo']
    matchers:
      - type: word
        words: [welcome]
    extractors:
      - type: regex
        part: header
        regex: ['X-Echo-Auth: .*']
`;

describe('vigil scan with a secret file', () => {
  it('-sf applies secrets and -j output has every secret value redacted', async () => {
    const dir = tempDir();
    const tpl = writeFile(dir, 'echo.yaml', TEMPLATE);
    const host = `127.0.0.1:${server.port}`;
    const basic = writeFile(
      dir,
      'basic.yaml',
      `static:
  - type: basicauth
    domains: ["${host}"]
    username: ${CREDS.user}
    password: "${CREDS.password}"
`,
    );
    // The query secret applies to nothing here (one secret per target): a second target name gets it.
    const query = writeFile(
      dir,
      'query.json',
      JSON.stringify({
        static: [
          { type: 'query', 'domains-regex': ['nothing-matches'], params: [{ key: 'k', value: CREDS.queryKey }] },
        ],
      }),
    );
    const denied = await vigil(['scan', '-u', server.url, '-t', tpl, '-j', '-sf', basic, '--secret-file', query]);
    expect(denied.code).toBe(0);
    expect(denied.stdout.trim()).toBe(''); // the query secret is missing, so the server says no

    const both = writeFile(
      dir,
      'both.yaml',
      `static:
  - type: header
    domains: ["${host}"]
    headers: [{key: Authorization, value: "Basic ${BASIC}"}]
`,
    );
    const hdr = await vigil([
      'scan',
      '-u',
      `${server.url}/?k=${encodeURIComponent(CREDS.queryKey)}`,
      '-t',
      tpl,
      '-j',
      '-sf',
      both,
    ]);
    expect(hdr.code, hdr.stderr).toBe(0);
    const lines = hdr.stdout.trim().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    const out = hdr.stdout;
    expect(out).not.toContain(BASIC);
    expect(out).toContain('[REDACTED]');
    const ev = JSON.parse(lines[0]!) as Record<string, string>;
    expect(ev.request).toContain('Authorization: [REDACTED]');
    expect(ev.response).toContain('X-Echo-Auth: [REDACTED]');
    expect(ev['curl-command']).toContain('[REDACTED]');
  });

  it('redacts a query secret in every field, including matched-at and extracted results', async () => {
    const dir = tempDir();
    const host = `127.0.0.1:${server.port}`;
    const file = writeFile(
      dir,
      's.yaml',
      `static:
  - type: query
    domains: ["${host}"]
    params: [{key: k, value: "${CREDS.queryKey}"}]
`,
    );
    // Basic credentials come from the template side here so only the query secret is in play.
    const withAuth = writeFile(
      dir,
      'auth.yaml',
      TEMPLATE.replace('    matchers:', `    headers: {Authorization: "Basic ${BASIC}"}\n    matchers:`).replace(
        "part: header\n        regex: ['X-Echo-Auth: .*']",
        "part: body\n        regex: ['k=.*']",
      ),
    );
    const r = await vigil(['scan', '-u', server.url, '-t', withAuth, '-j', '-sf', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).not.toBe('');
    expect(r.stdout).not.toContain(encodeURIComponent(CREDS.queryKey));
    expect(r.stdout).not.toContain(JSON.stringify(CREDS.queryKey).slice(1, -1));
  });

  it('an invalid secret file prints every problem and exits 1 before any request', async () => {
    const dir = tempDir();
    const tpl = writeFile(dir, 'echo.yaml', TEMPLATE);
    const bad = writeFile(
      dir,
      'bad.yaml',
      `static:
  - type: bearertoken
    domains: [a.test]
    domains-regex: ['.*']
    token: t
  - type: basicauth
    domains: [b.test]
    username: u
    token: x
`,
    );
    const before = server.requests.length;
    const r = await vigil(['scan', '-u', server.url, '-t', tpl, '-sf', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}: static[0].domains: domains and domains-regex are mutually exclusive`);
    expect(r.stderr).toContain(`${bad}: static[1].password: password is required for this type`);
    expect(r.stderr).toContain(`${bad}: static[1].token: \`token\` is only valid with type bearertoken`);
    expect(server.requests.length).toBe(before);
  });

  it('a failed login stops the scan before it starts', async () => {
    const dir = tempDir();
    const tpl = writeFile(dir, 'echo.yaml', TEMPLATE);
    writeFile(
      dir,
      'login.yaml',
      `id: login
info: {name: login, author: vigil, severity: info}
http:
  - method: POST
    path: ['{{BaseURL}}/login']
    extractors:
      - type: regex
        name: token
        internal: true
        regex: ['token=[a-z]+']
`,
    );
    const file = writeFile(
      dir,
      's.yaml',
      `dynamic:
  - template: ${path.join(dir, 'login.yaml')}
    input: ${server.url}
    type: bearertoken
    domains-regex: ['.*']
    token: "{{token}}"
`,
    );
    const before = server.requests.length;
    const r = await vigil(['scan', '-u', server.url, '-t', tpl, '-sf', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `dynamic[0]: login template ${path.join(dir, 'login.yaml')}: the login extracted no values`,
    );
    expect(server.requests.slice(before).map((q) => q.url)).toEqual(['/login']);
  });
});
