// The clustering rules that follow nuclei's more closely than before (runner/cluster.ts), each against a
// counting server on 127.0.0.1, with and without clustering: the shared request goes out once, and every
// template reports exactly what it reports alone.
//  - words or regexes that merely contain `login_1` or "interactsh" do not keep a template out;
//  - one-path requests with different redirect settings share one chain, each template seeing the part of
//    it its own settings would have fetched (none, a few hops, only same-host hops);
//  - stop-at-first-match is per template: the shared request stops when every template is done.
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/engine/runner.ts';
import { clusterTemplates } from '../../../src/engine/runner/cluster.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { httpTemplate as tpl } from '../../helpers/templates.ts';
import { serverPool, type Handler } from '../../helpers/targets.ts';

const pool = serverPool();
afterAll(() => pool.closeAll());

const block = (paths: string[], matcher: string, extra = '') => `  - method: GET
    path: [${paths.map((p) => `"{{BaseURL}}${p}"`).join(', ')}]
${extra}    matchers:
${matcher}`;
const word = (w: string) => `      - type: word\n        words: ["${w}"]\n`;
const groups = (ts: Template[]) => clusterTemplates(ts).map((c) => [c.leader.id, ...c.members.map((m) => m.id)]);

/** Runs the templates with and without clustering on a fresh server each; requests seen and events per template. */
async function both(templates: Template[], handler: (base: () => string) => Handler) {
  const run = async (cluster: boolean) => {
    let url = '';
    const server = await pool.serve(handler(() => url));
    url = server.url;
    const events: string[] = [];
    await runScan({
      targets: [server.url],
      templates,
      rateLimit: 0,
      cluster,
      onResult: (e) => events.push(`${e['template-id']} ${e['matched-at']}`),
    });
    // Matched-at without this run's server address (each run has its own server).
    return { requests: server.requests.map((r) => r.url), events: events.map((e) => e.replace(server.url, '')).sort() };
  };
  return { on: await run(true), off: await run(false) };
}

describe('clustering rules', () => {
  it('clusters templates whose words contain _N names or "interactsh" (only DSL and part count, as in nuclei)', async () => {
    const templates = [
      tpl('plain', block(['/'], word('Welcome'))),
      tpl('form-2', block(['/'], word('system_form_2'))),
      tpl('interactsh-word', block(['/'], word('interactsh'))),
      tpl('dsl-indexed', block(['/'], '      - type: dsl\n        dsl: ["status_code_1 == 200"]\n')),
      tpl(
        'interactsh-part',
        block(['/'], '      - type: word\n        part: interactsh_protocol\n        words: ["dns"]\n'),
      ),
    ];
    expect(groups(templates)).toEqual([['plain', 'form-2', 'interactsh-word'], ['dsl-indexed'], ['interactsh-part']]);
    const { on, off } = await both(
      templates,
      () => (_req, res) => res.end('Welcome <form id=system_form_2> interactsh server'),
    );
    expect(off.requests).toHaveLength(5);
    expect(on.requests).toHaveLength(3);
    expect(on.events).toEqual(off.events);
    expect(on.events.map((e) => e.split(' ')[0])).toEqual(['dsl-indexed', 'form-2', 'interactsh-word', 'plain']);
  });

  it('shares one redirect chain between one-path requests with different redirect settings', async () => {
    // / -> /a -> /b on this server, then -> /c on another port (another host), which answers 200.
    const other = await pool.serve((_req, res) => res.end('page c'));
    const templates = [
      tpl('no-redirects', block(['/'], word('page'))),
      tpl('one-hop', block(['/'], word('page'), '    redirects: true\n    max-redirects: 1\n')),
      tpl('all-hops', block(['/'], word('page'), '    redirects: true\n    max-redirects: 5\n')),
      tpl('same-host', block(['/'], word('page'), '    host-redirects: true\n    max-redirects: 5\n')),
    ];
    expect(groups(templates)).toEqual([['no-redirects', 'one-hop', 'all-hops', 'same-host']]);
    const { on, off } = await both(templates, () => (req, res) => {
      const next = req.url === '/' ? '/a' : req.url === '/a' ? '/b' : `${other.url}/c`;
      res.writeHead(302, { location: next }).end(`page ${req.url}`);
    });
    expect(off.requests.sort()).toEqual(['/', '/', '/', '/', '/a', '/a', '/a', '/b', '/b']);
    expect(on.requests).toEqual(['/', '/a', '/b']); // and /c on the other server
    expect(on.events).toEqual(off.events);
    const seen = (id: string) =>
      on.events.filter((e) => e.startsWith(`${id} `)).map((e) => e.replace(/^\S+ (http:\/\/[^/]+)?/, ''));
    expect(seen('no-redirects')).toEqual(['/']);
    expect(seen('one-hop')).toEqual(['/', '/a']);
    expect(seen('same-host')).toEqual(['/', '/a', '/b']);
    expect(seen('all-hops')).toEqual(['/', '/a', '/b', '/c']);
  });

  it('keeps redirect settings in the key of several-path requests (cookies of a longer chain would reach the next path)', () => {
    const templates = [
      tpl('two-paths', block(['/x', '/y'], word('page'))),
      tpl('two-paths-redirects', block(['/x', '/y'], word('page'), '    redirects: true\n')),
    ];
    expect(groups(templates)).toEqual([['two-paths'], ['two-paths-redirects']]);
  });

  it('stops each template at its own first match and the shared request once every template is done', async () => {
    const templates = [
      tpl('stop-early', block(['/p', '/q', '/r'], word('hit')), 'stop-at-first-match: true\n'),
      tpl('all-paths', block(['/p', '/q', '/r'], word('hit'))),
      tpl('stop-late', block(['/p', '/q', '/r'], word('late'), '    stop-at-first-match: true\n')),
      tpl('both-stop-1', block(['/s', '/t'], word('hit'), '    stop-at-first-match: true\n')),
      tpl('both-stop-2', block(['/s', '/t'], word('hit'), '    stop-at-first-match: true\n')),
    ];
    expect(groups(templates)).toEqual([
      ['stop-early', 'all-paths', 'stop-late'],
      ['both-stop-1', 'both-stop-2'],
    ]);
    const { on, off } = await both(templates, () => (req, res) => res.end(req.url === '/q' ? 'hit late' : 'hit'));
    expect(off.requests.sort()).toEqual(['/p', '/p', '/p', '/q', '/q', '/r', '/s', '/s']);
    expect(on.requests.sort()).toEqual(['/p', '/q', '/r', '/s']);
    expect(on.events).toEqual(off.events);
    expect(on.events.filter((e) => e.startsWith('stop-early '))).toHaveLength(1);
    expect(on.events.filter((e) => e.startsWith('all-paths '))).toHaveLength(3);
    expect(on.events.filter((e) => e.startsWith('stop-late '))).toHaveLength(1);
  });
});
