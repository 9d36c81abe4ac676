// The engine's trace hook (ExecuteTemplateOptions.trace) against a real server on 127.0.0.1: every
// request is reported with its response, redirect hops one by one, each matcher's own outcome, every
// extractor's values; a send that fails is reported with its error; without the hook the run is the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClients, executeTemplate, type TraceStep } from '../../../src/engine/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { tpl } from '../../helpers/templates.ts';

let site: TestServer;
beforeAll(async () => {
  site = await startHttpServer((req, res) => {
    if (req.url === '/start') {
      res.statusCode = 302;
      res.setHeader('location', '/end');
      return res.end('moving');
    }
    if (req.url === '/end') return res.end('ARRIVED id=77');
    res.statusCode = 404;
    res.end();
  });
});
afterAll(async () => {
  await closeClients();
  await site?.close();
});

const T = tpl(`id: hops
info: {name: hops, author: v, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/start"]
    redirects: true
    matchers-condition: or
    matchers:
      - type: word
        name: arrived
        words: [ARRIVED]
      - type: status
        name: moved
        status: [302]
    extractors:
      - type: regex
        name: id
        group: 1
        regex: ["id=([0-9]+)"]
`);

describe('the trace hook', () => {
  it('reports each redirect hop with its response and operators', async () => {
    const steps: TraceStep[] = [];
    const r = await executeTemplate(T, site.url, { trace: (s) => steps.push(s) });
    expect(r.events.length).toBeGreaterThan(0);
    const urls = steps.map((s) => s.request.url).sort();
    expect(urls).toEqual([`${site.url}/end`, `${site.url}/start`]);
    const end = steps.find((s) => s.request.url.endsWith('/end'))!;
    expect(end.response?.status).toBe(200);
    expect(end.response?.body).toBe('ARRIVED id=77');
    expect(end.matched).toBe(true);
    expect(end.matchers.map((m) => [m.name, m.matched])).toEqual([
      ['arrived', true],
      ['moved', false],
    ]);
    expect(end.extractors).toEqual([{ index: 0, name: 'id', type: 'regex', values: ['77'] }]);
    const start = steps.find((s) => s.request.url.endsWith('/start'))!;
    expect(start.response?.status).toBe(302);
  });

  it('reports a failed send with its error and no response', async () => {
    const gone = await startHttpServer((_q, res) => res.end());
    const url = gone.url;
    await gone.close();
    const steps: TraceStep[] = [];
    await executeTemplate(T, url, { trace: (s) => steps.push(s), retries: 0 });
    expect(steps).toHaveLength(1);
    expect(steps[0]!.response).toBeUndefined();
    expect(steps[0]!.error).toBeTruthy();
    expect(steps[0]!.matchers).toEqual([]);
  });

  it('the same events without the hook', async () => {
    const a = await executeTemplate(T, site.url);
    const b = await executeTemplate(T, site.url, { trace: () => {} });
    const strip = (evs: typeof a.events) => evs.map((e) => ({ ...e, timestamp: '' }));
    expect(strip(b.events)).toEqual(strip(a.events));
  });
});
