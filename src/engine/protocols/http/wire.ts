// Opening a connection for the raw socket path: plain TCP or TLS (any certificate, chosen SNI),
// directly or through a SOCKS5 proxy.
import net from 'node:net';
import { socks5Connect } from './socks5.ts';
import { tls } from '../../lazy.ts';

export interface ConnectOptions {
  host: string;
  port: number;
  secure: boolean;
  sni?: string;
  timeout: number;
  socks5Proxy?: string;
}

export async function openSocket(o: ConnectOptions): Promise<net.Socket> {
  const host = o.host.replace(/^\[|\]$/g, '');
  const servername = o.sni ?? (net.isIP(host) ? undefined : host);
  const base = o.socks5Proxy ? await socks5Connect(o.socks5Proxy, host, o.port, o.timeout) : undefined;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`connect timeout to ${host}:${o.port}`)); }, o.timeout);
    const done = (err?: Error) => { clearTimeout(timer); if (err) reject(err); else resolve(sock); };
    const sock: net.Socket = o.secure
      ? tls().connect({ socket: base, host, port: o.port, servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => done())
      : base ?? net.connect({ host, port: o.port }, () => done());
    if (!o.secure && base) done();
    sock.once('error', (e) => done(e));
  });
}
