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
import { startHttpServer, startSocks5, startTcpServer, type Handler, type TestServer } from '../../helpers/targets.ts';

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

const word = (id: string, w: string, extra = '') =>
  tpl(
    id,
    `http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/${id}"\n${extra}    matchers:\n      - type: word\n        words:\n          - "${w}"\n`,
  );

const ALLOWED = [
  'template-id',
  'template-path',
  'info',
  'type',
  'host',
  'matched-at',
  'matcher-name',
  'extractor-name',
  'extracted-results',
  'ip',
  'timestamp',
  'request',
  'response',
  'curl-command',
  'matcher-status',
  'error',
];

describe('runScan', () => {
  it('runs every template on every target and reports attempts, progress and nuclei fields', async () => {
    const a = await serve((q, res) => res.end(q.url === '/t1' ? 'hit' : 'miss'));
    const b = await serve((_q, res) => res.end('miss'));
    const events: ResultEvent[] = [];
    const attempts: { target: string; templateId: string; matched: boolean }[] = [];
    const progress: number[] = [];
    const stats = await runScan({
      targets: [a.url, b.url],
      templates: [word('t1', 'hit'), word('t2', 'hit')],
      rateLimit: 0,
      onResult: (e) => events.push(e),
      onAttempt: (x) => attempts.push(x),
      onProgress: (p) => progress.push(p.done),
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

  it('skips protocols it does not run, and flow, with one notice each', async () => {
    // dns, tcp, ssl, websocket and whois run now; code does not.
    const codeT = tpl('code-only', 'code:\n  - engine: [sh]\n    source: echo 1\n');
    const notices: string[] = [];
    const stats = await runScan({
      targets: ['http://127.0.0.1:1'],
      templates: [codeT],
      // Unsigned code templates are refused before anything else (signature.test.ts); allowed here.
      allowUnsigned: true,
      onResult: () => undefined,
      onNotice: (m) => notices.push(m),
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/code-only.*code protocol/);
    expect(stats.skippedTemplates).toBe(1);
    expect(stats.requests).toBe(0);
  });

  it('applies a secret file to requests, redacts it from results, and honours skip-secret-file', async () => {
    const s = await serve((q, res) => res.end(`auth=${q.headers.authorization ?? 'none'}`));
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-sf-'));
    const file = path.join(dir, 'secrets.yaml');
    writeFileSync(
      file,
      `static:\n  - type: bearertoken\n    domains:\n      - 127.0.0.1:${s.port}\n    token: sup3r-s3cret-token\n`,
    );
    const secrets = await loadSecretFiles([file]);
    const events: ResultEvent[] = [];
    await runScan({
      targets: [s.url],
      rateLimit: 0,
      secrets,
      onResult: (e) => events.push(e),
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
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const templates = Array.from({ length: 10 }, (_, i) => word(`e${i}`, 'x'));
    const attempts: (string | undefined)[] = [];
    const notices: string[] = [];
    const skipped: string[] = [];
    const stats = await runScan({
      targets: [`http://127.0.0.1:${closed}`],
      templates,
      rateLimit: 0,
      retries: 0,
      maxHostErrors: 3,
      concurrency: 1,
      onResult: () => undefined,
      onAttempt: (a) => attempts.push(a.error),
      onNotice: (m) => notices.push(m),
      onHostSkipped: (h) => skipped.push(h),
    });
    expect(stats.requests).toBe(3);
    expect(attempts).toHaveLength(10);
    expect(attempts.filter((e) => e?.includes('skipped'))).toHaveLength(7);
    // Said once for the host, counted in the stats.
    expect(skipped).toEqual([`127.0.0.1:${closed}`]);
    expect(notices.filter((m) => m.startsWith(`skipped host 127.0.0.1:${closed}`))).toHaveLength(1);
    expect(stats.skippedHosts).toBe(1);
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
    const controller = new AbortController();
    // Aborted while the first requests are being answered (each answer takes 200 ms).
    const s = await serve(async (_q, res) => {
      controller.abort();
      await new Promise((r) => setTimeout(r, 200));
      res.end('x');
    });
    const templates = Array.from({ length: 20 }, (_, i) => word(`a${i}`, 'x'));
    const stats = await runScan({
      targets: [s.url],
      templates,
      concurrency: 2,
      rateLimit: 0,
      signal: controller.signal,
      onResult: () => undefined,
    });
    expect(stats.aborted).toBe(true);
    expect(s.requests.length).toBeLessThan(20);
  });
});

describe('executeTemplate', () => {
  it('returns events and every extracted value, internal ones included', async () => {
    const s = await serve((_q, res) => {
      res.setHeader('Set-Cookie', 'session=abc123');
      res.end('token=tok-1 user=admin');
    });
    const t = tpl(
      'login',
      `http:
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
`,
    );
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
      const ok =
        auth.startsWith('Digest ') &&
        f.response === md5(`${ha1}:n0nce:${f.nc}:${f.cnonce}:auth:${md5(`GET:${f.uri}`)}`);
      if (!ok) {
        res.writeHead(401, { 'WWW-Authenticate': 'Digest realm="vigil", qop="auth", nonce="n0nce"' });
        res.end();
        return;
      }
      res.end('digest-ok');
    });
    const t = tpl(
      'digest',
      'http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/secret"\n    digest-username: admin\n    digest-password: pw\n    matchers:\n      - type: word\n        words:\n          - digest-ok\n',
    );
    expect((await executeTemplate(t, s.url)).events).toHaveLength(1);
  });

  it('iterate-all sends one request per extracted value', async () => {
    const s = await serve((q, res) => res.end(q.url === '/' ? 'id=1 id=2 id=3' : `item ${q.url}`));
    const t = tpl(
      'iter',
      `http:
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
`,
    );
    const r = await executeTemplate(t, s.url);
    expect(s.requests.map((x) => x.url)).toEqual(['/', '/item/1', '/item/2', '/item/3']);
    expect(r.events).toHaveLength(3);
  });

  it('unsafe sends the raw bytes as written; read-all reads past Content-Length', async () => {
    let got = '';
    const tcp = await startTcpServer((sock) =>
      sock.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\n')) sock.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokand-the-rest');
      }),
    );
    try {
      const raw = (extra: string) =>
        tpl(
          'unsafe-raw',
          `http:
  - raw:
      - |
        GET /a/../b?x=%zz HTTP/1.1
        Host: {{Hostname}}
        X-Weird:    spaced
        Transfer-Encoding: chunked
    unsafe: true
${extra}    matchers:
      - type: word
        words:
          - and-the-rest
`,
        );
      const target = `http://127.0.0.1:${tcp.port}`;
      expect((await executeTemplate(raw(''), target)).events).toHaveLength(0);
      expect(got).toBe(
        `GET /a/../b?x=%zz HTTP/1.1\r\nHost: 127.0.0.1:${tcp.port}\r\nX-Weird:    spaced\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      got = '';
      expect((await executeTemplate(raw('    read-all: true\n'), target)).events).toHaveLength(1);
    } finally {
      await tcp.close();
    }
  });

  it('disable-cookie keeps the jar out; the default jar sends cookies back', async () => {
    const s = await serve((q, res) => {
      if (q.url === '/set') {
        res.setHeader('Set-Cookie', 'sid=42');
        res.end('set');
        return;
      }
      res.end(`cookie=${q.headers.cookie ?? ''}`);
    });
    const t = (extra: string) =>
      tpl(
        'cookies',
        `http:
  - method: GET
    path:
      - "{{BaseURL}}/set"
      - "{{BaseURL}}/check"
${extra}    matchers:
      - type: word
        words:
          - "cookie=sid=42"
`,
      );
    expect((await executeTemplate(t(''), s.url)).events).toHaveLength(1);
    expect((await executeTemplate(t('    disable-cookie: true\n'), s.url)).events).toHaveLength(0);
  });

  it('host-redirects does not leave the host; max-size cuts the body', async () => {
    const other = await serve((_q, res) => res.end('other host'));
    const s = await serve((q, res) => {
      if (q.url === '/away') {
        res.writeHead(302, { Location: `${other.url.replace('127.0.0.1', 'localhost')}/x` });
        res.end();
        return;
      }
      res.end('a'.repeat(50) + 'TAIL');
    });
    const hr = tpl(
      'hr',
      'http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/away"\n    host-redirects: true\n    matchers:\n      - type: status\n        status:\n          - 302\n',
    );
    expect((await executeTemplate(hr, s.url)).events).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
    const ms = (n: number) =>
      tpl(
        'ms',
        `http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/"\n    max-size: ${n}\n    matchers:\n      - type: word\n        words:\n          - TAIL\n`,
      );
    expect((await executeTemplate(ms(20), s.url)).events).toHaveLength(0);
    expect((await executeTemplate(ms(1000), s.url)).events).toHaveLength(1);
  });

  it('goes through a SOCKS5 proxy when asked', async () => {
    const s = await serve((_q, res) => res.end('via-proxy'));
    const proxy = await startSocks5();
    try {
      const events: ResultEvent[] = [];
      await runScan({
        targets: [s.url],
        templates: [word('socks', 'via-proxy')],
        socks5Proxy: `socks5://127.0.0.1:${proxy.port}`,
        onResult: (e) => events.push(e),
      });
      expect(events).toHaveLength(1);
      expect(proxy.seen).toEqual([`127.0.0.1:${s.port}`]);
    } finally {
      await closeClients();
      await proxy.close();
    }
  });

  it('reports unresolved variables instead of sending', async () => {
    const s = await serve((_q, res) => res.end('x'));
    const t = tpl(
      'unresolved',
      'http:\n  - method: GET\n    path:\n      - "{{BaseURL}}/{{nothing_here}}"\n    matchers:\n      - type: word\n        words:\n          - x\n',
    );
    const attempts: (string | undefined)[] = [];
    await runScan({
      targets: [s.url],
      templates: [t],
      onResult: () => undefined,
      onAttempt: (a) => attempts.push(a.error),
    });
    expect(s.requests).toHaveLength(0);
    expect(attempts[0]).toMatch(/nothing_here/);
  });
});
