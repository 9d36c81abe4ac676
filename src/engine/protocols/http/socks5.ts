// A connected socket to host:port through a SOCKS5 proxy (no auth or username/password), through the
// maintained `socks` client. Used by both the undici connector and the raw socket path. Host names are
// sent to the proxy to resolve (socks5h behaviour), as nuclei's proxy dialer does. Under a connect guard
// the proxy's own address is checked like any connection, and the destination by what can be known here
// (an address literal, the name rules): the proxy resolves names on its side of the network.
import type net from 'node:net';
import { lazy } from '../../lazy.ts';
import type { ConnectGuard } from '../../net/guard.ts';

// Loaded on first use: most scans have no proxy.
const socks = lazy<typeof import('socks')>('socks');

export async function socks5Connect(
  proxy: string,
  host: string,
  port: number,
  timeout: number,
  guard?: ConnectGuard,
): Promise<net.Socket> {
  const p = new URL(proxy.includes('://') ? proxy : `socks5://${proxy}`);
  const user = decodeURIComponent(p.username);
  const { SocksClient } = socks();
  const proxyPort = Number(p.port || 1080);
  let proxyHost = p.hostname.replace(/^\[|\]$/g, '');
  let destination = host.replace(/^\[|\]$/g, '');
  if (guard) {
    proxyHost = await guard.address(proxyHost, proxyPort).catch((err: Error) => {
      err.message = `socks5 proxy: ${err.message}`;
      throw err;
    });
    destination = guard.precheck(destination, port) ?? destination;
  }
  const { socket } = await SocksClient.createConnection({
    proxy: {
      host: proxyHost,
      port: proxyPort,
      type: 5,
      ...(user ? { userId: user, password: decodeURIComponent(p.password) } : {}),
    },
    command: 'connect',
    destination: { host: destination, port },
    timeout,
  }).catch((err: Error) => {
    throw new Error(`socks5: ${err.message}`);
  });
  return socket;
}
