// Opening a connection for the raw socket path: plain TCP or TLS (any certificate, chosen SNI),
// directly or through a SOCKS5 proxy, under the scan's connect guard.
import net from 'node:net';
import { socks5Connect } from './socks5.ts';
import { dialTcp, dialTls, type ConnectGuard } from '../../net/guard.ts';

export interface ConnectOptions {
  host: string;
  port: number;
  secure: boolean;
  sni?: string;
  timeout: number;
  socks5Proxy?: string;
  guard?: ConnectGuard;
}

export async function openSocket(o: ConnectOptions): Promise<net.Socket> {
  const host = o.host.replace(/^\[|\]$/g, '');
  const servername = o.sni ?? (net.isIP(host) ? undefined : host);
  const base = o.socks5Proxy ? await socks5Connect(o.socks5Proxy, host, o.port, o.timeout, o.guard) : undefined;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`connect timeout to ${host}:${o.port}`));
    }, o.timeout);
    const done = (err?: Error) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(sock);
    };
    // Over a proxy the guard has decided already (socks5Connect); directly, it decides as the socket connects.
    const sock: net.Socket = o.secure
      ? dialTls(base ? undefined : o.guard, {
          socket: base,
          host,
          port: o.port,
          servername,
          rejectUnauthorized: false,
          ALPNProtocols: ['http/1.1'],
        })
      : (base ?? dialTcp(o.guard, { host, port: o.port }));
    sock.once(o.secure ? 'secureConnect' : 'connect', () => done());
    if (!o.secure && base) done();
    sock.once('error', (e) => done(e));
  });
}
