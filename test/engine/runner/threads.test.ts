// A scan split over worker threads (runScanOnThreads) gives the same results and counts as the same scan
// on one thread, against a local server: matches, extractions, clustered templates, a self-contained
// template run once, and a template the engine refuses.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { runScan } from '../../../src/engine/runner.ts';
import { runScanOnThreads, singleThreadReason } from '../../../src/engine/runner/threads.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';

let server: Server;
let server6: Server;
let v6port: number;
let base: string;
let templates: Template[];
const seen: string[] = [];

const template = (id: string, body: string) => {
  const r = parseTemplate(`id: ${id}\ninfo: { name: ${id}, author: t, severity: low }\n${body}`, `${id}.yaml`);
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
};

beforeAll(async () => {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '');
    if (req.url?.endsWith('/admin')) res.end(`<title>Admin ${req.url.split('/')[1]}</title>`);
    else if (req.url === '/self') res.end('self-contained');
    else {
      res.statusCode = 404;
      res.end('nothing');
    }
  };
  server = createServer(handler);
  server6 = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server6.listen(0, '::1', resolve));
  v6port = (server6.address() as AddressInfo).port;
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = (path: string, matchers: string) =>
    `http:\n  - method: GET\n    path: ["{{BaseURL}}${path}"]\n    matchers:\n${matchers}`;
  templates = [
    template(
      'admin-title',
      `${get('/admin', '      - type: word\n        words: ["<title>Admin"]\n')}    extractors:\n      - type: regex\n        regex: ["Admin (t[0-9]+)"]\n        group: 1\n`,
    ),
    // Two templates sending the same single request: clustered into one exchange.
    template('admin-status', get('/admin', '      - type: status\n        status: [200]\n')),
    template('missing', get('/nope', '      - type: status\n        status: [404]\n')),
    template('never', get('/nope', '      - type: word\n        words: ["never there"]\n')),
    template(
      'self',
      `self-contained: true\nhttp:\n  - method: GET\n    path: ["${base}/self"]\n    matchers:\n      - type: word\n        words: [self-contained]\n`,
    ),
    template('javascript-unsigned', 'javascript:\n  - code: "1"\n'),
  ];
});
afterAll(() => {
  server.close();
  server6.close();
});

// Two host names (the server listens on 127.0.0.1 and ::1), targets on both: a thread gets whole hosts.
const targets = () => [
  ...[0, 1, 2, 3, 4].map((i) => `${base}/t${i}`),
  ...[5, 6, 7, 8].map((i) => `http://[::1]:${v6port}/t${i}`),
];

async function scan(threads: number) {
  const events: ResultEvent[] = [];
  const notices: string[] = [];
  const attempts: string[] = [];
  seen.length = 0;
  const opts = {
    targets: targets(),
    templates,
    rateLimit: 0,
    matcherStatus: true,
    onResult: (ev: ResultEvent) => events.push(ev),
    onNotice: (m: string) => notices.push(m),
    onAttempt: (a: { templateId: string; target: string; matched: boolean }) =>
      attempts.push(`${a.templateId} ${a.target} ${a.matched}`),
  };
  const stats = threads > 1 ? await runScanOnThreads(opts, threads) : await runScan(opts);
  const results = events
    .map((e) => JSON.stringify([e['template-id'], e['matched-at'], e['matcher-status'], e['extracted-results'] ?? []]))
    .sort();
  return { stats, results, notices: notices.sort(), attempts: attempts.sort(), requests: [...seen].sort() };
}

describe('runScanOnThreads', () => {
  it(
    'gives the results, attempts, requests and counts of the same scan on one thread',
    { timeout: 120_000 },
    async () => {
      const one = await scan(1);
      const two = await scan(2);
      expect(one.stats.threads).toBeUndefined();
      expect(two.stats.threads).toBe(2);
      // The single-thread run is the reference: 9 targets, the self-contained template once.
      expect(one.results.filter((r) => r.includes('"admin-title"') && r.includes('true'))).toHaveLength(9);
      expect(one.results.filter((r) => r.startsWith('["self"'))).toHaveLength(1);
      expect(one.requests.filter((u) => u === '/self')).toHaveLength(1);
      expect(two.results).toEqual(one.results);
      expect(two.attempts).toEqual(one.attempts);
      expect(two.requests).toEqual(one.requests);
      expect(two.notices).toEqual(one.notices);
      const counts = (s: typeof one.stats) => {
        const { durationMs: _d, threads: _t, ...rest } = s;
        return rest;
      };
      expect(counts(two.stats)).toEqual(counts(one.stats));
    },
  );

  it('runs on one thread what cannot be split', () => {
    const opts = { targets: targets(), templates, onResult: () => {} };
    expect(singleThreadReason(opts, 2)).toBeUndefined();
    expect(singleThreadReason(opts, 1)).toBe('one thread asked for');
    expect(singleThreadReason({ ...opts, targets: [`${base}/a`, `${base}/b`, `${base}/c`] }, 2)).toBe(
      'its targets are on fewer hosts than threads',
    );
    expect(singleThreadReason({ ...opts, interactsh: { server: 'http://127.0.0.1:1' } }, 2)).toBe('interactsh is used');
  });
});
