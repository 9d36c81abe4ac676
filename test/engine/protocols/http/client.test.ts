import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClients, send } from '../../../../src/engine/protocols/http/client.ts';
import { ResponseReader } from '../../../../src/engine/protocols/http/response-reader.ts';
import type { PreparedRequest } from '../../../../src/engine/protocols/http/types.ts';
import {
  startHttpServer,
  startHttpsServer,
  startSocks5,
  startTcpServer,
  type TestServer,
} from '../../../helpers/targets.ts';

const opts = { timeout: 3000, retries: 0 };

function req(origin: string, path: string, extra: Partial<PreparedRequest> = {}): PreparedRequest {
  return { method: 'GET', origin, path, headers: [['Host', new URL(origin).host]], unsafe: false, ...extra };
}

describe('HTTP client', () => {
  let plain: TestServer;
  let secure: TestServer;
  beforeAll(async () => {
    plain = await startHttpServer((rq, res, body) => {
      if (rq.url === '/big') {
        res.end('x'.repeat(100_000));
        return;
      }
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Echo', rq.headers['x-test'] ?? '');
      res.end(`${rq.method} ${rq.url} ${body}`);
    });
    secure = await startHttpsServer((rq, res) =>
      res.end(`sni=${(rq.socket as { servername?: string }).servername || ''}`),
    );
  });
  afterAll(async () => {
    await closeClients();
    await plain.close();
    await secure.close();
  });

  it('sends method, path, headers and body through undici and keeps repeated headers', async () => {
    const res = await send(
      req(plain.url, '/a?b=1', {
        method: 'POST',
        headers: [
          ['Host', 'x'],
          ['X-Test', 'yes'],
          ['Content-Length', '2'],
        ],
        body: 'hi',
      }),
      opts,
    );
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('POST /a?b=1 hi');
    expect(res.headers.filter(([k]) => k.toLowerCase() === 'set-cookie').map(([, v]) => v)).toEqual(['a=1', 'b=2']);
    expect(res.headers.find(([k]) => k.toLowerCase() === 'x-echo')?.[1]).toBe('yes');
    expect(plain.requests.at(-1)?.headers.host).toBe('x');
  });

  it('falls back to a raw socket for request targets undici refuses', async () => {
    const res = await send(
      req(plain.url, '/raw', {
        headers: [
          ['Host', 'h'],
          ['Connection', 'x-weird'],
        ],
      }),
      opts,
    );
    expect(plain.requests.at(-1)?.url).toBe('/raw');
    expect(plain.requests.at(-1)?.headers.connection).toBe('x-weird');
    expect(res.status).toBeGreaterThan(0);
  });

  it('sends unsafe bytes exactly as written', async () => {
    let got = '';
    const tcp = await startTcpServer((s) =>
      s.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\n')) s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      }),
    );
    const bytes = 'GET /%%weird/../x HTTP/1.1\r\nHost: whatever\r\nX:  spaced \r\n\r\n';
    const res = await send(req(`http://127.0.0.1:${tcp.port}`, '/', { unsafe: true, rawBytes: bytes }), opts);
    expect(got).toBe(bytes);
    expect(res.body.toString()).toBe('ok');
    await tcp.close();
  });

  it('uses the requested SNI over TLS and accepts self-signed certificates', async () => {
    expect((await send(req(secure.url, '/', { sni: 'test' }), opts)).body.toString()).toBe('sni=test');
    expect(
      (
        await send(
          req(secure.url, '/', { sni: 'test', unsafe: true, rawBytes: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n' }),
          opts,
        )
      ).body.toString(),
    ).toBe('sni=test');
  });

  it('keeps a body cut short by a wrong Content-Length', async () => {
    const tcp = await startTcpServer((s) =>
      s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Length: 50000\r\n\r\nthis is a test')),
    );
    const res = await send(req(`http://127.0.0.1:${tcp.port}`, '/'), opts);
    expect(res.body.toString()).toBe('this is a test');
    expect(res.headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1]).toBe('50000');
    await tcp.close();
  });

  it('stops reading at max-size', async () => {
    const res = await send(req(plain.url, '/big'), opts, 1000);
    expect(res.body.length).toBe(1000);
  });

  it('times out and reports it', async () => {
    const tcp = await startTcpServer(() => undefined);
    await expect(send(req(`http://127.0.0.1:${tcp.port}`, '/'), { timeout: 300, retries: 0 })).rejects.toThrow();
    await tcp.close();
  });

  it('goes through a SOCKS5 proxy, for undici and raw sockets alike', async () => {
    const proxy = await startSocks5();
    const o = { ...opts, socks5Proxy: `socks5://127.0.0.1:${proxy.port}` };
    expect((await send(req(plain.url, '/via'), o)).body.toString()).toBe('GET /via ');
    expect(
      (
        await send(req(plain.url, '/', { unsafe: true, rawBytes: 'GET /raw HTTP/1.1\r\nHost: a\r\n\r\n' }), o)
      ).body.toString(),
    ).toBe('GET /raw ');
    expect(proxy.seen).toEqual([`127.0.0.1:${plain.port}`, `127.0.0.1:${plain.port}`]);
    await proxy.close();
  });
});

// The one response parser (keep-alive client and raw sockets alike).
describe('ResponseReader', () => {
  it('waits for a complete chunked body and decodes it', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(new ResponseReader('GET', 1 << 20).push(Buffer.from(`${head}5\r\nhello\r\n`))).toBeUndefined();
    const r = new ResponseReader('GET', 1 << 20).push(Buffer.from(`${head}5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n`))!;
    expect(r.body.toString()).toBe('hello world');
  });
  it('reads to the end of the connection without a length', () => {
    const reader = new ResponseReader('GET', 1 << 20);
    expect(reader.push(Buffer.from('HTTP/1.0 404 Not Found\r\nA: b\r\n\r\nrest'))).toBeUndefined();
    const r = reader.end()!;
    expect([r.status, r.statusText, r.body.toString()]).toEqual([404, 'Not Found', 'rest']);
  });
  it('accepts a head with bare LF line ends, and reads past Content-Length when asked to (read-all)', () => {
    const lf = new ResponseReader('GET', 1 << 20).push(Buffer.from('HTTP/1.1 200 OK\nContent-Length: 2\nX: y\n\nhi'))!;
    expect([lf.status, lf.headers, lf.body.toString()]).toEqual([
      200,
      [
        ['Content-Length', '2'],
        ['X', 'y'],
      ],
      'hi',
    ]);
    const all = new ResponseReader('GET', 1 << 20, true);
    expect(all.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi and more'))).toBeUndefined();
    expect(all.end()!.body.toString()).toBe('hi and more');
  });
});
