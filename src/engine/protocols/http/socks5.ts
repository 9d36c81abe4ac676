// A connected socket to host:port through a SOCKS5 proxy (no auth or username/password), through the
// maintained `socks` client. Used by both the undici connector and the raw socket path. Host names are
// sent to the proxy to resolve (socks5h behaviour), as nuclei's proxy dialer does.
import type net from 'node:net';
import { lazy } from '../../lazy.ts';

// Loaded on first use: most scans have no proxy.
const socks = lazy<typeof import('socks')>('socks');

export async function socks5Connect(proxy: string, host: string, port: number, timeout: number): Promise<net.Socket> {
  const p = new URL(proxy.includes('://') ? proxy : `socks5://${proxy}`);
  const user = decodeURIComponent(p.username);
  const { SocksClient } = socks();
  const { socket } = await SocksClient.createConnection({
    proxy: {
      host: p.hostname.replace(/^\[|\]$/g, ''),
      port: Number(p.port || 1080),
      type: 5,
      ...(user ? { userId: user, password: decodeURIComponent(p.password) } : {}),
    },
    command: 'connect',
    destination: { host: host.replace(/^\[|\]$/g, ''), port },
    timeout,
  }).catch((err: Error) => {
    throw new Error(`socks5: ${err.message}`);
  });
  return socket;
}
