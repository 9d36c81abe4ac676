import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/index.ts';
import { closeClients, executeTemplate, runScan } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { loadSecretFiles } from '../../../src/engine/secrets/index.ts';
import { startHttpServer, type Handler, type TestServer } from '../../helpers/targets.ts';

const servers: TestServer[] = [];
async function serve(handler: Handler): Promise<TestServer> {
  const s = await startHttpServer(handler);
  servers.push(s);
  return s;
}
afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
});

function tpl(id: string, body: string): Template {
  const r = parseTemplate(`id: ${id}\ninfo:\n  name: ${id}\n  author: vigil\n  severity: low\n${body}`, `${id}.yaml`);
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

const word = (id: string, w: string, extra = '') => tpl(id, `http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/${id}"\n${extra}    matchers:\n      - type: word\n        words:\n          - "${w}"\n`);

const ALLOWED = ['template-id', 'template-path', 'info', 'type', 'host', 'matched-at', 'matcher-name', 'extractor-name',
  'extracted-results', 'ip', 'timestamp', 'request', 'response', 'curl-command', 'matcher-status', 'error'];

describe('runScan', () => {
  it('runs every template on every target and reports attempts, progress and nuclei fields', async () => {
    const a = await serve((q, res) => res.end(q.url === '/t1' ? 'hit' : 'miss'));
    const b = await serve((_q, res) => res.end('miss'));
    const events: ResultEvent[] = [];
    const attempts: { target: string; templateId: string; matched: boolean }[] = [];
    const progress: number[] = [];
    const stats = await runScan({
      targets: [a.url, b.url], templates: [word('t1', 'hit'), word('t2', 'hit')], rateLimit: 0,
      onResult: (e) => events.push(e), onAttempt: (x) => attempts.push(x), onProgress: (p) => progress.push(p.done),
    });
    expect(events).toHaveLength(1);
    const ev = events[0];
    expect(ev['template-id']).toBe('t1');
    expect(ev.host).toBe(a.url);
    expect(ev['matched-at']).toBe(`${a.url}/t1`);
    expect(ev.ip).toBe('127.0.0.1');
    expect(ev.type).toBe('http');
    expect(ev.info.severity).toBe('low');
    expect(ev.request).toContain('GET /t1 HTTP/1.1');
    expect(ev.response).toContain('hit');
    expect(ev['curl-command']).toContain(`${a.url}/t1`);
    for (const k of Object.keys(ev)) expect(ALLOWED).toContain(k);
    expect(attempts).toHaveLength(4);
    expect(attempts.filter((x) => x.matched)).toEqual([expect.objectContaining({ target: a.url, templateId: 't1' })]);
    expect(progress.sort((x, y) => x - y)).toEqual([1, 2, 3, 4]);
    expect(stats).toMatchObject({ total: 4, done: 4, requests: 4, matched: 1, results: 1 });
  });

  it('skips other protocols and flow with one notice each', async () => {
    const dnsT = tpl('dns-only', 'dns:\n  - name: "{{FQDN}}"\n    type: A\n');
    const notices: string[] = [];
    const stats = await runScan({ targets: ['http://127.0.0.1:1'], templates: [dnsT], onResult: () => undefined, onNotice: (m) => notices.push(m) });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/dns-only.*dns/);
    expect(stats.skippedTemplates).toBe(1);
    expect(stats.requests).toBe(0);
  });

  it('applies a secret file to requests, redacts it from results, and honours skip-secret-file', async () => {
    const s = await serve((q, res) => res.end(`auth=${q.headers.authorization ?? 'none'}`));
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-sf-'));
    const file = path.join(dir, 'secrets.yaml');
    writeFileSync(file, `static:\n  - type: bearertoken\n    domains:\n      - 127.0.0.1:${s.port}\n    token: sup3r-s3cret-token\n`);
    const secrets = await loadSecretFiles([file]);
    const events: ResultEvent[] = [];
    await runScan({
      targets: [s.url], rateLimit: 0, secrets, onResult: (e) => events.push(e),
      templates: [word('with-secret', 'auth=Bearer'), word('skip-secret', 'auth=none', '    skip-secret-file: true\n')],
    });
    expect(events.map((e) => e['template-id']).sort()).toEqual(['skip-secret', 'with-secret']);
    const withSecret = events.find((e) => e['template-id'] === 'with-secret')!;
    expect(s.requests.find((r) => r.url === '/with-secret')?.headers.authorization).toBe('Bearer sup3r-s3cret-token');
    expect(JSON.stringify(withSecret)).not.toContain('sup3r-s3cret-token');
    expect(withSecret.request).toContain('[REDACTED]');
    expect(withSecret.response).toContain('[REDACTED]');
  });

  it('stops sending to a host after max host errors', async () => {
    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer();
      srv.listen(0, '127.0.0.1', () => { const p = (srv.address() as net.AddressInfo).port; srv.close(() => resolve(p)); });
    });
    const templates = Array.from({ length: 10 }, (_, i) => word(`e${i}`, 'x'));
    const attempts: (string | undefined)[] = [];
    const stats = await runScan({
      targets: [`http://127.0.0.1:${closed}`], templates, rateLimit: 0, retries: 0, maxHostErrors: 3, concurrency: 1,
      onResult: () => undefined, onAttempt: (a) => attempts.push(a.error),
    });
    expect(stats.requests).toBe(3);
    expect(attempts).toHaveLength(10);
    expect(attempts.filter((e) => e?.includes('skipped'))).toHaveLength(7);
  });

  it('keeps to the global rate limit', async () => {
    const s = await serve((_q, res) => res.end('x'));
    const templates = Array.from({ length: 8 }, (_, i) => word(`r${i}`, 'x'));
    const started = performance.now();
    await runScan({ targets: [s.url], templates, rateLimit: 4, onResult: () => undefined });
    // Burst of 4, then 4 more at 4/s: about one second.
    expect(performance.now() - started).toBeGreaterThan(800);
  });

  it('stops when aborted', async () => {
    const s = await serve(async (_q, res) => { await new Promise((r) => setTimeout(r, 200)); res.end('x'); });
    const controller = new AbortController();
    const templates = Array.from({ length: 20 }, (_, i) => word(`a${i}`, 'x'));
    setTimeout(() => controller.abort(), 100);
    const stats = await runScan({ targets: [s.url], templates, concurrency: 2, rateLimit: 0, signal: controller.signal, onResult: () => undefined });
    expect(stats.aborted).toBe(true);
    expect(s.requests.length).toBeLessThan(20);
  });
});

