// nuclei's HTTP integration catalogue (../shared/reference/nuclei/http_integration_catalogue.md), every
// row that needs no internet, against real servers on 127.0.0.1 with our own equivalent templates.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/index.ts';
import { closeClients, runScan, type AttemptInfo, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import {
  startHttpServer,
  startHttpsServer,
  startTcpServer,
  type Handler,
  type TestServer,
} from '../../../helpers/targets.ts';
import { localhostCert } from '../../../helpers/certs.ts';

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'testdata');

function load(name: string, replace: [string, string][] = []): Template {
  let text = readFileSync(path.join(dir, name), 'utf8');
  for (const [a, b] of replace) text = text.split(a).join(b);
  const r = parseTemplate(text, path.join(dir, name));
  if (!r.template) throw new Error(`${name}: ${JSON.stringify(r.issues)}`);
  return r.template;
}

async function scan(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 5, onResult: (e) => events.push(e), ...extra });
  return events.filter((e) => e['matcher-status'] || extra.matcherStatus);
}

const servers: TestServer[] = [];
async function serve(handler: Handler, tls = false): Promise<TestServer> {
  const s = tls ? await startHttpsServer(handler) : await startHttpServer(handler);
  servers.push(s);
  return s;
}

afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
});

const text =
  (body: string): Handler =>
  (_q, res) => {
    res.end(body);
  };

