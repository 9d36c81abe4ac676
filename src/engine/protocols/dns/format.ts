// DNS messages as text, the way dig (and the Go library nuclei uses) prints them, because templates match
// on that text: `example.com.\t300\tIN\tA\t1.2.3.4`, quoted TXT strings, dotted names.
import type packet from 'dns-packet';

/** The response code's name (dns-packet decodes it; its types do not declare it). */
export function rcodeOf(m: packet.Packet): string {
  return (m as { rcode?: string }).rcode ?? 'NOERROR';
}

export const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

const dot = (n: string) => (n.endsWith('.') ? n : `${n}.`);

function txt(data: unknown): string {
  const parts = Array.isArray(data) ? data : [data];
  return parts.map((p) => `"${(Buffer.isBuffer(p) ? p.toString('latin1') : String(p)).replace(/(["\\])/g, '\\$1')}"`).join(' ');
}

function rdata(a: packet.Answer): string {
  const d = (a as { data?: unknown }).data as Record<string, unknown> | string | Buffer | unknown[] | undefined;
  switch (a.type) {
    case 'A': case 'AAAA': return String(d);
    case 'CNAME': case 'NS': case 'PTR': case 'DNAME': return dot(String(d));
    case 'TXT': return txt(d);
    case 'MX': { const m = d as { preference: number; exchange: string }; return `${m.preference} ${dot(m.exchange)}`; }
    case 'SOA': {
      const s = d as { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number };
      return `${dot(s.mname)} ${dot(s.rname)} ${s.serial} ${s.refresh} ${s.retry} ${s.expire} ${s.minimum}`;
    }
    case 'SRV': { const s = d as { priority: number; weight: number; port: number; target: string }; return `${s.priority} ${s.weight} ${s.port} ${dot(s.target)}`; }
    case 'CAA': { const c = d as { flags: number; tag: string; value: string }; return `${c.flags} ${c.tag} "${c.value}"`; }
    default: return Buffer.isBuffer(d) ? `\\# ${d.length} ${d.toString('hex')}` : JSON.stringify(d);
  }
}

export function formatRecords(list: packet.Answer[]): string {
  return list.filter((a) => a.type !== 'OPT').map((a) => `${dot(a.name)}\t${(a as { ttl?: number }).ttl ?? 0}\t${(a as { class?: string }).class ?? 'IN'}\t${a.type}\t${rdata(a)}`).join('\n');
}

export function formatQuestion(list: packet.Question[]): string {
  return list.map((q) => `;${dot(q.name)}\t${q.class ?? 'IN'}\t ${q.type}`).join('\n');
}

/** The whole message: header, flags, counts and sections, as `dig` shows it. */
export function formatMessage(m: packet.Packet, response: boolean): string {
  const flags = m.flags ?? 0;
  const names = [
    response ? 'qr' : '', flags & (1 << 10) ? 'aa' : '', flags & (1 << 9) ? 'tc' : '', flags & (1 << 8) ? 'rd' : '', flags & (1 << 7) ? 'ra' : '',
  ].filter(Boolean);
  const q = m.questions ?? [];
  const an = m.answers ?? [];
  const ns = m.authorities ?? [];
  const ex = (m.additionals ?? []).filter((a) => a.type !== 'OPT');
  const lines = [
    `;; opcode: QUERY, status: ${response ? rcodeOf(m) : 'NOERROR'}, id: ${m.id ?? 0}`,
    `;; flags: ${names.join(' ')}; QUERY: ${q.length}, ANSWER: ${an.length}, AUTHORITY: ${ns.length}, ADDITIONAL: ${ex.length}`,
    '',
    ';; QUESTION SECTION:',
    formatQuestion(q),
  ];
  if (an.length) lines.push('', ';; ANSWER SECTION:', formatRecords(an));
  if (ns.length) lines.push('', ';; AUTHORITY SECTION:', formatRecords(ns));
  if (ex.length) lines.push('', ';; ADDITIONAL SECTION:', formatRecords(ex));
  return lines.join('\n');
}
