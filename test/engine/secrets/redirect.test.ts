// Values from the secret file follow a redirect only to hosts their scope names: a redirect to another
// host carries none of its headers, cookies or query parameters.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { closeClients, runScan } from '../../../src/engine/runner.ts';
import { loadSecretFiles } from '../../../src/engine/secrets/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
});

describe('secrets and redirects', () => {
  it('drops every secret header, cookie and query value on a redirect to another host', async () => {
    const other = await startHttpServer((_q, res) => res.end('landed'));
    servers.push(other);
    const mk = () =>
      startHttpServer((q, res) => {
        if (q.url!.startsWith('/start')) {
          res.writeHead(302, { location: `http://localhost:${other.port}/landing` });
          res.end();
        } else if (q.url!.startsWith('/same')) {
          res.writeHead(302, { location: '/final' });
          res.end();
        } else res.end('final');
      });
    const [o1, o2, o3] = [await mk(), await mk(), await mk()];
    servers.push(o1, o2, o3);
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-sf-redirect-'));
    try {
      const file = path.join(dir, 'secrets.yaml');
      writeFileSync(
        file,
        [
          'static:',
          '  - type: header',
          `    domains: ["127.0.0.1:${o1.port}"]`,
          '    headers:',
          '      - key: X-Api-Token',
          '        value: hdr-s3cret-value',
          '  - type: cookie',
          `    domains: ["127.0.0.1:${o2.port}"]`,
          '    cookies:',
          '      - key: session',
          '        value: cookie-s3cret-value',
          '  - type: query',
          `    domains: ["127.0.0.1:${o3.port}"]`,
          '    params:',
          '      - key: apikey',
          '        value: query-s3cret-value',
        ].join('\n') + '\n',
      );
      const secrets = await loadSecretFiles([file]);
      const tpl = (id: string, p: string) => {
        const r = parseTemplate(
          `id: ${id}\ninfo: {name: r, author: v, severity: low}\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}${p}"]\n    redirects: true\n    max-redirects: 3\n    matchers:\n      - type: status\n        status: [200]\n`,
          `${id}.yaml`,
        );
        return r.template!;
      };
      await runScan({
        targets: [o1.url, o2.url, o3.url],
        templates: [tpl('cross', '/start'), tpl('same', '/same')],
        secrets,
        rateLimit: 0,
        onResult: () => {},
      });
      // Each first request got its secret.
      expect(o1.requests.find((r) => r.url.startsWith('/start'))!.headers['x-api-token']).toBe('hdr-s3cret-value');
      expect(o2.requests.find((r) => r.url.startsWith('/start'))!.headers.cookie).toContain('cookie-s3cret-value');
      expect(o3.requests.find((r) => r.url.startsWith('/start'))!.url).toContain('query-s3cret-value');
      // The other host got none of them.
      const landed = other.requests.filter((r) => r.url.startsWith('/landing'));
      expect(landed).toHaveLength(3);
      expect(JSON.stringify(landed)).not.toMatch(/s3cret/);
      // A redirect on the same host keeps the secret its scope gives it.
      expect(o1.requests.find((r) => r.url.startsWith('/final'))!.headers['x-api-token']).toBe('hdr-s3cret-value');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