describe('http integration catalogue', () => {
  it('get-headers: header sent', async () => {
    const s = await serve((q, res) =>
      res.end(q.headers.test === 'nuclei' ? 'This is test headers matcher text' : 'no'),
    );
    expect(await scan([load('get-headers.yaml')], [s.url])).toHaveLength(1);
  });

  it('get-query-string: query sent', async () => {
    const s = await serve((q, res) =>
      res.end(
        new URL(q.url!, 'http://x').searchParams.get('test') === 'nuclei'
          ? 'This is test querystring matcher text'
          : 'no',
      ),
    );
    expect(await scan([load('get-query-string.yaml')], [s.url])).toHaveLength(1);
  });

  const redirectServer = () =>
    serve((q, res) => {
      if (q.url === '/') {
        res.writeHead(302, { Location: '/redirected' });
        res.end('<a href="/redirected">Found</a>.');
        return;
      }
      res.end('This is test redirects matcher text');
    });

  it('get-redirects: followed', async () => {
    const s = await redirectServer();
    expect(await scan([load('get-redirects.yaml')], [s.url])).toHaveLength(1);
  });

  it('disable-redirects: -dr stops following', async () => {
    const s = await serve((q, res) => {
      if (q.url === '/') {
        res.writeHead(301, { Location: '/redirected' });
        res.end();
        return;
      }
      res.end('This is test redirects matcher text');
    });
    expect(await scan([load('disable-redirects.yaml')], [s.url], { disableRedirects: true })).toHaveLength(0);
    expect(await scan([load('disable-redirects.yaml')], [s.url])).toHaveLength(1);
  });

  it('get-host-redirects: same host only, max 3', async () => {
    const s = await serve((q, res) => {
      const go = (code: number, loc: string) => {
        res.writeHead(code, { Location: loc });
        res.end();
      };
      if (q.url === '/') return go(302, '/redirected1');
      if (q.url === '/redirected1') return go(302, 'redirected2');
      if (q.url === '/redirected2') return go(302, '/redirected3');
      if (q.url === '/redirected3') return go(307, 'https://scanme.sh');
      res.end('unexpected');
    });
    expect(await scan([load('get-host-redirects.yaml')], [s.url])).toHaveLength(1);
    expect(s.requests.map((r) => r.url)).toEqual(['/', '/redirected1', '/redirected2', '/redirected3']);
  });

  it('get and get-case-insensitive (both templates at once)', async () => {
    const s = await serve(text('This is test matcher text'));
    expect(await scan([load('get.yaml')], [s.url])).toHaveLength(1);
    expect(await scan([load('get.yaml'), load('get-case-insensitive.yaml')], [s.url])).toHaveLength(2);
    const upper = await serve(text('THIS IS TEST MATCHER TEXT'));
    expect(await scan([load('get-case-insensitive.yaml')], [upper.url])).toHaveLength(1);
  });

  it('post-body: form body with a fixed Content-Length', async () => {
    const s = await serve((q, res, body) => {
      const p = new URLSearchParams(body);
      res.end(
        q.method === 'POST' && p.get('username') === 'test' && p.get('password') === 'nuclei'
          ? 'This is test post-body matcher text'
          : 'no',
      );
    });
    expect(await scan([load('post-body.yaml')], [s.url])).toHaveLength(1);
  });

  it('post-json-body', async () => {
    const s = await serve((_q, res, body) => {
      const j = JSON.parse(body || '{}');
      res.end(j.username === 'test' && j.password === 'nuclei' ? 'This is test post-json-body matcher text' : 'no');
    });
    expect(await scan([load('post-json-body.yaml')], [s.url])).toHaveLength(1);
  });

  it('post-multipart-body', async () => {
    const s = await serve(async (q, res, body) => {
      const form = await new Request('http://x', {
        method: 'POST',
        headers: { 'content-type': q.headers['content-type']! },
        body,
      }).formData();
      const file = form.get('username') as File | null;
      const ok =
        file &&
        typeof file !== 'string' &&
        file.name === 'username' &&
        (await file.text()) === 'test' &&
        form.get('password') === 'nuclei';
      res.end(ok ? 'This is test post-multipart matcher text' : 'no');
    });
    expect(await scan([load('post-multipart-body.yaml')], [s.url])).toHaveLength(1);
  });

  it('raw-cookie-reuse: cookie jar shared between raw requests', async () => {
    const s = await serve((q, res, body) => {
      if (q.method === 'POST' && new URLSearchParams(body).get('testing') === 'parameter') {
        res.setHeader('Set-Cookie', 'nuclei=test');
        res.end('set');
        return;
      }
      res.end(
        q.method === 'GET' && /(^|;\s*)nuclei=test/.test(q.headers.cookie ?? '')
          ? 'Test is test-cookie-reuse matcher text'
          : 'no',
      );
    });
    expect(await scan([load('raw-cookie-reuse.yaml')], [s.url])).toHaveLength(1);
  });

  it('raw-dynamic-extractor: internal extractor feeds the next request', async () => {
    const s = await serve((q, res, body) => {
      if (q.method === 'POST' && new URLSearchParams(body).get('testing') === 'parameter') {
        res.end("Token: 'nuclei'");
        return;
      }
      res.end(
        new URL(q.url!, 'http://x').searchParams.get('username') === 'nuclei'
          ? 'Test is test-dynamic-extractor-raw matcher text'
          : 'no',
      );
    });
    expect(await scan([load('raw-dynamic-extractor.yaml')], [s.url])).toHaveLength(1);
  });

  it('raw-get-query and raw-get', async () => {
    const s = await serve((q, res) => {
      res.end(
        q.url === '/?test=nuclei'
          ? 'Test is test raw-get-query-matcher text'
          : q.url === '/'
            ? 'Test is test raw-get-matcher text'
            : 'no',
      );
    });
    expect(await scan([load('raw-get-query.yaml')], [s.url])).toHaveLength(1);
    expect(await scan([load('raw-get.yaml')], [s.url])).toHaveLength(1);
  });

  it('raw-with-params and raw-unsafe-with-params: input and raw params each once', async () => {
    const s = await serve((q, res) => {
      const p = new URL(q.url!, 'http://x').searchParams;
      const ok = p.getAll('key1').join() === 'value1' && p.getAll('key2').join() === 'value2';
      res.end(ok ? 'Test is test raw-params-matcher text' : 'no');
    });
    expect(await scan([load('raw-with-params.yaml')], [`${s.url}/?key1=value1`])).toHaveLength(1);
    expect(await scan([load('raw-unsafe-with-params.yaml')], [`${s.url}/?key1=value1`])).toHaveLength(1);
  });

  it('raw-path-trailing-slash: path sent verbatim', async () => {
    const s = await serve(text('ok'));
    await scan([load('raw-path-trailing-slash.yaml')], [s.url]);
    expect(s.requests[0].url).toBe('/test/..;/..;/');
  });

  it('raw-payload: clusterbomb with § markers and a helper on a payload', async () => {
    const s = await serve((q, res) => {
      const p = new URL(q.url!, 'http://x').searchParams;
      const pass = p.get('paramb') ?? '';
      const ok =
        p.get('username') === 'test' &&
        ['nuclei', 'guest'].includes(pass) &&
        q.headers.another_header === Buffer.from(pass).toString('base64');
      res.end(ok ? 'Test is raw-payload matcher text' : 'no');
    });
    expect(await scan([load('raw-payload.yaml')], [s.url])).toHaveLength(2);
  });

  it('raw-post-body', async () => {
    const s = await serve((q, res, body) => {
      const p = new URLSearchParams(body);
      res.end(
        q.method === 'POST' && p.get('username') === 'test' && p.get('password') === 'nuclei'
          ? 'Test is test raw-post-body-matcher text'
          : 'no',
      );
    });
    expect(await scan([load('raw-post-body.yaml')], [s.url])).toHaveLength(1);
  });

  const statusServer = () =>
    serve((q, res) => {
      res.statusCode = q.url === '/200' ? 200 : q.url === '/400' ? 400 : 404;
      res.end();
    });

  it('request-condition and request-condition-new', async () => {
    const s = await statusServer();
    expect(await scan([load('request-condition.yaml')], [s.url])).toHaveLength(1);
    expect(await scan([load('request-condition-new.yaml')], [s.url])).toHaveLength(1);
  });

  it('self-contained templates run without a target', async () => {
    const s = await serve((q, res) => {
      const u = new URL(q.url!, 'http://x');
      const once = (k: string, v: string) => u.searchParams.getAll(k).join() === v;
      if (u.searchParams.has('something') && !(once('something', 'here') && once('key', 'value'))) {
        res.end('no');
        return;
      }
      res.end('This is self-contained response');
    });
    const swap: [string, string][] = [['127.0.0.1:5431', `127.0.0.1:${s.port}`]];
    for (const name of ['self-contained.yaml', 'self-contained-with-path.yaml', 'self-contained-with-params.yaml']) {
      expect(await scan([load(name, swap)], []), name).toHaveLength(1);
    }
    expect(s.requests.map((r) => r.headers.host)).toEqual([
      `127.0.0.1:${s.port}`,
      `127.0.0.1:${s.port}`,
      `127.0.0.1:${s.port}`,
    ]);
  });

  it('self-contained-file-input: -V with a file becomes a payload for both blocks', async () => {
    const s = await serve((q, res) =>
      res.end(['/one', '/two'].includes(q.url!) ? 'This is self-contained response' : 'no'),
    );
    const tmp = mkdtempSync(path.join(tmpdir(), 'vigil-'));
    writeFileSync(path.join(tmp, 'list.txt'), 'one\ntwo\n');
    const events = await scan(
      [load('self-contained-file-input.yaml', [['127.0.0.1:5431', `127.0.0.1:${s.port}`]])],
      [],
      { vars: { test: path.join(tmp, 'list.txt') }, varFiles: true },
    );
    expect(events).toHaveLength(4);
    expect(s.requests.map((r) => r.url)).toEqual(['/one', '/two', '/one', '/two']);
  });

  it('get-redirects-chain-headers: operators run on every response of the chain', async () => {
    const s = await serve((q, res) => {
      if (q.url === '/') {
        res.writeHead(302, { Location: '/redirected' });
        res.end();
        return;
      }
      if (q.url === '/redirected') {
        res.writeHead(302, { Location: '/final', Secret: 'TestRedirectHeaderMatch' });
        res.end();
        return;
      }
      res.end('ok');
    });
    const events = await scan([load('get-redirects-chain-headers.yaml')], [s.url]);
    expect(events).toHaveLength(1);
    expect(events[0]['matched-at']).toBe(`${s.url}/redirected`);
  });

  it('dsl-matcher-variable: one result per payload value', async () => {
    const s = await serve(text('This is test matcher text'));
    expect(await scan([load('dsl-matcher-variable.yaml')], [s.url])).toHaveLength(5);
  });

  it('race-simple: 10 results', async () => {
    const s = await serve(text(''));
    expect(await scan([load('race-simple.yaml')], [s.url])).toHaveLength(10);
    expect(s.requests).toHaveLength(10);
  });

  it('race-multiple: 5 results', async () => {
    const s = await serve(text(''));
    expect(await scan([load('race-multiple.yaml')], [s.url])).toHaveLength(5);
  });

  it('race-condition-with-delay: threads bound the race', async () => {
    const s = await serve(async (_q, res) => {
      await new Promise((r) => setTimeout(r, 2000));
      res.end('x');
    });
    expect(await scan([load('race-condition-with-delay.yaml')], [s.url])).toHaveLength(3);
    const at = s.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(at[1] - at[0]).toBeLessThan(500);
    expect(at[2] - at[0]).toBeGreaterThanOrEqual(1500);
  });

  it('race-with-variables: variables and constants resolved', async () => {
    const s = await serve((q, res) => res.end(String(q.headers['x-api-key'] ?? '')));
    expect(await scan([load('race-with-variables.yaml')], [s.url])).toHaveLength(3);
    expect(s.requests.every((r) => /^[A-Za-z0-9]{8}$/.test(String(r.headers['x-request-id'])))).toBe(true);
  });

  it('stop-at-first-match, and extractors do not stop', async () => {
    const s = await serve(text('This is test'));
    expect(await scan([load('stop-at-first-match.yaml')], [s.url])).toHaveLength(1);
    expect(await scan([load('stop-at-first-match-with-extractors.yaml')], [s.url])).toHaveLength(2);
  });

  it('variables: built-ins, nested helpers, payloads; -var overrides', async () => {
    const s = await serve((q, res) => res.end(`${q.headers.test}\n${q.headers.another}\n${q.headers.email}`));
    expect(await scan([load('variables.yaml')], [s.url])).toHaveLength(1);
    expect(await scan([load('variables.yaml')], [s.url], { vars: { a1: 'failed' } })).toHaveLength(0);
  });

  it('variables-threads-previous: variables see values extracted earlier', async () => {
    const s = await serve((q, res) =>
      res.end(q.url === '/login' ? 'token=secret123' : String(q.headers.authorization ?? '')),
    );
    expect(await scan([load('variables-threads-previous.yaml')], [s.url])).toHaveLength(1);
  });

  const sniServer = () =>
    serve(
      (q, res) => res.end((q.socket as { servername?: string }).servername === 'test' ? 'test-ok' : 'test-ko'),
      true,
    );

  it('get-override-sni: @tls-sni: request.host', async () => {
    const s = await sniServer();
    expect(await scan([load('get-override-sni.yaml')], [s.url])).toHaveLength(1);
  });

  it('get-sni and get-sni-unsafe: SNI from the options', async () => {
    const s = await sniServer();
    expect(await scan([load('get-sni.yaml')], [s.url], { sni: 'test' })).toHaveLength(1);
    expect(await scan([load('get-sni-unsafe.yaml')], [s.url], { sni: 'test' })).toHaveLength(1);
    expect(await scan([load('get-sni.yaml')], [s.url])).toHaveLength(0);
  });

  it('redirect-match-url: matched-at is the final URL', async () => {
    const s = await serve((q, res) => {
      if (q.url === '/') {
        res.writeHead(302, { Location: '/redirected' });
        res.end('This is test redirects matcher text');
        return;
      }
      res.end('This is test redirects matcher text');
    });
    const events = await scan([load('redirect-match-url.yaml')], [s.url]);
    expect(events.map((e) => e['matched-at'])).toEqual([`${s.url}/redirected`]);
  });

  it('annotation-timeout: @timeout beats the global timeout', async () => {
    const s = await serve(async (_q, res) => {
      await new Promise((r) => setTimeout(r, 2500));
      res.end('This is test matcher text');
    }, true);
    expect(await scan([load('annotation-timeout.yaml')], [s.url], { timeout: 1, retries: 0 })).toHaveLength(1);
    expect(await scan([load('get.yaml')], [s.url], { timeout: 1, retries: 0 })).toHaveLength(0);
  });

  it('custom-attack-type: the option overrides pitchfork', async () => {
    const s = await serve(text('This is test custom payload'), true);
    await scan([load('custom-attack-type.yaml')], [s.url], { attackType: 'clusterbomb' });
    expect(s.requests).toHaveLength(4);
  });

  it('cl-body-without-header and cl-body-with-header', async () => {
    const s = await serve(text('this is a test'), true);
    expect(await scan([load('cl-body-without-header.yaml')], [s.url])).toHaveLength(1);
    const tcp = await startTcpServer((sock) =>
      sock.once('data', () => sock.end('HTTP/1.1 200 OK\r\nContent-Length: 50000\r\n\r\nthis is a test')),
    );
    try {
      expect(
        await scan([load('cl-body-with-header.yaml')], [`http://127.0.0.1:${tcp.port}`], { retries: 0 }),
      ).toHaveLength(1);
    } finally {
      await tcp.close();
    }
  });

  it('cli-with-constants: constants win over --var', async () => {
    const s = await serve((q, res) => res.end(new URL(q.url!, 'http://x').searchParams.get('p') ?? ''), true);
    expect(await scan([load('cli-with-constants.yaml')], [s.url], { vars: { test: 'fromcli' } })).toHaveLength(1);
  });

  it('constants-with-threads', async () => {
    const s = await serve((q, res) => res.end(`${q.headers['x-api-key']} ${q.url?.split('/').pop()}`));
    expect(await scan([load('constants-with-threads.yaml')], [s.url])).toHaveLength(1);
  });

  it('matcher-status: a failure event when nothing matched', async () => {
    const s = await serve((q, res) => {
      res.statusCode = q.url === '/200' ? 200 : 404;
      res.end();
    });
    const events = await scan([load('matcher-status.yaml')], [s.url], { matcherStatus: true });
    expect(events).toHaveLength(1);
    expect(events[0]['matcher-status']).toBe(false);
  });

  it('disable-path-automerge: raw paths as written', async () => {
    const s = await serve((q, res) => {
      const u = new URL(q.url!, 'http://x');
      if (u.pathname === '/api/v1/test') {
        res.end(u.searchParams.get('id') ?? '');
        return;
      }
      if (u.pathname === '/') {
        res.end('empty path in raw request');
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    expect(await scan([load('disable-path-automerge.yaml')], [`${s.url}/api/v1/user`])).toHaveLength(2);
  });

  it('http-preprocessor: {{randstr}} is a long random id', async () => {
    const s = await serve((q, res) => {
      res.statusCode = /[A-Za-z0-9]{25,}/.test(q.url!) ? 200 : 400;
      res.end();
    });
    expect(await scan([load('http-preprocessor.yaml')], [s.url])).toHaveLength(1);
  });

  it('multi-request: body_1 and body_2', async () => {
    const s = await serve((q, res) => res.end(q.url === '/ping' ? 'ping' : q.url === '/pong' ? 'pong' : ''));
    expect(await scan([load('multi-request.yaml')], [s.url])).toHaveLength(1);
  });

  it('http-matcher-extractor-dy-extractor', async () => {
    const s = await serve((q, res) =>
      res.end(q.url === '/domains' ? '<html><title>Domains</title></html>' : '<a href="/domains">x</a>'),
    );
    const events = await scan([load('http-matcher-extractor-dy-extractor.yaml')], [s.url]);
    expect(events).toHaveLength(1);
    expect(events[0]['extracted-results']).toEqual(['Domains']);
  });

  it('response-data-literal-reuse: extracted text is data, not an expression', async () => {
    const literal = '{{md5("Hello")}}';
    const s = await serve((q, res) => {
      const u = new URL(q.url!, 'http://x');
      if (u.pathname === '/echo') {
        res.end(u.searchParams.get('x') === literal ? 'literal-ok' : `got ${u.searchParams.get('x')}`);
        return;
      }
      res.end(`value=${literal}`);
    });
    expect(await scan([load('response-data-literal-reuse.yaml')], [s.url])).toHaveLength(1);
  });

  // nuclei's dsl-functions.yaml makes 88 helper calls and expects 88 values. Ours makes 87 of them:
  // - 16 generate_java_gadget: gadget generators are unsupported in Vigil and fail with a clear error
  //   (tested below with dsl-functions-unsupported.yaml).
  // jarm (88) needs a TLS server; nuclei's targets scanme.sh, ours a local one in a child process, because
  // the DSL runs jarm in a child process while this (vitest) process waits synchronously.
  describe('dsl-functions', () => {
    let tlsServer: ChildProcess | undefined;
    let jarmTarget = '';
    beforeAll(async () => {
      const { key, cert } = localhostCert();
      const script =
        "const s=require('node:tls').createServer({key:process.env.KEY,cert:process.env.CERT},(c)=>c.end());" +
        "s.listen(0,'127.0.0.1',()=>console.log(s.address().port));";
      tlsServer = spawn(process.execPath, ['-e', script], {
        env: { ...process.env, KEY: key, CERT: cert },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const port = await new Promise<number>((resolve) =>
        tlsServer!.stdout!.once('data', (d) => resolve(Number(String(d).trim()))),
      );
      jarmTarget = `127.0.0.1:${port}`;
    });
    afterAll(() => {
      tlsServer?.kill();
    });

    // Like nuclei's test server (httputil.DumpRequest with the body): the request's headers, then its body.
    // base64_py ends its value with a newline, so the raw request's headers stop after line 04 and the
    // remaining lines travel as the body, in nuclei as here.
    const echo: Handler = (q, res, body) => {
      const lines: string[] = [];
      for (let i = 0; i < q.rawHeaders.length; i += 2) lines.push(`${q.rawHeaders[i]}: ${q.rawHeaders[i + 1]}`);
      res.end(`${lines.join('\n')}\n\n${body}`);
    };

    it('one result carrying every helper value', async () => {
      const s = await serve(echo);
      const started = Date.now();
      const events = await scan([load('dsl-functions.yaml')], [s.url], { vars: { jarm_target: jarmTarget } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // wait_for(1)
      expect(events).toHaveLength(1);
      expect(events[0]['extractor-name']).toBe('results');
      const values = events[0]['extracted-results']!;
      expect(values).toHaveLength(87);
      for (const v of values) expect(v).toMatch(/^\d\d: [^\t\n\f\r ]+$/); // RE2's \s
      const byNo = Object.fromEntries(values.map((v) => [v.slice(0, 2), v.slice(4)]));
      const expected = Array.from({ length: 88 }, (_, i) => String(i + 1).padStart(2, '0')).filter((n) => n !== '16');
      expect(Object.keys(byNo).sort()).toEqual(expected);
      expect(byNo['01']).toBe('SGVsbG8=');
      expect(byNo['04']).toBe('SGVsbG8=');
      expect(byNo['29']).toBe('8b1a9953c4611296a827abf8c47804d7');
      expect(byNo['32']).toBe('true'); // print_debug
      expect(byNo['72']).toBe('true'); // wait_for
      // As in govaluate, a backslash in a string literal keeps the next character: "Hi\\nHello" is "HinHello".
      expect(byNo['78']).toBe('false');
      expect(byNo['79']).toBe('false');
      expect(byNo['82']).toBe('1'); // "1 2 3 4 a b c d", cut at the first space by the regex
      expect(byNo['85']).toBe('[ab');
      expect(byNo['87']).toBe('127.0.256');
      expect(byNo['88']).toMatch(/^[0-9a-f]{62}$/);
      expect(byNo['88']).not.toBe('0'.repeat(62));
    }, 90000);

    it('the Java gadget call fails clearly and sends nothing', async () => {
      const s = await serve(echo);
      const attempts: AttemptInfo[] = [];
      const events = await scan([load('dsl-functions-unsupported.yaml')], [s.url], {
        onAttempt: (a) => attempts.push(a),
      });
      expect(events).toHaveLength(0);
      expect(s.requests).toHaveLength(0);
      expect(attempts.map((a) => a.error)).toEqual([expect.stringMatching(/^unsupported: generate_java_gadget/)]);
    });
  });

  it('matcher-status-and with a second template: failures for both', async () => {
    const s = await serve(text('ok'));
    const events = await scan([load('matcher-status-and.yaml'), load('matcher-status-and-cluster.yaml')], [s.url], {
      matcherStatus: true,
    });
    expect(events.map((e) => [e['template-id'], e['matcher-status']]).sort()).toEqual([
      ['matcher-status-and', false],
      ['matcher-status-and-cluster', false],
    ]);
  });
});
