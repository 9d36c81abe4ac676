// Alternative spellings of an IPv4 address (mapcidr's AlterIP formats 1-11), used to evade filters.
import { DslError } from '../errors.ts';

function octets(ip: string): number[] {
  const parts = ip.split('.').map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) {
    throw new DslError(`ip_format: '${ip}' is not an IPv4 address`);
  }
  return parts;
}

// Go's %#o and %#x: a leading 0 / 0x, except that zero is plain "0" for %#o.
const altOct = (n: number) => (n === 0 ? '0' : '0' + n.toString(8));
const altHex = (n: number) => '0x' + n.toString(16);

export function ipFormat(ip: string, format: number): string {
  const o = octets(ip);
  const dotted = o.join('.');
  const num = ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
  switch (format) {
    case 1:
      return dotted;
    case 2:
      return dotted.replace(/0+\./g, '').replace(/\.[0^]+$/, ''); // mapcidr's own (lossy) zero stripping
    case 3:
      return [altOct(o[0]).padStart(4, '0'), ...o.slice(1).map(altOct)].join('.');
    case 4:
      return o.map(altHex).join('.');
    case 5:
      return String(num);
    case 6:
      return num.toString(2);
    case 7:
      return `${altHex(o[0])}.${o[1]}.${altOct(o[2])}.${altHex(o[3])}`;
    case 8:
      return Array.from(dotted)
        .map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
        .join('');
    case 9:
      return Array.from(dotted)
        .map((c) => (c === '.' ? c : c === '0' ? '\u24ea' : String.fromCharCode(0x2460 + Number(c) - 1)))
        .join('');
    case 10:
      return `::ffff:${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
    default:
      return `${o[0]}.${o[1]}.${(o[2] << 8) | o[3]}`;
  }
}
