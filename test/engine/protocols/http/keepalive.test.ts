// The keep-alive HTTP/1.1 client against real sockets on 127.0.0.1 that answer with the framings and
// failures a scanned host can produce: responses split byte by byte, chunked bodies with extensions and
// trailers, close-delimited bodies, 1xx before the answer, bodies past max-size, a deadline in the
// middle of a body, and a server that closes idle keep-alive connections.
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeKeepAlive, sendKeepAlive } from '../../../../src/engine/protocols/http/keepalive.ts';
import type { PreparedRequest } from '../../../../src/engine/protocols/http/types.ts';
import { waitFor } from '../../../helpers/wait.ts';

interface RawServer {
  url: string;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

/** A TCP server that answers each complete request head with whatever `answer` writes on the socket. */
async function rawServer(answer: (socket: net.Socket, request: string, n: number) => void): Promise<RawServer> {
  const state = { connections: 0, requests: [] as string[] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end; (end = buf.indexOf('\r\n\r\n')) >= 0;) {
        const head = buf.slice(0, end + 4);
        const len = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        const request = buf.slice(0, end + 4 + len);
        buf = buf.slice(end + 4 + len);
        state.requests.push(request);
        answer(socket, request, state.requests.length);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

function get(origin: string, path = '/', extra: Partial<PreparedRequest> = {}): PreparedRequest {
  return { method: 'GET', origin, path, headers: [['Host', new URL(origin).host]], unsafe: false, ...extra };
}

const opts = { maxSize: 1024 * 1024, deadline: 2000 };
const servers: RawServer[] = [];
async function serve(answer: Parameters<typeof rawServer>[0]): Promise<RawServer> {
  const s = await rawServer(answer);
  servers.push(s);
  return s;
}

afterEach(() => closeKeepAlive());
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('keep-alive HTTP/1.1 client', () => {
  it('reads a response written one byte at a time and reuses the connection', async () => {
    const s = await serve((socket, _rq, n) => {
      const bytes = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-N: ${n}\r\n\r\nhello`);
      let i = 0;
      const drip = () => {
        if (i < bytes.length) {
          socket.write(bytes.subarray(i, ++i));
          setImmediate(drip);
        }
      };
      drip();
    });
    const a = await sendKeepAlive(get(s.url, '/a'), opts);
    const b = await sendKeepAlive(get(s.url, '/b'), opts);
    expect([a.status, a.body.toString(), a.headers]).toEqual([
      200,
      'hello',
      [
        ['Content-Length', '5'],
        ['X-N', '1'],
      ],
    ]);
    expect(b.headers[1]).toEqual(['X-N', '2']);
    expect(s.connections).toBe(1);
    expect(s.requests[0]).toBe(`GET /a HTTP/1.1\r\nHost: ${new URL(s.url).host}\r\n\r\n`);
  });

  it('decodes chunked bodies with extensions and trailers, split across writes', async () => {
    const s = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWi');
      setTimeout(() => socket.write('ki\r'), 5);
      setTimeout(() => socket.write('\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n'), 10);
    });
    const r = await sendKeepAlive(get(s.url), opts);
    expect(r.body.toString()).toBe('Wikipedia');
    expect(r.reusable).toBe(true);
  });

  it('reads a body without length until the connection closes, and does not reuse it', async () => {
    const s = await serve((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n\r\nuntil ');
      setTimeout(() => socket.end('close'), 10);
    });
    const r = await sendKeepAlive(get(s.url), opts);
    expect([r.body.toString(), r.reusable]).toEqual(['until close', false]);
    await sendKeepAlive(get(s.url), opts);
    expect(s.connections).toBe(2);
  });

  it('skips 1xx answers, reads no body for HEAD, 204 and 304', async () => {
    const s = await serve((socket, rq) => {
      if (rq.startsWith('POST'))
        socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok');
      else if (rq.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      else socket.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n');
    });
    const post = await sendKeepAlive(get(s.url, '/', { method: 'POST', body: 'x=1' }), opts);
    const head = await sendKeepAlive(get(s.url, '/', { method: 'HEAD' }), opts);
    const notModified = await sendKeepAlive(get(s.url), opts);
    expect([post.status, post.body.toString()]).toEqual([201, 'ok']);
    expect([head.status, head.body.length, notModified.status, notModified.body.length]).toEqual([200, 0, 304, 0]);
    expect(s.requests[0]).toContain('content-length: 3\r\n\r\nx=1');
    expect(s.connections).toBe(1);
  });

  it('stops reading at max-size and keeps what arrived', async () => {
    const s = await serve((socket) =>
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n${'y'.repeat(100_000)}`),
    );
    const r = await sendKeepAlive(get(s.url), { ...opts, maxSize: 1000 });
    expect([r.body.length, r.truncated, r.reusable]).toEqual([1000, true, false]);
  });

  it('keeps a partial body when the deadline passes after the head, and fails before it', async () => {
    const slowBody = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial'));
    const r = await sendKeepAlive(get(slowBody.url), { ...opts, deadline: 200 });
    expect([r.status, r.body.toString()]).toEqual([200, 'partial']);
    const silent = await serve(() => undefined);
    await expect(sendKeepAlive(get(silent.url), { ...opts, deadline: 200 })).rejects.toThrow(/timeout/);
  });

  it('sends again on a new connection when the server closed the idle one', async () => {
    const s = await serve((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    // The server answers with keep-alive framing but closes; the client learns it only on reuse.
    for (let i = 0; i < 3; i++) expect((await sendKeepAlive(get(s.url), opts)).body.toString()).toBe('ok');
    expect(s.connections).toBe(3);
  });

  it('refuses a malformed status line and reports a refused connection', async () => {
    const s = await serve((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n'));
    await expect(sendKeepAlive(get(s.url), opts)).rejects.toThrow(/malformed HTTP response status line/);
    const closed = await serve(() => undefined);
    await closed.close();
    await expect(sendKeepAlive(get(closed.url), opts)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('reads status lines and header values as written, whatever their spacing and case', async () => {
    const answers = [
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 201  Two  spaces \r\nX-Pad:  \t padded value\t \r\nX-Empty:\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.0 200 Old\r\nContent-Length: 1\r\n\r\nx',
      'HTTP/1.1 2000 Four digits\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTRANSFER-ENCODING: Chunked\r\nCONNECTION: Close\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-length: 3\r\nContent-ENCODING: GZIP\r\n\r\nabc',
    ];
    const s = await serve((socket, _rq, n) => socket.write(answers[n - 1]!));
    const seen = [];
    for (let i = 0; i < answers.length; i++) {
      const r = await sendKeepAlive(get(s.url, `/${i}`), opts);
      seen.push([r.version, r.status, r.statusText, r.headers, r.body.toString('latin1'), r.reusable, r.encoding]);
    }
    expect(seen).toEqual([
      ['HTTP/1.1', 200, 'OK', [['Content-Length', '2']], 'ok', true, undefined],
      ['HTTP/1.1', 404, '', [['Content-Length', '0']], '', true, undefined],
      [
        'HTTP/1.1',
        201,
        ' Two  spaces ',
        [
          ['X-Pad', 'padded value'],
          ['X-Empty', ''],
          ['Content-Length', '0'],
        ],
        '',
        true,
        undefined,
      ],
      ['HTTP/1.0', 200, 'Old', [['Content-Length', '1']], 'x', false, undefined],
      ['HTTP/1.1', 200, '0 Four digits', [['Content-Length', '0']], '', true, undefined],
      [
        'HTTP/1.1',
        200,
        'OK',
        [
          ['TRANSFER-ENCODING', 'Chunked'],
          ['CONNECTION', 'Close'],
        ],
        'hi',
        false,
        undefined,
      ],
      [
        'HTTP/1.1',
        200,
        'OK',
        [
          ['Content-length', '3'],
          ['Content-ENCODING', 'GZIP'],
        ],
        'abc',
        true,
        'gzip',
      ],
    ]);
    // A lone CR in the reason is no status line.
    const bad = await serve((socket) => socket.write('HTTP/1.1 200 O\rK\r\nContent-Length: 0\r\n\r\n'));
    await expect(sendKeepAlive(get(bad.url), opts)).rejects.toThrow(/malformed HTTP response status line/);
  });

  it('writes each request with its own headers, when requests in turn share them, change them or change in place', async () => {
    const s = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    const host = new URL(s.url).host;
    const shared: [string, string][] = [
      ['Host', host],
      ['X-A', '1'],
    ];
    await sendKeepAlive({ ...get(s.url, '/1'), headers: shared }, opts);
    await sendKeepAlive({ ...get(s.url, '/2'), headers: shared }, opts);
    shared[1] = ['X-A', '2']; // the same array, changed in place (as digest auth or a redirect would)
    await sendKeepAlive({ ...get(s.url, '/3'), headers: shared }, opts);
    await sendKeepAlive({ ...get(s.url, '/4'), method: 'POST', headers: shared }, opts);
    await sendKeepAlive({ ...get(s.url, '/5'), method: 'POST', headers: shared, body: 'abc' }, opts);
    await sendKeepAlive({ ...get(s.url, '/6'), headers: [['Host', host]] }, opts);
    await sendKeepAlive(
      {
        ...get(s.url, '/7'),
        headers: [
          ['Host', host],
          ['Connection', 'keep-alive'],
        ],
      },
      opts,
    );
    expect(s.requests).toEqual([
      `GET /1 HTTP/1.1\r\nHost: ${host}\r\nX-A: 1\r\n\r\n`,
      `GET /2 HTTP/1.1\r\nHost: ${host}\r\nX-A: 1\r\n\r\n`,
      `GET /3 HTTP/1.1\r\nHost: ${host}\r\nX-A: 2\r\n\r\n`,
      `POST /4 HTTP/1.1\r\nHost: ${host}\r\nX-A: 2\r\ncontent-length: 0\r\n\r\n`,
      `POST /5 HTTP/1.1\r\nHost: ${host}\r\nX-A: 2\r\ncontent-length: 3\r\n\r\nabc`,
      `GET /6 HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      `GET /7 HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`,
    ]);
  });

  it("keeps one connection to Node's HTTP server for requests in turn, without asking for keep-alive", async () => {
    let connections = 0;
    const server = http.createServer((q, res) => res.end(`${q.headers.connection ?? 'none'} ${q.url}`));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      const bodies = [];
      for (const p of ['/a', '/b', '/c']) bodies.push((await sendKeepAlive(get(origin, p), opts)).body.toString());
      expect(bodies).toEqual(['none /a', 'none /b', 'none /c']);
      expect(connections).toBe(1);
    } finally {
      closeKeepAlive();
      await new Promise((r) => server.close(r));
    }
  });

  it('holds at most 64 connections to one origin and queues the rest', async () => {
    const s = await serve((socket) => {
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 5);
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, async () => (await sendKeepAlive(get(s.url), opts)).status),
    );
    expect(results.every((x) => x === 200)).toBe(true);
    expect(s.connections).toBe(64);
    expect(s.requests.length).toBe(200);
  });

  it('times out each exchange at its own deadline, whatever the others in flight', async () => {
    const silent = await serve(() => undefined);
    const quick = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    const t0 = performance.now();
    const when = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: Error) => `${e.message.slice(0, 7)} ${Math.round((performance.now() - t0) / 100)}`,
      );
    // One timer watches every deadline: a long one armed first must not delay a short one after it.
    const long = when(sendKeepAlive(get(silent.url, '/long'), { ...opts, deadline: 900 }));
    const short = when(sendKeepAlive(get(silent.url, '/short'), { ...opts, deadline: 200 }));
    const answered = when(sendKeepAlive(get(quick.url), { ...opts, deadline: 200 }));
    expect(await Promise.all([short, answered, long])).toEqual(['timeout 2', 'answered', 'timeout 9']);
  });

  it('fails every exchange of an aborted signal at once, and only those', async () => {
    const silent = await serve(() => undefined);
    const controller = new AbortController();
    const signal = controller.signal;
    const aborted = [1, 2, 3].map((i) =>
      sendKeepAlive(get(silent.url, `/${i}`), { ...opts, deadline: 5000, signal }).catch((e: Error) => e.message),
    );
    const other = sendKeepAlive(get(silent.url, '/other'), { ...opts, deadline: 400 }).catch((e: Error) => e.message);
    await waitFor(async () => silent.requests.length === 4, 5000, 5); // all four are in flight
    const t0 = performance.now();
    controller.abort();
    expect(await Promise.all(aborted)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(await other).toMatch(/timeout/);
    await expect(sendKeepAlive(get(silent.url), { ...opts, signal })).rejects.toThrow('aborted');
  });

  it('never keeps a process alive with an idle connection', async () => {
    const s = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    // A child process sends one request and returns; it must exit at once, not after the idle timeout.
    const client = new URL('../../../../src/engine/protocols/http/keepalive.ts', import.meta.url).pathname;
    const code = `import { sendKeepAlive } from ${JSON.stringify(client)};
      const r = await sendKeepAlive({ method: 'GET', origin: ${JSON.stringify(s.url)}, path: '/', headers: [], unsafe: false }, { maxSize: 1000, deadline: 5000 });
      console.log(r.status, r.reusable);`;
    const { execFile } = await import('node:child_process');
    const t0 = performance.now();
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', code],
        { encoding: 'utf8', timeout: 8000 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      );
    });
    expect(out.trim()).toBe('200 true');
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
