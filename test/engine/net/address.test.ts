// Every spelling of an address the C library's resolver or a URL parser accepts reduces to one normal
// form; CIDR ranges over them; and the egress policy decides on that form, with reasons.
import { describe, expect, it } from 'vitest';
import net from 'node:net';
import {
  addressesIn,
  cidrContains,
  intersectRanges,
  parseAddress,
  parseAddressOrCidr,
  parseCidr,
  parseHost,
  rangeSize,
  rangesHave,
  rangesOf,
  subtractRanges,
  translatedIPv4,
  formatCidr,
} from '../../../src/engine/net/address.ts';
import { Egress } from '../../../src/engine/net/policy.ts';

describe('parseAddress', () => {
  it('reads every IPv4 spelling as getaddrinfo does', () => {
    for (const s of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0X7F000001',
      '017700000001',
      '127.1',
      '127.0.1',
      '0x7f.1',
      '0177.0.0.1',
      '0x7f.0x0.0x0.0x1',
      '127.0.0.1.',
      '[127.0.0.1]',
      '::ffff:127.0.0.1',
      '[::ffff:127.0.0.1]',
      '::ffff:7f00:1',
      '[::FFFF:7F00:1]',
      '0:0:0:0:0:ffff:7f00:1',
      '::127.0.0.1',
      '::7f00:1',
    ]) {
      expect(parseAddress(s)?.text, s).toBe('127.0.0.1');
    }
    for (const s of [
      '169.254.169.254',
      '2852039166',
      '0xa9fea9fe',
      '025177524776',
      '169.254.43518',
      '0xa9.0xfe.0xa9.0xfe',
      '::ffff:a9fe:a9fe',
      '[::ffff:169.254.169.254]',
    ]) {
      expect(parseAddress(s)?.text, s).toBe('169.254.169.254');
    }
  });

  it('keeps IPv6 addresses IPv6, in RFC 5952 text, and drops a zone', () => {
    expect(parseAddress('::1')?.text).toBe('::1');
    expect(parseAddress('::')?.text).toBe('::');
    expect(parseAddress('FD00:EC2:0:0:0:0:0:254')?.text).toBe('fd00:ec2::254');
    expect(parseAddress('2001:db8:0:0:1:0:0:1')?.text).toBe('2001:db8::1:0:0:1');
    expect(parseAddress('fe80::1%eth0')?.text).toBe('fe80::1');
    expect(parseAddress('[2001:db8::1]')?.family).toBe(6);
  });

  it('leaves names and malformed numbers alone', () => {
    for (const s of [
      'example.com',
      'metadata.google.internal',
      '1.2.3.4.5',
      '256.1.1.1',
      '1.2.3.256',
      '4294967296',
      '08',
      '0x',
      'deadbeef',
      '1::2::3',
      ':::',
      '12345::',
      '1.2.3.4:80',
      '',
    ]) {
      const a = parseAddress(s);
      // '0x' is 0 to inet_aton; everything else here is no address.
      if (s === '0x') expect(a?.text).toBe('0.0.0.0');
      else expect(a, s).toBeUndefined();
    }
  });

  it('agrees with Node on every address Node accepts', () => {
    for (const s of [
      '1.2.3.4',
      '255.255.255.255',
      '0.0.0.0',
      '::',
      '1::',
      '::ffff:1.2.3.4',
      '2001:db8::ff00:42:8329',
      'fe80::',
    ]) {
      const a = parseAddress(s)!;
      expect(net.isIP(a.text), s).toBe(a.family);
    }
  });

  it('normalizes names: case and trailing dots', () => {
    expect(parseHost('Metadata.Google.Internal.')).toEqual({ kind: 'name', name: 'metadata.google.internal' });
    expect(parseHost('instance-data..')).toEqual({ kind: 'name', name: 'instance-data' });
    expect(parseHost('2852039166')).toMatchObject({ kind: 'address', address: { text: '169.254.169.254' } });
  });

  it('finds the IPv4 address behind NAT64 and 6to4', () => {
    expect(translatedIPv4(parseAddress('64:ff9b::a9fe:a9fe')!)?.text).toBe('169.254.169.254');
    expect(translatedIPv4(parseAddress('2002:a9fe:a9fe::1')!)?.text).toBe('169.254.169.254');
    expect(translatedIPv4(parseAddress('2001:db8::1')!)).toBeUndefined();
  });
});

