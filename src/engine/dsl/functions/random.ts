// Random values. Not cached: every call draws again.
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { crypto } from '../../lazy.ts';
import { cidrRange, formatAddress, parseAddressOrCidr } from '../../net/address.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const NUMBERS = '1234567890';

function removeChars(base: string, bad: string): string {
  let out = base;
  for (const c of Array.from(bad)) out = out.split(c).join('');
  return out;
}

function randSeq(base: string, n: number): string {
  if (n > 0 && base.length === 0) throw new DslError('empty character set');
  let out = '';
  for (let i = 0; i < n; i++) out += base[crypto().randomInt(base.length)];
  return out;
}

function lengthArg(v: unknown, fn: string): number {
  if (typeof v !== 'number') throw new DslError(`${fn}: length must be a number`);
  const n = Math.max(0, Math.trunc(v));
  if (!(n <= 1024 * 1024)) throw new DslError(`${fn}: length ${v} is over the limit of 1048576`);
  return n;
}

/** A random address inside a CIDR range or equal to an address (the engine's one address module reads both). */
function randomIp(cidr: string): string {
  const range = parseAddressOrCidr(cidr.trim());
  if (!range) throw new DslError(`rand_ip: invalid CIDR '${cidr}'`);
  const [lo, hi] = cidrRange(range);
  const rnd = BigInt('0x' + crypto().randomBytes(16).toString('hex')) & (hi - lo);
  return formatAddress(range.family, lo + rnd);
}

export function registerRandom(): void {
  define('rand_char', undefined, (a) => {
    if (a.length > 1) throw invalid('rand_char');
    const set = a.length === 1 && toStr(a[0]).trim() !== '' ? toStr(a[0]) : LETTERS + NUMBERS;
    return randSeq(set, 1);
  });
  define('rand_base', undefined, (a) => {
    if (a.length < 1 || a.length > 3) throw invalid('rand_base');
    const set = a.length === 2 && toStr(a[1]).trim() !== '' ? toStr(a[1]) : LETTERS + NUMBERS;
    return randSeq(set, lengthArg(a[0], 'rand_base'));
  });
  define('rand_text_alphanumeric', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('rand_text_alphanumeric');
    return randSeq(
      removeChars(LETTERS + NUMBERS, a.length === 2 ? toStr(a[1]) : ''),
      lengthArg(a[0], 'rand_text_alphanumeric'),
    );
  });
  define('rand_text_alpha', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('rand_text_alpha');
    return randSeq(removeChars(LETTERS, a.length === 2 ? toStr(a[1]) : ''), lengthArg(a[0], 'rand_text_alpha'));
  });
  define('rand_text_numeric', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('rand_text_numeric');
    return randSeq(removeChars(NUMBERS, a.length === 2 ? toStr(a[1]) : ''), lengthArg(a[0], 'rand_text_numeric'));
  });
  define('rand_int', undefined, (a) => {
    if (a.length > 2) throw invalid('rand_int');
    const min = a.length >= 1 ? Math.trunc(Number(a[0])) : 0;
    const max = a.length === 2 ? Math.trunc(Number(a[1])) : 2147483647;
    if (!Number.isFinite(min) || !Number.isFinite(max)) throw new DslError('rand_int: arguments must be numbers');
    if (max - min <= 0) throw new DslError('rand_int: max must be greater than min');
    return min + Math.floor(Math.random() * (max - min));
  });
  define('rand_ip', undefined, (a) => {
    if (a.length === 0) throw invalid('rand_ip');
    const cidrs = a.map(toStr);
    return randomIp(cidrs[crypto().randomInt(cidrs.length)]);
  });
}
