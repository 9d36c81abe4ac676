// A real authoritative DNS server on 127.0.0.1 (UDP, dns2) serving a zone the test can change while it
// runs: A, AAAA and CNAME records, wildcards ("*.example.test"), NXDOMAIN for the rest.
import dns2 from 'dns2';
import type { AddressInfo } from 'node:net';

export interface ZoneRecord {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
}

export interface TestDnsServer {
  /** "127.0.0.1:port", as discovery's resolvers take it. */
  address: string;
  zone: Map<string, ZoneRecord>;
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

function lookup(zone: Map<string, ZoneRecord>, name: string): ZoneRecord | undefined {
  const exact = zone.get(name);
  if (exact) return exact;
  // The closest wildcard: *.<parent>, walking up.
  const labels = name.split('.');
  for (let i = 1; i < labels.length; i++) {
    const w = zone.get(`*.${labels.slice(i).join('.')}`);
    if (w) return w;
  }
  return undefined;
}

export async function startDnsServer(records: Record<string, ZoneRecord>): Promise<TestDnsServer> {
  const zone = new Map(Object.entries(records));
  const queries: { name: string; type: number }[] = [];
  const { Packet } = dns2;
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (!q) return send(response);
    queries.push({ name: q.name, type: q.type });
    let name = q.name.toLowerCase().replace(/\.$/, '');
    let rec = lookup(zone, name);
    if (!rec) {
      (response.header as { rcode: number }).rcode = 3; // NXDOMAIN
      return send(response);
    }
    for (let hops = 0; rec?.CNAME && hops < 8; hops++) {
      response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: rec.CNAME } as never);
      name = rec.CNAME;
      rec = lookup(zone, name);
    }
    if (q.type === Packet.TYPE.A) for (const address of rec?.A ?? []) response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address } as never);
    if (q.type === Packet.TYPE.AAAA) for (const address of rec?.AAAA ?? []) response.answers.push({ name, type: Packet.TYPE.AAAA, class: Packet.CLASS.IN, ttl: 60, address } as never);
    send(response);
  };
  // UDP (answers over 512 bytes are truncated by dns2, TC set) and TCP on the same port number. The
  // UDP port is free by construction, the same TCP port may not be (another test's connection): retry.
  let server!: ReturnType<typeof dns2.createUDPServer>;
  let tcp!: ReturnType<typeof dns2.createTCPServer>;
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    server = dns2.createUDPServer(handle);
    await server.listen(0, '127.0.0.1');
    port = (server.address() as AddressInfo).port;
    tcp = dns2.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => resolve());
      });
      break;
    } catch (err) {
      await new Promise<void>((r) => server.close(() => r()));
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 10) throw err;
    }
  }
  return {
    address: `127.0.0.1:${port}`,
    zone,
    queries,
    close: async () => {
      await new Promise<void>((r) => tcp.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
