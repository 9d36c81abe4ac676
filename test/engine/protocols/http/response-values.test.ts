// The values matchers see for each response of a request: request values under response values,
// nothing carried over from one hop of a redirect chain to another, cookies under headers.
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/index.ts';
import { closeClients, runScan } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { startHttpServer, type TestServer } from '../../../helpers/targets.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
});

function template(yaml: string) {
  const r = parseTemplate(
    `id: values\ninfo:\n  name: values\n  author: vigil\n  severity: info\n${yaml}`,
    'values.yaml',
  );
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

async function matchedAt(yaml: string, url: string): Promise<string[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets: [url],
    templates: [template(yaml)],
    rateLimit: 0,
    timeout: 5,
    onResult: (e) => events.push(e),
  });
  return events
    .filter((e) => e['matcher-status'])
    .map((e) => new URL(e['matched-at'] as string).pathname)
    .sort();
}

describe('response values', () => {
  it("runs matchers on each hop of a redirect chain with only that hop's headers", async () => {
    const s = await startHttpServer((q, res) => {
      if (q.url === '/start') {
        res.writeHead(302, { Location: '/end', 'X-First': 'one' });
        res.end();
        return;
      }
      res.writeHead(200, { 'X-Final': 'yes' });
      res.end('done');
    });
    servers.push(s);
    const block = (dsl: string) =>
      `http:\n  - method: GET\n    path: ["{{BaseURL}}/start"]\n    redirects: true\n    matchers:\n      - type: dsl\n        dsl:\n          - '${dsl}'\n`;
    // Each hop sees its own headers...
    expect(await matchedAt(block('x_first == "one"'), s.url)).toEqual(['/start']);
    expect(await matchedAt(block('x_final == "yes"'), s.url)).toEqual(['/end']);
    // ...and never the other hop's (a missing variable fails the expression).
    expect(await matchedAt(block('status_code == 302 && x_final == "yes"'), s.url)).toEqual([]);
    expect(await matchedAt(block('status_code == 200 && x_first == "one"'), s.url)).toEqual([]);
    // Request values (built-ins, template variables) stay visible on every hop.
    expect(
      await matchedAt(`variables:\n  mark: "ok"\n${block('mark == "ok" && contains(BaseURL, "127.0.0.1")')}`, s.url),
    ).toEqual(['/end', '/start']);
  });

  it('lets response values win over variables of the same name, and headers over cookies', async () => {
    const s = await startHttpServer((_q, res) => {
      res.setHeader('Set-Cookie', ['session=abc', 'content_type=from-cookie']);
      res.setHeader('Content-Type', 'text/plain');
      res.end('real body');
    });
    servers.push(s);
    const yaml =
      'variables:\n  body: "from variable"\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers-condition: and\n' +
      '    matchers:\n      - type: dsl\n        dsl:\n          - \'body == "real body"\'\n          - \'content_type == "text/plain"\'\n          - \'session == "abc"\'\n        condition: and\n';
    expect(await matchedAt(yaml, s.url)).toEqual(['/']);
  });
});