describe('parseCidr', () => {
  it('parses written-out ranges and maps IPv4-mapped ones to IPv4', () => {
    expect(formatCidr(parseCidr('10.1.2.3/8')!)).toBe('10.0.0.0/8');
    expect(formatCidr(parseCidr('::ffff:169.254.0.0/112')!)).toBe('169.254.0.0/16');
    expect(formatCidr(parseCidr('[fd00::]/8')!)).toBe('fd00::/8');
    expect(parseCidr('10/8')).toBeUndefined();
    expect(parseCidr('1.2.3.4/33')).toBeUndefined();
    expect(parseCidr('example.com/8')).toBeUndefined();
  });

  it('tests membership on the normal form', () => {
    const c = parseCidr('127.0.0.0/8')!;
    for (const s of ['2130706433', '::ffff:127.0.0.2', '127.1'])
      expect(cidrContains(c, parseAddress(s)!), s).toBe(true);
    expect(cidrContains(c, parseAddress('128.0.0.1')!)).toBe(false);
    expect(cidrContains(c, parseAddress('::1')!)).toBe(false);
  });
});

describe('Egress', () => {
  const policy = new Egress({
    deny: [
      { target: '169.254.169.254', reason: 'cloud metadata address' },
      { target: 'fd00:ec2::254', reason: 'cloud metadata address' },
      { target: 'metadata.google.internal', reason: 'cloud metadata address' },
      { target: '127.0.0.0/8', port: 8085, reason: 'own API port' },
      { target: '*.corp.example', reason: 'listed' },
    ],
  });

  it("denies every spelling of a denied address, on every port or only the rule's", () => {
    for (const s of [
      '169.254.169.254',
      '2852039166',
      '::ffff:a9fe:a9fe',
      '[::ffff:169.254.169.254]',
      '64:ff9b::a9fe:a9fe',
      'FD00:EC2::254',
    ]) {
      expect(policy.addressDenied(s, 80), s).toBe('cloud metadata address');
    }
    expect(policy.addressDenied('::ffff:127.0.0.1', 8085)).toBe('own API port');
    expect(policy.addressDenied('2130706433', 8085)).toBe('own API port');
    expect(policy.addressDenied('127.0.0.1', 8086)).toBeUndefined();
    expect(policy.addressDenied('169.254.169.253', 80)).toBeUndefined();
  });

  it('denies names by their rules, case and trailing dots ignored', () => {
    expect(policy.nameDenied('Metadata.Google.Internal.', 80)).toBe('cloud metadata address');
    expect(policy.nameDenied('a.b.corp.example', 443)).toBe('listed');
    expect(policy.nameDenied('corp.example', 443)).toBeUndefined();
  });

  it('public only: special ranges refused with their kind, the allow-list let through, deny rules kept', () => {
    const pub = new Egress({
      publicOnly: true,
      allow: ['127.0.0.0/8'],
      deny: [{ target: '127.0.0.1', port: 8085, reason: 'own API port' }],
    });
    expect(pub.addressDenied('10.1.2.3', 443)).toBe('not a public address (private)');
    expect(pub.addressDenied('::ffff:192.168.1.1', 443)).toBe('not a public address (private)');
    expect(pub.addressDenied('169.254.169.254', 80)).toBe('not a public address (link-local)');
    expect(pub.addressDenied('::1', 80)).toBe('not a public address (loopback)');
    expect(pub.addressDenied('0.0.0.0', 80)).toBe('not a public address (this host)');
    expect(pub.addressDenied('fd12::1', 80)).toBe('not a public address (unique local (private))');
    expect(pub.addressDenied('93.184.216.34', 443)).toBeUndefined();
    expect(pub.addressDenied('2606:4700::1', 443)).toBeUndefined();
    expect(pub.addressDenied('127.0.0.5', 9000)).toBeUndefined();
    expect(pub.addressDenied('127.0.0.1', 8085)).toBe('own API port');
  });

  it('refuses a rule it cannot read', () => {
    expect(() => new Egress({ deny: [{ target: 'http://x/', reason: 'r' }] })).toThrow(/not an address/);
    expect(() => new Egress({ publicOnly: true, allow: ['example.com'] })).toThrow(/not an address/);
  });
});

describe('address sets', () => {
  it('merges, subtracts and intersects ranges by arithmetic; an IPv4-mapped range is IPv4', () => {
    const set = (...xs: string[]) => rangesOf(xs.map((x) => parseAddressOrCidr(x)!));
    const r = subtractRanges(
      set('10.0.0.0/30', '10.0.0.4/30', '::ffff:10.0.1.0/126'),
      set('10.0.0.2', '2001:db8::/32'),
    );
    expect([...addressesIn(r)]).toEqual([
      '10.0.0.0',
      '10.0.0.1',
      '10.0.0.3',
      '10.0.0.4',
      '10.0.0.5',
      '10.0.0.6',
      '10.0.0.7',
      '10.0.1.0',
      '10.0.1.1',
      '10.0.1.2',
      '10.0.1.3',
    ]);
    expect(r.v6).toEqual([]);
    expect(rangeSize(intersectRanges(r, set('10.0.0.0/29')))).toBe(7n);
    expect(rangesHave(r, parseAddress('::ffff:10.0.1.2')!)).toBe(true);
    expect(rangesHave(r, parseAddress('10.0.0.2')!)).toBe(false);
    expect(rangeSize(set('::/0'))).toBe(1n << 128n);
  });
});
