// Flows over http blocks against a real server: blocks run only when the flow calls them, in its
// order, with short-circuit rules; a block passes on any matcher (internal ones too) and hands its
// extracted values to the next; ids and positions both name blocks.
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/parse.ts';
import { runScan, unsupportedReason } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import { serverPool } from '../../helpers/targets.ts';

const pool = serverPool();
afterAll(() => pool.closeAll());

function template(flow: string, blocks: string): ReturnType<typeof parseTemplate>['template'] {
  const res = parseTemplate(
    `id: flow-test\ninfo: { name: flow test, author: vigil, severity: high }\nflow: ${flow}\nhttp:\n${blocks}`,
    'flow.yaml',
  );
  expect(res.issues).toEqual([]);
  return res.template!;
}

const BLOCKS = `
  - id: probe
    method: GET
    path: ["{{BaseURL}}/probe"]
    matchers:
      - type: word
        internal: true
        words: ["ready"]
    extractors:
      - type: regex
        name: token
        internal: true
        group: 1
        regex: ["token=([a-z0-9]+)"]
  - method: GET
    path: ["{{BaseURL}}/use/{{token}}"]
    matchers:
      - type: word
        words: ["accepted"]
  - method: GET
    path: ["{{BaseURL}}/other"]
    matchers:
      - type: status
        status: [200]
`;

async function scan(flow: string, probeBody: string) {
  const server = await pool.serve((req, res) => {
    if (req.url === '/probe') return res.end(probeBody);
    if (req.url === '/use/abc123') return res.end('accepted');
    if (req.url === '/other') return res.end('other');
    res.statusCode = 404;
    res.end('no');
  });
  const events: ResultEvent[] = [];
  const t = template(flow, BLOCKS)!;
  expect(unsupportedReason(t)).toBeUndefined();
  await runScan({ targets: [server.url], templates: [t], rateLimit: 0, onResult: (e) => events.push(e) });
  return {
    paths: server.requests.map((r) => r.url),
    events: events.filter((e) => e['matcher-status'] !== false).map((e) => e['matched-at']!.replace(server.url, '')),
  };
}

describe('http flows', () => {
  it('http(1) && http(2): the gate passes on an internal matcher and its extraction feeds block 2', async () => {
    const r = await scan('http(1) && http(2)', 'ready token=abc123');
    expect(r.paths).toEqual(['/probe', '/use/abc123']);
    expect(r.events).toEqual(['/use/abc123']); // block 1 is internal only: it reports nothing itself
  });

  it('a failed gate stops the chain; || runs the alternative; ids name blocks', async () => {
    expect((await scan('http(1) && http(2)', 'busy')).paths).toEqual(['/probe']);
    const alt = await scan('http("probe") || http(3)', 'busy');
    expect(alt.paths).toEqual(['/probe', '/other']);
    expect(alt.events).toEqual(['/other']);
    const skip = await scan('http("probe") || http(3)', 'ready token=abc123');
    expect(skip.paths).toEqual(['/probe']);
  });

  it('blocks the flow never calls are not sent; several lines run in order', async () => {
    const r = await scan('|\n  http(3)\n  http(1) && http(2)', 'ready token=abc123');
    expect(r.paths).toEqual(['/other', '/probe', '/use/abc123']);
  });

  it('runs flows with statements as JavaScript: if, for ... of iterate, set, template values', async () => {
    const gated = await scan('|\n  if (http(1)) { http(2) }', 'ready token=abc123');
    expect(gated.paths).toEqual(['/probe', '/use/abc123']);
    const closed = await scan('|\n  if (http(1)) { http(2) }', 'busy');
    expect(closed.paths).toEqual(['/probe']);
    // set() feeds the next block; template shows what earlier blocks extracted.
    const looped = await scan(
      '|\n  http(1)\n  for (let t of iterate(template.token, "zzz")) { set("token", t); http(2) }',
      'ready token=abc123',
    );
    expect(looped.paths).toEqual(['/probe', '/use/abc123', '/use/zzz']);
    expect(looped.events).toEqual(['/use/abc123']);
  });
});
