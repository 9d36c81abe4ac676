// Real scan targets for tests: HTTP / HTTPS / raw TCP servers bound to 127.0.0.1 on a free port.
// HTTPS servers show certs.ts's localhost certificate unless the test gives one.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { localhostCert, type Pem } from './certs.ts';

export interface TestServer {
  url: string;
  port: number;
  /** Every request the server saw, in arrival order (method, url, headers, body). */
  requests: SeenRequest[];
  /** The node server itself (e.g. to change an HTTPS server's certificate with setSecureContext). */
  server: net.Server;
  close(): Promise<void>;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  servername?: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown;

function wrap(handler: Handler, requests: SeenRequest[]) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const servername = (req.socket as { servername?: string }).servername;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        at: Date.now(),
        servername: servername || undefined,
      });
      try {
        await handler(req, res, body);
      } catch (err) {
        if (!res.headersSent) res.statusCode = 500;
        res.end(String(err));
      }
      if (!res.writableEnded) res.end();
    });
  };
}

async function listen(
  server: net.Server,
  scheme: string,
  requests: SeenRequest[],
  bind = '127.0.0.1',
  port = 0,
): Promise<TestServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bind, resolve);
  });
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `${scheme}://${bind}:${(server.address() as net.AddressInfo).port}`,
    port: (server.address() as net.AddressInfo).port,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Where a server listens: any loopback address (default 127.0.0.1) and port (default: a free one). */
export interface Bind {
  host?: string;
  port?: number;
}

/** Plain HTTP/1.1 server with keep-alive. */
export function startHttpServer(handler: Handler, bind: Bind = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer({ keepAliveTimeout: 5000 }, wrap(handler, requests));
  return listen(server, 'http', requests, bind.host, bind.port);
}

/** HTTPS server with a self-signed certificate (or the given one); `requests[].servername` holds the SNI the client sent. */
export function startHttpsServer(handler: Handler, bind: Bind & { cert?: Pem } = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = https.createServer({ ...(bind.cert ?? localhostCert()) }, wrap(handler, requests));
  return listen(server, 'https', requests, bind.host, bind.port);
}

/** A raw TCP server: `onData` sees every byte a client sends and writes whatever it wants back. */
export async function startTcpServer(
  onConnection: (socket: net.Socket) => void,
): Promise<{ host: string; port: number; close(): Promise<void> }> {
  const server = net.createServer(onConnection);
  const t = await listen(server, 'tcp', []);
  return { host: '127.0.0.1', port: t.port, close: t.close };
}

/**
 * HTTP servers a test file starts as it goes, all closed by closeAll() (with the engine's client pools,
 * which keep connections to them open).
 */
export function serverPool(): { serve(handler: Handler): Promise<TestServer>; closeAll(): Promise<void> } {
  const servers: TestServer[] = [];
  return {
    async serve(handler) {
      const s = await startHttpServer(handler);
      servers.push(s);
      return s;
    },
    async closeAll() {
      const { closeClients } = await import('../../src/engine/runner.ts');
      await closeClients();
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** A SOCKS5 proxy (no auth) that records where clients asked to go. */
export async function startSocks5(): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = net.createServer((client) => {
    client.once('data', () => {
      client.write(Buffer.from([5, 0]));
      client.once('data', (req) => {
        const atyp = req[3];
        let host: string;
        let off: number;
        if (atyp === 1) {
          host = [...req.subarray(4, 8)].join('.');
          off = 8;
        } else {
          const n = req[4];
          host = req.subarray(5, 5 + n).toString();
          off = 5 + n;
        }
        const port = req.readUInt16BE(off);
        seen.push(`${host}:${port}`);
        const upstream = net.connect({ host, port }, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          client.pipe(upstream).pipe(client);
        });
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
      }),
  };
}
