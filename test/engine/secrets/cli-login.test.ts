// `vigil scan` with a dynamic secret: one login for a 20-template scan at -c 10, and where a relative
// login template path is looked up (--templates-dir, else each -t folder, then the working directory).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { tempDir, vigil, writeFile } from './fixtures.ts';

const SESSION = 'cli-session-8e7d6c5b';

/** POST /login (form admin/letmein) sets the session cookie; /protected wants it. */
let app: TestServer;
beforeAll(async () => {
  app = await startHttpServer((req, res, body) => {
    if (req.method === 'POST' && req.url === '/login') {
      const form = new URLSearchParams(body);
      if (form.get('username') === 'admin' && form.get('password') === 'letmein')
        res.setHeader('Set-Cookie', `session=${SESSION}; Path=/`);
      return void res.end('ok');
    }
    const ok = (req.headers.cookie ?? '').split(/;\s*/).includes(`session=${SESSION}`);
    res.statusCode = ok ? 200 : 401;
    res.end(ok ? 'members-area' : 'login required');
  });
});
afterAll(() => app.close());

const LOGIN = `id: cli-login
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
        regex: ['session=[A-Za-z0-9-]+']
`;

const probe = (i: number) => `id: members-${i}
info: {name: members ${i}, author: vigil, severity: low}
http:
  - method: GET
    path: ['{{BaseURL}}/protected']
    matchers:
      - type: word
        words: [members-area]
`;

function probes(dir: string, n: number): string {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) writeFile(dir, `members-${i}.yaml`, probe(i));
  return dir;
}

const secretFile = (dir: string, template: string) =>
  writeFile(
    dir,
    'secrets.yaml',
    `dynamic:
  - template: ${template}
    variables: [{key: username, value: admin}, {key: password, value: letmein}]
    input: ${app.url}
    type: cookie
    domains: ["127.0.0.1:${app.port}"]
    cookies: [{raw: "{{session_cookie}}"}]
`,
  );

/** Requests the app saw since `start`, by path. */
const count = (start: number, url: string) => app.requests.slice(start).filter((r) => r.url === url).length;

const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { 'template-id': string })['template-id'])
    .sort();

describe('vigil scan with a dynamic secret', () => {
  it('--help documents --templates-dir', async () => {
    const r = await vigil(['scan', '--help']);
    expect(r.stdout).toContain('--templates-dir <dir>');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'base for relative login template paths in secret files (default: each -t folder, then the current directory)',
    );
  });

  it('20 templates at -c 10: the login runs once, every request is authenticated, -j output redacted', async () => {
    const dir = tempDir();
    writeFile(path.join(dir, 'auth'), 'login.yaml', LOGIN);
    const s = secretFile(dir, 'login.yaml');
    const start = app.requests.length;
    const r = await vigil([
      'scan',
      '-u',
      app.url,
      '-t',
      probes(path.join(dir, 'probes'), 20),
      '-c',
      '10',
      '--no-cluster',
      '-j',
      '-sf',
      s,
      '--templates-dir',
      path.join(dir, 'auth'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(count(start, '/login')).toBe(1);
    expect(count(start, '/protected')).toBe(20);
    expect(ids(r.stdout)).toEqual(Array.from({ length: 20 }, (_, i) => `members-${i}`).sort());
    expect(r.stdout).not.toContain(SESSION);
    expect(r.stdout).toContain('session=[REDACTED]');
  });

  it('by default a relative login path is found in a -t folder, and that login template is not scanned', async () => {
    const root = tempDir();
    probes(path.join(root, 'probes'), 3);
    writeFile(path.join(root, 'auth'), 'login.yaml', LOGIN);
    const s = secretFile(tempDir(), 'auth/login.yaml');
    const start = app.requests.length;
    const r = await vigil(['scan', '-u', app.url, '-t', root, '-j', '-ms', '-sf', s]);
    expect(r.code, r.stderr).toBe(0);
    expect(count(start, '/login')).toBe(1);
    expect(ids(r.stdout)).toEqual(['members-0', 'members-1', 'members-2']);
  });

  it('then the working directory; a path found nowhere is refused, naming every directory tried', async () => {
    const cwd = tempDir();
    writeFile(cwd, 'login.yaml', LOGIN);
    const tpl = writeFile(tempDir(), 'one.yaml', probe(0));
    const s = secretFile(tempDir(), 'login.yaml');
    const start = app.requests.length;
    const r = await vigil(['scan', '-u', app.url, '-t', tpl, '-j', '-sf', s], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(['members-0']);
    expect(count(start, '/login')).toBe(1);

    const folder = probes(path.join(tempDir(), 'probes'), 1);
    const missing = secretFile(tempDir(), 'nowhere.yaml');
    const before = app.requests.length;
    const bad = await vigil(['scan', '-u', app.url, '-t', folder, '-sf', missing], { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `${missing}: dynamic[0].template: login template "nowhere.yaml" not found in any templates directory (${folder}, ${cwd})`,
    );
    expect(app.requests.length).toBe(before);
  });
});
