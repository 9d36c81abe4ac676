// Alternative spellings of an IPv4 address (mapcidr's AlterIP formats 1-11), used to evade filters.
import { DslError } from '../errors.ts';

function octets(ip: string): number[] {
  const parts = ip.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new DslError(`ip_format: '${ip}' is not an IPv4 address`);
  }
  return parts;
}

export function ipFormat(ip: string, format: number): string {
  const o = octets(ip);
  const num = ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
  switch (format) {
    case 1: return o.join('.');
    case 2: return o[1] === 0 && o[2] === 0 ? `${o[0]}.${o[3]}` : o.join('.');
    case 3: return o.map((x) => '0' + x.toString(8)).map((s) => (s === '00' ? '0' : s)).join('.');
    case 4: return o.map((x) => '0x' + x.toString(16)).join('.');
    case 5: return String(num);
    case 6: return num.toString(2).padStart(32, '0');
    case 7: return '0x' + num.toString(16);
    case 8: return `::ffff:${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
    case 9: return Array.from(o.join('.')).map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).join('');
    case 10: return `0x${o[0].toString(16)}.${o[1]}.${(o[2] << 8) | o[3]}`;
    default: return `${o[0]}.${o[1]}.${(o[2] << 8) | o[3]}`;
  }
}
