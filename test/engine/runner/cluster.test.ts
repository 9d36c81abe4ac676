// Clustering against a real server: templates with the same single request send it once per target,
// each template's operators run on the shared response and report under its own id and attempts;
// anything a template computes for itself (payloads, variables, bodies, ids) keeps it out of a cluster.
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/engine/runner.ts';
import { clusterTemplates } from '../../../src/engine/runner/cluster.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import { httpTemplate as tpl } from '../../helpers/templates.ts';
import { serverPool } from '../../helpers/targets.ts';

const pool = serverPool();
afterAll(() => pool.closeAll());

const get = (path: string, word: string, extra = '') => `  - method: GET
    path: ["{{BaseURL}}${path}"]
${extra}    matchers:
      - type: word
        words: ["${word}"]
`;

describe('request clustering', () => {
  const templates = [
    tpl('apache', get('/', 'Apache')),
    tpl('nginx', get('/', 'nginx')),
    tpl('title', get('/', '<title>')),
    tpl('admin', get('/admin', 'Admin')),
    tpl(
      'with-payload',
      `  - method: GET
    path: ["{{BaseURL}}/"]
    payloads:
      x: [pache]
    matchers:
      - type: word
        words: ["A{{x}}"]
`,
    ),
    tpl('with-vars', get('/', 'Apache'), 'variables:\n  v: "1"\n'),
    tpl('with-id', get('/', 'Apache', '    id: probe\n')),
  ];

  it("groups by nuclei's rules, stricter where a template computes something for itself", () => {
    const groups = clusterTemplates(templates).map((c) => [c.leader.id, ...c.members.map((m) => m.id)]);
    expect(groups).toEqual([['apache', 'nginx', 'title'], ['admin'], ['with-payload'], ['with-vars'], ['with-id']]);
  });

  it('sends the shared request once per target and reports per template', async () => {
    const run = async (cluster: boolean) => {
      const server = await pool.serve((req, res) => {
        res.setHeader('server', 'Apache/2.4');
        res.end(req.url === '/admin' ? 'Admin' : '<title>Apache works</title>');
      });
      const events: ResultEvent[] = [];
      const attempts: string[] = [];
      const stats = await runScan({
        targets: [server.url],
        templates,
        rateLimit: 0,
        cluster,
        onResult: (e) => events.push(e),
        onAttempt: (a) => attempts.push(`${a.templateId}:${a.matched}`),
      });
      return {
        requests: server.requests.length,
        events: events.map((e) => e['template-id']).sort(),
        attempts: attempts.sort(),
        stats,
      };
    };
    const on = await run(true);
    const off = await run(false);
    expect(off.requests).toBe(7);
    expect(on.requests).toBe(5); // apache, nginx and title share one request
    expect(on.events).toEqual(off.events);
    expect(on.events).toEqual(['admin', 'apache', 'title', 'with-id', 'with-payload', 'with-vars']);
    expect(on.attempts).toEqual(off.attempts);
    expect(on.attempts).toContain('nginx:false');
    expect(on.stats).toMatchObject({ total: 7, done: 7, matched: 6 });
  });
});
