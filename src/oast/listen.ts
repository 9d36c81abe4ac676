// Listen addresses: "host:port", "[v6]:port" or a bare port (all addresses), parsed once for every listener.
import type { Server as NetServer } from 'node:net';
import type { Socket as UdpSocket } from 'node:dgram';

export interface ListenAddress {
  host: string;
  port: number;
}

export function parseListen(text: string, name: string): ListenAddress {
  const t = text.trim();
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]*)):(\d{1,5})$/.exec(t) ?? /^()()(\d{1,5})$/.exec(t);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535)
    throw new Error(`${name}: "${text}" is not a listen address; use host:port, [v6]:port or a port`);
  return { host: m[1] || m[2] || '0.0.0.0', port };
}

export function listenTcp(server: NetServer, at: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : at.port);
    });
  });
}

export function bindUdp(socket: UdpSocket, at: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(at.port, at.host, () => {
      socket.off('error', reject);
      resolve(socket.address().port);
    });
  });
}
