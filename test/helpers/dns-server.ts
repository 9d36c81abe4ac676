// A real DNS server on 127.0.0.1 (UDP, and TCP for truncated answers) serving a small zone, built with
// dns-packet: exact names, a wildcard (`*.wild.test`), CNAMEs, TXT, MX, NXDOMAIN for the rest.
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';

export type ZoneRecord = { type: string; data: unknown; ttl?: number };
export type Zone = Record<string, ZoneRecord[]>;

export interface DnsServer {
  host: string;
  port: number;
  /** Names asked, in order (lower case, no trailing dot). */
  queries: string[];
  close(): Promise<void>;
}

function lookup(zone: Zone, name: string): ZoneRecord[] | undefined {
  const n = name.toLowerCase().replace(/\.$/, '');
  if (zone[n]) return zone[n];
  const dot = n.indexOf('.');
  return dot > 0 ? zone[`*${n.slice(dot)}`] : undefined;
}

function answer(zone: Zone, query: packet.Packet): Buffer {
  const q = query.questions?.[0];
  const records = q ? lookup(zone, q.name) : undefined;
  const answers = (records ?? [])
    .filter((r) => q && ((q.type as string) === 'ANY' || r.type === q.type || r.type === 'CNAME'))
    .map((r) => ({ name: q!.name, type: r.type, class: 'IN', ttl: r.ttl ?? 300, data: r.data })) as packet.Answer[];
  return packet.encode({
    type: 'response', id: query.id, flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (records ? 0 : 3),
    questions: query.questions, answers,
  });
}

export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const queries: string[] = [];
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    const query = packet.decode(msg);
    queries.push(String(query.questions?.[0]?.name ?? '').toLowerCase());
    udp.send(answer(zone, query), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
  const port = udp.address().port;
  // TCP on the same port number, for answers too large for UDP.
  const tcp = net.createServer((sock) => {
    let buf = Buffer.alloc(0);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      const out = answer(zone, packet.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))));
      const len = Buffer.alloc(2);
      len.writeUInt16BE(out.length);
      sock.end(Buffer.concat([len, out]));
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((resolve) => tcp.listen(port, '127.0.0.1', () => resolve()));
  return {
    host: '127.0.0.1', port, queries,
    close: () => new Promise<void>((resolve) => { udp.close(); tcp.close(() => resolve()); }),
  };
}
