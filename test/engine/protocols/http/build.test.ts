// The headers a path request goes out with (build.ts): Host and the default User-Agent when the template
// sets none, the template's own when it does, the body's length for a body or a POST; on a real server.
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/index.ts';
import { runScan } from '../../../../src/engine/runner.ts';
import { DEFAULT_USER_AGENT } from '../../../../src/engine/protocols/http/build.ts';
import { serverPool } from '../../../helpers/targets.ts';

const pool = serverPool();
afterAll(() => pool.closeAll());

function tpl(id: string, block: string) {
  const r = parseTemplate(
    `id: ${id}\ninfo:\n  name: ${id}\n  author: vigil\n  severity: info\nhttp:\n${block}`,
    `${id}.yaml`,
  );
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

describe('path request headers', () => {
  it('Host and the default User-Agent without headers of its own; its own User-Agent and the length of a body otherwise', async () => {
    const s = await pool.serve((_q, res) => res.end('ok'));
    const host = new URL(s.url).host;
    await runScan({
      targets: [s.url],
      templates: [
        tpl('plain', '  - method: GET\n    path: ["{{BaseURL}}/plain"]\n'),
        tpl('own-ua', '  - method: GET\n    path: ["{{BaseURL}}/own-ua"]\n    headers:\n      User-Agent: scanner/1\n'),
        tpl('body', '  - method: POST\n    path: ["{{BaseURL}}/body"]\n    body: "a=1&b=2"\n'),
        tpl('empty-body', '  - method: POST\n    path: ["{{BaseURL}}/empty-body"]\n'),
      ],
      rateLimit: 0,
      retries: 0,
      cluster: false,
      onResult: () => undefined,
    });
    const seen = Object.fromEntries(
      s.requests.map((r) => [r.url, [r.headers.host, r.headers['user-agent'], r.headers['content-length']]]),
    );
    expect(seen).toEqual({
      '/plain': [host, DEFAULT_USER_AGENT, undefined],
      '/own-ua': [host, 'scanner/1', undefined],
      '/body': [host, DEFAULT_USER_AGENT, '7'],
      '/empty-body': [host, DEFAULT_USER_AGENT, '0'],
    });
  });
});
