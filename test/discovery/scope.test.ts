// Discovery's scope: ranges of the IP roots counted and walked without being listed, exclusions and
// inclusions applied by arithmetic, glob patterns matched without backtracking, ports as ranges.
import { describe, expect, it } from 'vitest';
import { parsePortRanges, parsePorts, parseRoot, portCount, scopeOf, workOf } from '../../src/discovery/index.ts';
import { addressesIn, rangeSize } from '../../src/engine/index.ts';

const roots = (...xs: string[]) => xs.map(parseRoot);

describe('discovery scope', () => {
  it('merges overlapping roots, subtracts address exclusions, narrows to address inclusions', () => {
    const scope = scopeOf(['10.0.0.128/25', '10.0.0.7', '*.example.test']);
    const r = scope.ranges(roots('10.0.0.0/24', '10.0.0.0/25', '10.0.0.5', 'example.test'));
    expect(rangeSize(r)).toBe(127n);
    const all = [...addressesIn(r)];
    expect(all).toHaveLength(127);
    expect(all).not.toContain('10.0.0.7');
    expect(all.at(-1)).toBe('10.0.0.127');
    const only = scopeOf(['+10.0.0.16/28', '+10.9.9.9']).ranges(roots('10.0.0.0/24', '10.9.9.0/24'));
    expect([...addressesIn(only)]).toEqual([...Array.from({ length: 16 }, (_, i) => `10.0.0.${16 + i}`), '10.9.9.9']);
    // A glob inclusion could match addresses: the ranges stay, and each address is checked.
    const glob = scopeOf(['+10.0.0.1*']);
    const kept = [...addressesIn(glob.ranges(roots('10.0.0.0/24')))].filter((ip) => glob.allowsInRanges(ip));
    expect(kept).toHaveLength(111);
  });

  it('counts a thousand /16 ranges by arithmetic and walks them lazily', () => {
    const many = roots(...Array.from({ length: 1000 }, (_, i) => `${11 + (i >> 8)}.${i & 255}.0.0/16`));
    const started = performance.now();
    const r = scopeOf(['11.0.0.0/8']).ranges(many);
    expect(rangeSize(r)).toBe(744n * 65_536n);
    const it = addressesIn(r);
    expect(it.next().value).toBe('12.0.0.0');
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('walks IPv6 ranges', () => {
    const r = scopeOf(['2001:db8::2']).ranges(roots('2001:db8::/126'));
    expect([...addressesIn(r)]).toEqual(['2001:db8::', '2001:db8::1', '2001:db8::3']);
  });

  it('matches many-star globs in linear time (no regex backtracking)', () => {
    const pattern = '*a'.repeat(60) + 'b';
    const scope = scopeOf([pattern]);
    const started = performance.now();
    expect(scope.allows('a'.repeat(200) + '.example.test')).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
    expect(scopeOf(['*.example.test']).allows('www.example.test')).toBe(false);
    expect(scopeOf(['prefix-*']).allows('prefix-one.example.test')).toBe(false);
    expect(scopeOf(['prefix-*']).allows('other.example.test')).toBe(true);
  });

  it('parses ports as ranges: a spec repeating "1-65535" is counted, not listed', () => {
    const spec = Array(400).fill('1-65535').join(',');
    const started = performance.now();
    expect(portCount(parsePortRanges(spec))).toBe(65_535);
    expect(performance.now() - started).toBeLessThan(100);
    expect(parsePortRanges('443,80,81-90,85')).toEqual([
      [80, 90],
      [443, 443],
    ]);
    expect(parsePorts('full')).toHaveLength(65_535);
  });

  it('workOf counts address-port pairs and brute-force names', () => {
    const w = workOf({
      roots: ['10.0.0.0/16', 'example.test', 'example.org'],
      exclusions: ['10.0.1.0/24'],
      ports: '80,443',
      steps: ['dns_bruteforce', 'port_scan'],
      wordlist: ['www', 'WWW', 'api', 'bad word'],
    });
    expect(w).toEqual({
      addresses: 65_536n - 256n + 2n,
      ports: 2,
      pairs: (65_536n - 256n + 2n) * 2n,
      domains: 2,
      words: 2,
      names: 4n,
    });
    expect(workOf({ roots: ['10.0.0.0/16'], steps: ['dns_resolve'] }).pairs).toBe(0n);
  });
});
