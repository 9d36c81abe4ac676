// A local HTTP proxy for the screenshot browser under a connect guard: the browser resolves nothing and
// connects nowhere by itself; every page, redirect, subresource and websocket goes through here, where the
// host is resolved (discovery's own answers first, for names found through custom resolvers), decided by
// the guard and dialled by address. CONNECT carries https and wss; plain http comes in absolute form.
import http from 'node:http';
import net from 'node:net';
import type { ConnectGuard } from '../engine/index.ts';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for the browser's proxy setting. */
  url: string;
  close(): Promise<void>;
}

/** The address to dial for host:port: discovery's answer for the name if it has one, then the guard's decision. */
async function decide(guard: ConnectGuard, hosts: Map<string, string>, host: string, port: number): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  return guard.address(hosts.get(bare.toLowerCase()) ?? bare, port);
}

function hostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  return m ? { host: m[1]!, port: m[2] ? Number(m[2]) : defaultPort } : undefined;
}

export async function startEgressProxy(guard: ConnectGuard, hosts: Map<string, string>): Promise<EgressProxy> {
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400).end();
      return;
    }
    const port = Number(url.port || 80);
    decide(guard, hosts, url.hostname, port).then(
      (address) => {
        const headers = { ...req.headers };
        delete headers['proxy-connection'];
        delete headers['proxy-authorization'];
        const upstream = http.request(
          { host: address, port, method: req.method, path: url.pathname + url.search, headers, setHost: false },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      () => res.writeHead(403).end(),
    );
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = hostPort(req.url ?? '', 443);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    decide(guard, hosts, target.host, target.port).then(
      (address) => {
        const upstream = net.connect({ host: address, port: target.port }, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
      },
      () => client.end('HTTP/1.1 403 Forbidden\r\n\r\n'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
