// Engine fidelity regressions, each checked against nuclei's behaviour on a real local server: bare
// {{BaseURL}} keeps the input's trailing slash, fragments are not sent, kval keys are case-insensitive,
// steps with only internal matchers report nothing, absolute-form raw requests go to the scan target.
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/index.ts';
import { runScan } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { serverPool } from '../../../helpers/targets.ts';

const pool = serverPool();
const serve = pool.serve;
afterAll(() => pool.closeAll());

function tpl(id: string, body: string) {
  const r = parseTemplate(`id: ${id}\ninfo:\n  name: ${id}\n  author: vigil\n  severity: info\n${body}`, `${id}.yaml`);
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

async function scan(target: string, templates: ReturnType<typeof tpl>[]): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets: [target], templates, rateLimit: 0, retries: 0, onResult: (e) => events.push(e) });
  return events;
}

describe('nuclei fidelity', () => {
  it('a bare {{BaseURL}} keeps the trailing slash of the input; {{BaseURL}}/x trims it', async () => {
    const s = await serve((q, res) => {
      if (q.url === '/app') {
        res.writeHead(301, { location: '/app/' });
        res.end();
      } else res.end(`at ${q.url}`);
    });
    const events = await scan(`${s.url}/app/`, [
      tpl(
        'bare',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}"]\n    matchers:\n      - type: word\n        words: ["at /app/"]\n',
      ),
      tpl(
        'joined',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}/login"]\n    matchers:\n      - type: word\n        words: ["at /app/login"]\n',
      ),
    ]);
    expect(s.requests.map((r) => r.url).sort()).toEqual(['/app/', '/app/login']);
    expect(events.map((e) => e['template-id']).sort()).toEqual(['bare', 'joined']);
  });

  it('never sends a URL fragment; matched-at keeps it', async () => {
    const s = await serve((q, res) => res.end(q.url === '/' ? 'root page' : 'other'));
    const events = await scan(s.url, [
      tpl(
        'frag',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}/#/alerts"]\n    matchers:\n      - type: word\n        words: ["root page"]\n',
      ),
    ]);
    expect(s.requests.map((r) => r.url)).toEqual(['/']);
    expect(events).toHaveLength(1);
    expect(events[0]!['matched-at']).toBe(`${s.url}/#/alerts`);
  });

  it('kval keys are compared in lower case, as nuclei compiles them', async () => {
    const s = await serve((_q, res) => {
      res.setHeader('Server', 'Apache/2.4.57');
      res.setHeader('X-Powered-By', 'PHP/8.2');
      res.end('ok');
    });
    const events = await scan(s.url, [
      tpl(
        'kv',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    extractors:\n      - type: kval\n        kval: [Server, X_Powered_By]\n',
      ),
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]!['extracted-results']).toEqual(['Apache/2.4.57', 'PHP/8.2']);
  });

  it('a step whose matchers are all internal gates the next step but reports nothing', async () => {
    const s = await serve((q, res) =>
      res.end(q.url === '/one' ? 'gate-open' : q.url === '/two' ? 'final-proof' : 'no'),
    );
    const events = await scan(s.url, [
      tpl(
        'gated',
        [
          'http:',
          '  - method: GET',
          '    path: ["{{BaseURL}}/one"]',
          '    matchers:',
          '      - type: word',
          '        internal: true',
          '        words: [gate-open]',
          '  - method: GET',
          '    path: ["{{BaseURL}}/two"]',
          '    matchers:',
          '      - type: word',
          '        words: [final-proof]',
          '',
        ].join('\n'),
      ),
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]!['matched-at']).toBe(`${s.url}/two`);
  });

  it('a raw request in absolute form goes to the scan target with its request line as written', async () => {
    const elsewhere = await serve((_q, res) => res.end('wrong host'));
    const target = await serve((q, res) => res.end(`line=${q.url}`));
    const events = await scan(target.url, [
      tpl(
        'absolute',
        [
          'http:',
          '  - raw:',
          '      - |',
          `        GET http://127.0.0.1:${elsewhere.port}/proxy-check HTTP/1.1`,
          '        Host: {{Hostname}}',
          '',
          '    matchers:',
          '      - type: word',
          `        words: ["line=http://127.0.0.1:${elsewhere.port}/proxy-check"]`,
          '',
        ].join('\n'),
      ),
    ]);
    expect(elsewhere.requests).toHaveLength(0);
    expect(target.requests.map((r) => r.url)).toEqual([`http://127.0.0.1:${elsewhere.port}/proxy-check`]);
    expect(events).toHaveLength(1);
  });

  it('keeps a binary body byte for byte: binary matchers, byte regexes and hex_encode(body) see what arrived', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x01, 0xc3]);
    const s = await serve((_q, res) => {
      res.setHeader('content-type', 'image/png');
      res.end(bytes);
    });
    const events = await scan(s.url, [
      tpl(
        'bin',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: binary\n        binary: ["fffe0001c3"]\n',
      ),
      tpl(
        'rx',
        'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: regex\n        regex: ["\\\\xff\\\\xfe\\\\x00"]\n',
      ),
      tpl(
        'hex',
        `http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: dsl\n        dsl: ['hex_encode(body) == "${bytes.toString('hex')}"', 'len(body) == 13']\n        condition: and\n`,
      ),
    ]);
    expect(events.map((e) => e['template-id']).sort()).toEqual(['bin', 'hex', 'rx']);
  });
});
