// What a template or a scanned site can make the engine do is bounded: no regex, wait or network helper
// blocks the event loop, a gzip bomb or a template's max-size cannot make a response huge, a target that
// drips bytes cannot hold a request forever, and YAML aliases in uploaded text are refused.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { closeClients, runScan } from '../../../src/engine/runner.ts';
import { evaluate } from '../../../src/engine/dsl/index.ts';
import { runJq } from '../../../src/engine/operators/jq/index.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { startHttpServer, type Handler, type TestServer } from '../../helpers/targets.ts';

const servers: TestServer[] = [];
async function serve(handler: Handler): Promise<TestServer> {
  const s = await startHttpServer(handler);
  servers.push(s);
  return s;
}
const raw: http.Server[] = [];
afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
  for (const s of raw) (s.closeAllConnections?.(), s.close());
});

function tpl(id: string, body: string): Template {
  const r = parseTemplate(`id: ${id}\ninfo:\n  name: ${id}\n  author: vigil\n  severity: low\n${body}`, `${id}.yaml`);
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

/** Runs a scan while a 10 ms interval ticks; returns the events, the ticks seen and the wall time. */
async function scanTicking(
  target: string,
  templates: Template[],
  timeout = 10,
): Promise<{ events: ResultEvent[]; ticks: number; ms: number; maxGap: number }> {
  const events: ResultEvent[] = [];
  let ticks = 0;
  let last = Date.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    ticks++;
    const now = Date.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 10);
  const started = Date.now();
  try {
    await runScan({ targets: [target], templates, timeout, retries: 0, onResult: (ev) => events.push(ev) });
  } finally {
    clearInterval(timer);
  }
  return { events, ticks, ms: Date.now() - started, maxGap };
}

describe('engine limits', () => {
  it('a catastrophic regex on a small body finishes at once (linear fallback)', async () => {
    const s = await serve((_q, res) => res.end('a'.repeat(30) + 'b'));
    const t = tpl(
      'redos',
      'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: regex\n        regex: ["(a+)+$", "^(x+x+)+y$"]\n        condition: or\n      - type: dsl\n        dsl: [\'regex("(a|aa)+$", body)\']\n',
    );
    const r = await scanTicking(s.url, [t]);
    expect(r.ms).toBeLessThan(5_000); // 98.6 s with the event loop frozen before
    expect(r.maxGap).toBeLessThan(1_000);
    expect(r.events).toHaveLength(0);
  });

  it('wait_for delays the request without blocking the event loop', async () => {
    const s = await serve((_q, res) => res.end('ok'));
    const t = tpl(
      'waits',
      'http:\n  - method: GET\n    path: ["{{BaseURL}}/?{{wait_for(2)}}"]\n    matchers:\n      - type: word\n        words: [ok]\n',
    );
    const r = await scanTicking(s.url, [t]);
    expect(r.events).toHaveLength(1);
    expect(r.ms).toBeGreaterThanOrEqual(1_900);
    expect(r.maxGap).toBeLessThan(500); // it blocked the loop for the whole wait before
    expect(r.ticks).toBeGreaterThan(50);
  });

  it('wait_for in a matcher waits for its time too, without blocking the event loop', async () => {
    const s = await serve((_q, res) => res.end('ok'));
    const t = tpl(
      'waits-matching',
      'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: dsl\n        dsl: ["wait_for(1) && status_code == 200"]\n',
    );
    const r = await scanTicking(s.url, [t]);
    expect(r.events).toHaveLength(1);
    expect(r.ms).toBeGreaterThanOrEqual(900);
    expect(r.maxGap).toBeLessThan(500);
  });

  it('a gzip bomb is not inflated past the response cap, and max-size cannot lift the cap', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in about 64 KB
    expect(bomb.length).toBeLessThan(200_000);
    const s = await serve((q, res) => {
      if (q.url === '/bomb') {
        res.setHeader('content-encoding', 'gzip');
        res.end(bomb);
      } else res.end(Buffer.alloc(12 * 1024 * 1024, 0x61)); // 12 MiB plain
    });
    const sizes = 'extractors:\n      - type: dsl\n        dsl: ["len(body)"]\n';
    const a = tpl('bomb', `http:\n  - method: GET\n    path: ["{{BaseURL}}/bomb"]\n    ${sizes}`);
    const b = tpl(
      'big',
      `http:\n  - method: GET\n    path: ["{{BaseURL}}/big"]\n    max-size: 104857600\n    ${sizes}`,
    );
    const heapBefore = process.memoryUsage().rss;
    const r = await scanTicking(s.url, [a, b]);
    const len = (id: string) => Number(r.events.find((e) => e['template-id'] === id)?.['extracted-results']?.[0]);
    expect(len('bomb')).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(len('big')).toBe(10 * 1024 * 1024); // cut at the engine's 10 MiB, not the template's 100 MiB
    expect(process.memoryUsage().rss - heapBefore).toBeLessThan(400 * 1024 * 1024);
  });

  it('a target that drips one byte at a time hits the total deadline', async () => {
    const drip = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 500);
      res.on('close', () => clearInterval(timer));
    });
    raw.push(drip);
    await new Promise<void>((r) => drip.listen(0, '127.0.0.1', r));
    const port = (drip.address() as { port: number }).port;
    const t = tpl(
      'drip',
      'http:\n  - method: GET\n    path: ["{{BaseURL}}/"]\n    matchers:\n      - type: word\n        words: [x]\n',
    );
    const r = await scanTicking(`http://127.0.0.1:${port}`, [t], 2);
    expect(r.ms).toBeLessThan(8_000); // never ended before: the idle timeout never fired
  });

  it('DSL and jq calls cannot allocate without bound', () => {
    expect(() => evaluate('repeat("x", 1000000000)', {})).toThrow(/longer than/);
    expect(() => evaluate('rand_text_alpha(1e9)', {})).toThrow(/over the limit/);
    expect(evaluate('len(repeat("ab", 1000))', {})).toBe(2000);
    expect(() => runJq('[range(1e12)] | length', {})).toThrow(/over the limit/);
    expect(runJq('[range(3)]', {})).toEqual([[0, 1, 2]]);
  });

  it('refuses YAML anchors and aliases in template text from users', () => {
    const lol = [
      'id: lol',
      'info: {name: lol, author: x, severity: low}',
      'variables:',
      '  a: &a ["x","x","x","x","x","x","x","x","x"]',
      '  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      '  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      '  d: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'http:',
      '  - path: ["{{BaseURL}}"]',
      '    matchers: [{type: status, status: [200]}]',
    ].join('\n');
    const r = parseTemplate(lol, 'upload.yaml');
    expect(r.template).toBeUndefined();
    expect(r.issues[0]!.reason).toContain('anchors and aliases');
    // The same file read from disk by the operator is theirs to write.
    expect(
      parseTemplate(lol, 'upload.yaml', { fromDisk: true })
        .issues.map((i) => i.reason)
        .join(),
    ).not.toContain('anchors');
  });
});
