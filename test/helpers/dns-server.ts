// The one DNS server of the tests: a small authoritative server on 127.0.0.1 (UDP and TCP on the same
// port) serving a test zone, built on dns-packet. Records are kept by lower-case name; `*.<parent>` names
// are wildcards; a CNAME is followed inside the zone as an authoritative server does (the CNAME, then the
// target's records); a name can be given an rcode (SERVFAIL, REFUSED, NXDOMAIN) and still carry records
// (a dangling CNAME answers NXDOMAIN with its CNAME). A UDP answer larger than the client's limit (512
// bytes, or its EDNS size) comes back truncated (TC) so the client asks again over TCP. The zone can be
// changed while the server runs (`server.zone`). Every query is recorded so tests can check what was asked.
import dgram from 'node:dgram';
import net from 'node:net';
import packet, { type Answer, type DecodedPacket, type Question } from 'dns-packet';

export interface ZoneRecord {
  type: string;
  data: unknown;
  ttl?: number;
  class?: string;
}

export interface Zone {
  records: Record<string, ZoneRecord[]>;
  /** name -> rcode (NXDOMAIN, SERVFAIL, REFUSED ...); unknown names answer NXDOMAIN. */
  rcodes?: Record<string, string>;
  /** Answers that only fit over TCP: the UDP answer comes back truncated (TC). */
  truncate?: boolean;
  /** Extra authority / additional records for every answer. */
  authorities?: Answer[];
  /**
   * Zones this server hands on (a root or TLD server): a query for a name inside one is answered with a
   * referral, no answer, the zone's NS records in the authority section and their glue addresses.
   */
  delegations?: Record<string, { ns: string; ip: string }[]>;
}

/** Where the server listens: a loopback address and port (default 127.0.0.1, a free port). */
export interface DnsBind {
  host?: string;
  port?: number;
}

export interface DnsTestServer {
  port: number;
  /** The zone served, live: records added or removed here are answered from the next query on. */
  zone: Zone;
  /** `127.0.0.1:<port>`, the resolver string templates and scans take. */
  resolver: string;
  queries: (DecodedPacket & { transport: 'udp' | 'tcp' })[];
  close(): Promise<void>;
}

function referral(zone: Zone, name: string, query: DecodedPacket): Buffer | undefined {
  const cut = Object.keys(zone.delegations ?? {})
    .filter((z) => z === '' || name === z || name.endsWith(`.${z}`))
    .sort((a, b) => b.length - a.length)[0];
  if (cut === undefined || zone.records[name]) return undefined;
  const servers = zone.delegations![cut]!;
  return packet.encode({
    type: 'response',
    id: query.id,
    flags: query.flag_rd ? packet.RECURSION_DESIRED : 0,
    questions: query.questions,
    authorities: servers.map((s) => ({ name: cut || '.', type: 'NS', class: 'IN', ttl: 172800, data: s.ns }) as Answer),
    additionals: servers.map((s) => ({ name: s.ns, type: 'A', class: 'IN', ttl: 172800, data: s.ip }) as Answer),
  });
}

/** A name's records: its own, else those of the closest wildcard (`*.<parent>`, walking up). */
function recordsOf(zone: Zone, name: string): ZoneRecord[] | undefined {
  if (zone.records[name]) return zone.records[name];
  const labels = name.split('.');
  for (let i = 1; i < labels.length; i++) {
    const w = zone.records[`*.${labels.slice(i).join('.')}`];
    if (w) return w;
  }
  return undefined;
}

function answerFor(zone: Zone, q: Question, query: DecodedPacket): Buffer {
  const name = q.name.replace(/\.$/, '').toLowerCase();
  const handedOn = referral(zone, name, query);
  if (handedOn) return handedOn;
  const found = recordsOf(zone, name);
  const answers: Answer[] = [];
  let owner = q.name.replace(/\.$/, '');
  let records = found ?? [];
  // The CNAME chain inside the zone, at most 8 links (a loop ends there).
  for (let links = 0; links < 8; links++) {
    answers.push(
      ...records
        .filter((r) => (q.type as string) === 'ANY' || r.type === q.type || (r.type === 'CNAME' && q.type !== 'CNAME'))
        .map((r) => ({ name: owner, type: r.type, class: r.class ?? 'IN', ttl: r.ttl ?? 300, data: r.data }) as Answer),
    );
    const cname = records.find((r) => r.type === 'CNAME');
    if (!cname || q.type === 'CNAME' || (q.type as string) === 'ANY') break;
    owner = String(cname.data).replace(/\.$/, '');
    const next = recordsOf(zone, owner.toLowerCase());
    if (!next) break;
    records = next;
  }
  const rcode = zone.rcodes?.[name] ?? (found ? 'NOERROR' : 'NXDOMAIN');
  const flags =
    packet.AUTHORITATIVE_ANSWER | (query.flag_rd ? packet.RECURSION_DESIRED : 0) | packet.RECURSION_AVAILABLE;
  return packet.encode({
    type: 'response',
    id: query.id,
    flags: flags | rcodeNumber(rcode),
    questions: query.questions,
    answers,
    authorities: zone.authorities ?? [],
  });
}

function rcodeNumber(name: string): number {
  return ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'].indexOf(name);
}

export async function startDnsServer(zone: Zone, bind: DnsBind = {}): Promise<DnsTestServer> {
  const host = bind.host ?? '127.0.0.1';
  const queries: DnsTestServer['queries'] = [];
  const tcp = net.createServer((sock) => {
    let buf = Buffer.alloc(0);
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + msg.length);
        const query = packet.decode(msg);
        queries.push({ ...query, transport: 'tcp' });
        const out = answerFor(zone, query.questions![0], query);
        const len = Buffer.alloc(2);
        len.writeUInt16BE(out.length);
        sock.write(Buffer.concat([len, out]));
      }
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(bind.port ?? 0, host, resolve);
  });
  const port = (tcp.address() as net.AddressInfo).port;
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => {
    let query: DecodedPacket;
    try {
      query = packet.decode(msg);
    } catch {
      return;
    }
    queries.push({ ...query, transport: 'udp' });
    let out = answerFor(zone, query.questions![0], query);
    const opt = query.additionals?.find((r) => r.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    if (zone.truncate || out.length > Math.max(512, opt?.udpPayloadSize ?? 512)) {
      out = packet.encode({
        type: 'response',
        id: query.id,
        flags: packet.TRUNCATED_RESPONSE | packet.AUTHORITATIVE_ANSWER,
        questions: query.questions,
      });
    }
    udp.send(out, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, host, () => resolve());
  }).catch(async (err) => {
    udp.close();
    await new Promise<void>((r) => tcp.close(() => r()));
    throw err;
  });
  return {
    port,
    zone,
    resolver: `${host}:${port}`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        udp.close();
        tcp.close(() => resolve());
      }),
  };
}
