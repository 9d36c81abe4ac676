// Shared pieces of the secret file tests: temporary secret files and a target whose endpoints each
// demand one kind of credential.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type http from 'node:http';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the real `vigil` command line (bin/vigil.mjs) and collects its exit code and output. */
export function vigil(
  args: string[],
  opts: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'bin/vigil.mjs'), ...args],
      { cwd: opts.cwd ?? repoRoot, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'vigil-secrets-'));
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}

export const CREDS = {
  user: 'alice',
  password: 'pa55-Word!',
  token: 'tok-7f3a9c1e',
  apiKey: 'key-91bd02',
  session: 'sess-55aa',
  queryKey: 'qk 9&=x',
};

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** 200 with `granted:<kind>` when the request carries the right credential, else 401. */
export function protectedHandler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const basic = 'Basic ' + Buffer.from(`${CREDS.user}:${CREDS.password}`).toString('base64');
  const ok: Record<string, boolean> = {
    '/basic': req.headers.authorization === basic,
    '/bearer': req.headers.authorization === `Bearer ${CREDS.token}`,
    '/header': req.headers['x-api-key'] === CREDS.apiKey,
    '/cookie': cookieValue(req.headers.cookie, 'session') === CREDS.session,
    '/query': url.searchParams.get('api_key') === CREDS.queryKey,
  };
  if (ok[url.pathname]) {
    res.statusCode = 200;
    res.end(`granted:${url.pathname.slice(1)}`);
  } else {
    res.statusCode = 401;
    res.end('denied');
  }
}

/** The static secret file used by several tests: one entry per type for the given host[:port]. */

export function entryYaml(type: string, host: string): string {
  switch (type) {
    case 'basicauth':
      return `  - type: basicauth\n    domains: ["${host}"]\n    username: ${CREDS.user}\n    password: "${CREDS.password}"\n`;
    case 'bearertoken':
      return `  - type: BearerToken\n    domains: ["${host}"]\n    token: ${CREDS.token}\n`;
    case 'header':
      return `  - type: header\n    domains: ["${host}"]\n    headers:\n      - key: X-Api-Key\n        value: ${CREDS.apiKey}\n`;
    case 'cookie':
      return `  - type: cookie\n    domains: ["${host}"]\n    cookies:\n      - raw: "Set-Cookie: session=${CREDS.session}; Path=/; HttpOnly"\n`;
    case 'query':
      return `  - type: query\n    domains: ["${host}"]\n    params:\n      - key: api_key\n        value: "${CREDS.queryKey}"\n`;
    default:
      throw new Error(type);
  }
}
