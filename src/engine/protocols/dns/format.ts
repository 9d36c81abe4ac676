// DNS messages as text, in the presentation format nuclei's templates match against (the one Go's
// miekg/dns prints: `example.com.\t300\tIN\tA\t1.2.3.4`, `;; ANSWER SECTION:` ...).
import type { Answer, DecodedPacket, Packet, Question } from 'dns-packet';

const RCODES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];
const OPCODES: Record<number, string> = { 0: 'QUERY', 1: 'IQUERY', 2: 'STATUS', 4: 'NOTIFY', 5: 'UPDATE' };

export function rcodeName(n: number): string {
  return RCODES[n] ?? String(n);
}

/** A name with its final dot, as a zone file writes it. */
export function fqdn(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

function className(c: string | undefined): string {
  return !c || c === 'UNKNOWN_1' ? 'IN' : c;
}

export function questionString(q: Question): string {
  return `;${fqdn(q.name)}\t${className(q.class)}\t ${q.type}`;
}

export function headerString(rr: Answer): string {
  const a = rr as { name: string; ttl?: number; class?: string; type: string };
  return `${fqdn(a.name)}\t${a.ttl ?? 0}\t${className(a.class)}\t${a.type}\t`;
}

/** A TXT string quoted, with `"` and `\` escaped and bytes outside printable ASCII as \DDD. */
function quoted(v: string | Buffer): string {
  const b = typeof v === 'string' ? Buffer.from(v) : v;
  let s = '"';
  for (const c of b) {
    if (c === 0x22 || c === 0x5c) s += `\\${String.fromCharCode(c)}`;
    else if (c < 0x20 || c > 0x7e) s += `\\${String(c).padStart(3, '0')}`;
    else s += String.fromCharCode(c);
  }
  return `${s}"`;
}

/** The record's data after its header (what nuclei exposes as `a`, `cname`, `txt` ...). */
export function rdataString(rr: Answer): string {
  const d = (rr as { data?: unknown }).data as never;
  switch (rr.type) {
    case 'A':
    case 'AAAA':
      return String(d);
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      return fqdn(String(d));
    case 'MX': {
      const m = d as { preference?: number; exchange: string };
      return `${m.preference ?? 0} ${fqdn(m.exchange)}`;
    }
    case 'TXT': {
      const list = Array.isArray(d) ? (d as (string | Buffer)[]) : [d as string | Buffer];
      return list.map(quoted).join(' ');
    }
    case 'SOA': {
      const s = d as {
        mname: string;
        rname: string;
        serial?: number;
        refresh?: number;
        retry?: number;
        expire?: number;
        minimum?: number;
      };
      return `${fqdn(s.mname)} ${fqdn(s.rname)} ${s.serial ?? 0} ${s.refresh ?? 0} ${s.retry ?? 0} ${s.expire ?? 0} ${s.minimum ?? 0}`;
    }
    case 'SRV': {
      const s = d as { priority?: number; weight?: number; port?: number; target: string };
      return `${s.priority ?? 0} ${s.weight ?? 0} ${s.port ?? 0} ${fqdn(s.target)}`;
    }
    case 'CAA': {
      const c = d as { flags?: number; tag: string; value: string; issuerCritical?: boolean };
      return `${c.flags ?? (c.issuerCritical ? 128 : 0)} ${c.tag} ${quoted(c.value)}`;
    }
    case 'DS': {
      const s = d as { keyTag: number; algorithm: number; digestType: number; digest: Buffer };
      return `${s.keyTag} ${s.algorithm} ${s.digestType} ${s.digest.toString('hex').toUpperCase()}`;
    }
    case 'TLSA': {
      const s = d as { usage: number; selector: number; matchingType: number; certificate: Buffer };
      return `${s.usage} ${s.selector} ${s.matchingType} ${s.certificate.toString('hex')}`;
    }
    default: {
      // RFC 3597 form for types this printer does not know.
      const b = Buffer.isBuffer(d) ? (d as Buffer) : Buffer.from(JSON.stringify(d ?? ''));
      return `\\# ${b.length} ${b.toString('hex')}`;
    }
  }
}

export function rrString(rr: Answer): string {
  return headerString(rr) + rdataString(rr);
}

/** Records one after the other, as nuclei joins them (no separator). */
export function rrsString(rrs: Answer[] | undefined): string {
  return (rrs ?? [])
    .filter((r) => r.type !== 'OPT')
    .map(rrString)
    .join('');
}

function flagNames(flags: number, response: boolean): string {
  const out: string[] = [];
  if (response) out.push('qr');
  if (flags & (1 << 10)) out.push('aa');
  if (flags & (1 << 9)) out.push('tc');
  if (flags & (1 << 8)) out.push('rd');
  if (flags & (1 << 7)) out.push('ra');
  if (flags & (1 << 6)) out.push('z');
  if (flags & (1 << 5)) out.push('ad');
  if (flags & (1 << 4)) out.push('cd');
  return out.map((f) => ` ${f}`).join('');
}

/** A whole message, header and sections (nuclei's `raw` and `request`). */
export function messageString(p: Packet | DecodedPacket, rcode: number): string {
  const flags = p.flags ?? 0;
  const opcode = (flags >> 11) & 0xf;
  const questions = p.questions ?? [];
  const answers = p.answers ?? [];
  const ns = p.authorities ?? [];
  const extra = p.additionals ?? [];
  const opt = extra.find((r) => r.type === 'OPT') as
    { udpPayloadSize?: number; ednsVersion?: number; flag_do?: boolean; flags?: number } | undefined;
  let s = `;; opcode: ${OPCODES[opcode] ?? String(opcode)}, status: ${rcodeName(rcode)}, id: ${p.id ?? 0}\n`;
  s += `;; flags:${flagNames(flags, p.type === 'response')}; `;
  s += `QUERY: ${questions.length}, ANSWER: ${answers.length}, AUTHORITY: ${ns.length}, ADDITIONAL: ${extra.length}\n`;
  if (opt) {
    const dnssecOk = opt.flag_do ?? Boolean((opt.flags ?? 0) & 0x8000);
    s += `\n;; OPT PSEUDOSECTION:\n; EDNS: version ${opt.ednsVersion ?? 0}; flags:${dnssecOk ? ' do;' : ';'} udp: ${opt.udpPayloadSize ?? 512}\n`;
  }
  if (questions.length > 0) s += `\n;; QUESTION SECTION:\n${questions.map((q) => `${questionString(q)}\n`).join('')}`;
  if (answers.length > 0) s += `\n;; ANSWER SECTION:\n${answers.map((r) => `${rrString(r)}\n`).join('')}`;
  if (ns.length > 0) s += `\n;; AUTHORITY SECTION:\n${ns.map((r) => `${rrString(r)}\n`).join('')}`;
  const rest = extra.filter((r) => r.type !== 'OPT');
  if (rest.length > 0) s += `\n;; ADDITIONAL SECTION:\n${rest.map((r) => `${rrString(r)}\n`).join('')}`;
  return s;
}

/**
 * `a`, `cname`, `txt` ...: each answer's data by lower-case type; a list when a type repeats. As nuclei's
 * `recordsKeyValue`, one trailing dot is dropped (`cname` is `host.example.com`, `mx` is
 * `10 mx.example.com`), while `answer` and `raw` keep the record text as printed.
 */
export function recordValues(answers: Answer[] | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const rr of answers ?? []) {
    if (rr.type === 'OPT') continue;
    const key = rr.type.toLowerCase();
    const data = rdataString(rr);
    const value = data.endsWith('.') ? data.slice(0, -1) : data;
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}
