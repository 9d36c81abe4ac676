// Real scan targets for tests: HTTP / HTTPS / raw TCP servers bound to 127.0.0.1 on a free port.
// The TLS certificate is generated once per process with the openssl CLI (node has no generator).
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

let cert: { key: string; cert: string } | undefined;

/** A self-signed certificate for CN=localhost, generated on first use and kept in memory. */
export function selfSignedCert(): { key: string; cert: string } {
  if (cert) return cert;
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
      '-subj', '/CN=localhost', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    cert = { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cert;
}

function wrap(handler: Handler, requests: SeenRequest[]) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const servername = (req.socket as { servername?: string }).servername;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now(), servername: servername || undefined });
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

async function listen(server: net.Server, scheme: string, requests: SeenRequest[], bind = '127.0.0.1', port = 0): Promise<TestServer> {
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, bind, resolve); });
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  server.on('secureConnection', (s: net.Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return {
    url: `${scheme}://${bind}:${(server.address() as net.AddressInfo).port}`,
    port: (server.address() as net.AddressInfo).port,
    requests,
    server,
    close: () => new Promise<void>((resolve) => {
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
export function startHttpsServer(handler: Handler, bind: Bind & { cert?: { key: string; cert: string } } = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = https.createServer({ ...(bind.cert ?? selfSignedCert()) }, wrap(handler, requests));
  return listen(server, 'https', requests, bind.host, bind.port);
}

/** A self-signed certificate for the given names (first one the CN), made with the openssl CLI. */
export function certFor(names: string[], days = 30): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', String(days),
      '-subj', `/CN=${names[0]}/O=Vigil Test`, '-addext', `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