describe('executeTemplate', () => {
  it('returns events and every extracted value, internal ones included', async () => {
    const s = await serve((_q, res) => { res.setHeader('Set-Cookie', 'session=abc123'); res.end('token=tok-1 user=admin'); });
    const t = tpl('login', `http:
  - method: GET
    path:
      - "{{BaseURL}}/login"
    extractors:
      - type: regex
        name: token
        internal: true
        group: 1
        regex:
          - "token=([a-z0-9-]+)"
      - type: kval
        name: session
        kval:
          - session
`);
    const r = await executeTemplate(t, s.url);
    expect(r.dynamic.token).toBe('tok-1');
    expect(r.events).toHaveLength(1);
    expect(r.events[0]['extracted-results']).toEqual(['abc123']);
  });
});

describe('http features', () => {
  it('answers a digest challenge', async () => {
    const md5 = (x: string) => createHash('md5').update(x).digest('hex');
    const s = await serve((q, res) => {
      const auth = q.headers.authorization ?? '';
      const f = Object.fromEntries([...auth.matchAll(/(\w+)="?([^",]+)"?/g)].map((m) => [m[1], m[2]]));
      const ha1 = md5('admin:vigil:pw');
      const ok = auth.startsWith('Digest ') && f.response === md5(`${ha1}:n0nce:${f.nc}:${f.cnonce}:auth:${md5(`GET:${f.uri}`)}`);
      if (!ok) { res.writeHead(401, { 'WWW-Authenticate': 'Digest realm="vigil", qop="auth", nonce="n0nce"' }); res.end(); return; }
      res.end('digest-ok');
    });
    const t = tpl('digest', 'http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/secret"\n    digest-username: admin\n    digest-password: pw\n    matchers:\n      - type: word\n        words:\n          - digest-ok\n');
    expect((await executeTemplate(t, s.url)).events).toHaveLength(1);
  });

  it('iterate-all sends one request per extracted value', async () => {
    const s = await serve((q, res) => res.end(q.url === '/' ? 'id=1 id=2 id=3' : `item ${q.url}`));
    const t = tpl('iter', `http:
  - raw:
      - |
        GET / HTTP/1.1
        Host: {{Hostname}}
      - |
        GET /item/{{ids}} HTTP/1.1
        Host: {{Hostname}}
    iterate-all: true
    extractors:
      - type: regex
        name: ids
        internal: true
        group: 1
        regex:
          - "id=(\\\\d)"
    matchers:
      - type: word
        words:
          - "item /item/"
`);
    const r = await executeTemplate(t, s.url);
    expect(s.requests.map((x) => x.url)).toEqual(['/', '/item/1', '/item/2', '/item/3']);
    expect(r.events).toHaveLength(3);
  });

  it('reports unresolved variables instead of sending', async () => {
    const s = await serve((_q, res) => res.end('x'));
    const t = tpl('unresolved', 'http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/{{nothing_here}}"\n    matchers:\n      - type: word\n        words:\n          - x\n');
    const attempts: (string | undefined)[] = [];
    await runScan({ targets: [s.url], templates: [t], onResult: () => undefined, onAttempt: (a) => attempts.push(a.error) });
    expect(s.requests).toHaveLength(0);
    expect(attempts[0]).toMatch(/nothing_here/);
  });
});
