// The DNS listener (UDP and TCP): authoritative for the OAST domain, it answers every name under it with
// the server's public address (A, or AAAA for an IPv6 one), NS with ns1/ns2.<domain> and their glue, SOA,
// MX (the domain itself); names outside the domain are refused. A query for a name holding a registered
// id is an interaction (protocol "dns", the question type in q-type, request and answer as dig shows them).
import dgram from 'node:dgram';
import net from 'node:net';
import * as packet from 'dns-packet';
import { idsInName, type Interaction } from './protocol.ts';
import type { Sessions } from './sessions.ts';
import { bindUdp, listenTcp, type ListenAddress } from './listen.ts';

export interface DnsListenerOptions {
  domain: string;
  /** The public address every name resolves to. */
  ip: string;
  sessions: Sessions;
  ttl?: number;
  onInteraction?: (i: Interaction) => void;
}

type Answer = packet.Answer;
// dns-packet writes the response code from the low bits of `flags` (its `rcode` field is read-only).
const RCODE = { FORMERR: 1, REFUSED: 5 } as const;
/** dns-packet's message, with the opcode and rcode it reads and writes. */
type Msg = packet.Packet & { opcode?: string; rcode?: string };

/** The answer to one query message (FORMERR, REFUSED outside the domain, else authoritative). */
export function answerQuery(o: DnsListenerOptions, query: Msg): Msg {
  const ttl = o.ttl ?? 60;
  const q = query.questions?.[0];
  const base = {
    id: query.id,
    type: 'response' as const,
    flags: packet.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & packet.RECURSION_DESIRED),
    questions: query.questions ?? [],
  };
  if (!q || query.opcode !== 'QUERY' || (query.questions?.length ?? 0) !== 1)
    return { ...base, flags: RCODE.FORMERR, rcode: 'FORMERR' } as Msg;
  const name = q.name.toLowerCase().replace(/\.$/, '');
  const domain = o.domain;
  if (name !== domain && !name.endsWith(`.${domain}`))
    return { ...base, flags: RCODE.REFUSED, rcode: 'REFUSED' } as Msg;
  const v6 = net.isIPv6(o.ip);
  const ns = [`ns1.${domain}`, `ns2.${domain}`];
  const soa: Answer = {
    type: 'SOA',
    name: domain,
    ttl,
    data: {
      mname: ns[0]!,
      rname: `hostmaster.${domain}`,
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86400,
      minimum: 60,
    },
  };
  const address = (n: string): Answer =>
    v6 ? { type: 'AAAA', name: n, ttl, data: o.ip } : { type: 'A', name: n, ttl, data: o.ip };
  const answers: Answer[] = [];
  const authorities: Answer[] = [];
  const additionals: Answer[] = [];
  switch (q.type as string) {
    case 'A':
    case 'ANY':
    case 'CNAME':
      if (!v6 || q.type !== 'A') answers.push(address(q.name));
      break;
    case 'AAAA':
      if (v6) answers.push(address(q.name));
      break;
    case 'NS':
      for (const n of ns) answers.push({ type: 'NS', name: q.name, ttl, data: n });
      for (const n of ns) additionals.push(address(n));
      break;
    case 'SOA':
      answers.push({ ...soa, name: q.name });
      break;
    case 'MX':
      answers.push({ type: 'MX', name: q.name, ttl, data: { preference: 1, exchange: domain } });
      break;
    default:
      break;
  }
  if (!answers.length) authorities.push(soa);
  return { ...base, rcode: 'NOERROR', answers, authorities, additionals } as Msg;
}

/** A message as dig prints it, roughly: what interactsh_request and interactsh_response hold for DNS. */
export function describe(p: Msg): string {
  const rr = (a: Answer) => {
    const d = (a as { data?: unknown }).data;
    const text = typeof d === 'string' ? d : JSON.stringify(d);
    return `${a.name}.\t${(a as { ttl?: number }).ttl ?? 0}\tIN\t${a.type}\t${text}`;
  };
  const lines = [
    `;; opcode: ${p.opcode ?? 'QUERY'}, status: ${p.rcode ?? 'NOERROR'}, id: ${p.id ?? 0}`,
    '',
    ';; QUESTION SECTION:',
    ...(p.questions ?? []).map((q) => `;${q.name}.\tIN\t ${q.type}`),
  ];
  if (p.answers?.length) lines.push('', ';; ANSWER SECTION:', ...p.answers.map(rr));
  if (p.authorities?.length) lines.push('', ';; AUTHORITY SECTION:', ...p.authorities.map(rr));
  if (p.additionals?.length)
    lines.push('', ';; ADDITIONAL SECTION:', ...p.additionals.filter((a) => a.type !== 'OPT').map(rr));
  return lines.join('\n') + '\n';
}

/** Handles one message's bytes; returns the answer's bytes, or undefined for garbage (dropped). */
export function handleDnsMessage(o: DnsListenerOptions, bytes: Buffer, remote: string): Buffer | undefined {
  let query: Msg;
  try {
    query = packet.decode(bytes);
  } catch {
    return undefined;
  }
  if (query.type !== 'query') return undefined;
  let answer: Msg;
  try {
    answer = answerQuery(o, query);
  } catch {
    return undefined;
  }
  const q = query.questions?.[0];
  if (q && answer.rcode === 'NOERROR') {
    const hits = idsInName(q.name, (id) => o.sessions.has(id));
    if (hits.length) {
      const request = describe(query);
      const response = describe(answer);
      for (const hit of hits) {
        const i: Interaction = {
          protocol: 'dns',
          'unique-id': hit.id,
          'full-id': hit.full,
          'q-type': q.type,
          'raw-request': request,
          'raw-response': response,
          'remote-address': remote.replace(/^::ffff:/, ''),
          timestamp: new Date().toISOString(),
        };
        o.sessions.add(i);
        o.onInteraction?.(i);
      }
    }
  }
  try {
    return packet.encode(answer);
  } catch {
    return undefined;
  }
}

export interface DnsListener {
  port: number;
  close(): Promise<void>;
}

/** UDP and TCP on the same address and port. */
export async function startDns(o: DnsListenerOptions, at: ListenAddress): Promise<DnsListener> {
  const udp = dgram.createSocket(net.isIPv6(at.host) ? 'udp6' : 'udp4');
  udp.on('message', (msg, rinfo) => {
    const out = handleDnsMessage(o, msg, rinfo.address);
    if (out) udp.send(out, rinfo.port, rinfo.address);
  });
  udp.on('error', () => {});
  const port = await bindUdp(udp, at);
  const tcp = net.createServer((sock) => {
    let buf = Buffer.alloc(0);
    sock.setTimeout(10_000, () => sock.destroy());
    sock.on('error', () => sock.destroy());
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2) {
        const len = buf.readUInt16BE(0);
        if (buf.length < 2 + len) break;
        const msg = buf.subarray(2, 2 + len);
        buf = buf.subarray(2 + len);
        const out = handleDnsMessage(o, msg, sock.remoteAddress ?? '');
        if (!out) return sock.destroy();
        const head = Buffer.alloc(2);
        head.writeUInt16BE(out.length);
        sock.write(Buffer.concat([head, out]));
      }
    });
  });
  await listenTcp(tcp, { host: at.host, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        udp.close();
        tcp.close(() => resolve());
      }),
  };
}
