import { describe, expect, it } from 'vitest';
import { checkTarget, expandTargets, isInternalTarget, scopeFilter } from '../../../src/platform/scans/targets.ts';
import { ApiError } from '../../../src/platform/shared/errors.ts';
import { hostOf } from '../../../src/platform/shared/target-patterns.ts';
import { parseRoot, scopeOf } from '../../../src/discovery/index.ts';
import { addressesIn } from '../../../src/engine/index.ts';

const keepAll = () => true;

describe('scan targets', () => {
  it('finds the host of URLs, host:port, IPv6 and bare names', () => {
    expect(hostOf('https://App.Example.com:8443/x?y')).toBe('app.example.com');
    expect(hostOf('example.com:8080')).toBe('example.com');
    expect(hostOf('[::1]:80')).toBe('::1');
    expect(hostOf('http://[::1]:8080/')).toBe('::1');
    expect(hostOf('10.0.0.1')).toBe('10.0.0.1');
  });

  it('accepts URLs, names, IPs and CIDRs; rejects junk with the param named', () => {
    for (const ok of [
      'http://127.0.0.1:8080/a',
      'example.com',
      'a.b.example.com:443',
      '10.0.0.0/30',
      '::1',
      'fe80::/126',
    ]) {
      expect(() => checkTarget(ok, 'targets[0]')).not.toThrow();
    }
    for (const bad of ['', 'has space.com', 'http://', 'exa mple', '!!!']) {
      try {
        checkTarget(bad, 'targets[3]');
        expect.unreachable(`accepted ${bad}`);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).param).toBe('targets[3]');
      }
    }
  });

  it('expands CIDR ranges and removes duplicates', () => {
    expect(expandTargets(['192.168.1.0/30', '192.168.1.1'], keepAll, 100)).toEqual({
      targets: ['192.168.1.0', '192.168.1.1', '192.168.1.2', '192.168.1.3'],
      truncated: 0,
      inputsUsed: 1,
    });
    expect(expandTargets(['fe80::/127'], keepAll, 10).targets).toEqual(['fe80::', 'fe80::1']);
  });

  it('cuts at the maximum and counts the rest without listing a huge range', () => {
    const r = expandTargets(['a.com', '10.0.0.0/8'], keepAll, 5, 1 << 24);
    expect(r.targets).toEqual(['a.com', '10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(r.truncated).toBe(16_777_216 - 4);
    expect(r.inputsUsed).toBe(2);
  });

  it('subtracts excluded ranges arithmetically: a range minus itself costs nothing, even ::/0', () => {
    const started = Date.now();
    const whole = scopeFilter([{ value: '10.0.0.0/8', param: 'exclusions[0]' }]);
    expect(expandTargets(['10.0.0.0/8'], whole, 10_000, 1 << 24)).toEqual({ targets: [], truncated: 0, inputsUsed: 0 });
    const v6 = scopeFilter([{ value: '::/0', param: 'exclusions[0]' }]);
    expect(expandTargets(['::/0', 'a.com'], v6, 10_000).targets).toEqual(['a.com']);
    // Holes cut from the middle of a range: only what is left is listed, in order.
    const holes = scopeFilter([
      { value: '10.1.0.0/30', param: 'e[0]' },
      { value: '10.1.0.5', param: 'e[1]' },
    ]);
    expect(expandTargets(['10.1.0.0/29'], holes, 100).targets).toEqual(['10.1.0.4', '10.1.0.6', '10.1.0.7']);
    // An allow-list of ranges intersects arithmetically too.
    const allow = scopeFilter([{ value: '+10.2.0.8/31', param: 'e[0]' }]);
    expect(expandTargets(['10.2.0.0/16'], allow, 100).targets).toEqual(['10.2.0.8', '10.2.0.9']);
    expect(Date.now() - started).toBeLessThan(5_000); // walking 2^24 addresses alone took 47 s before
  });

  it('refuses ranges larger than the limit after exclusions, naming the input', () => {
    expect(() => expandTargets(['a.com', '10.0.0.0/8'], keepAll, 5)).toThrow(/VIGIL_MAX_RANGE_ADDRESSES/);
    try {
      expandTargets(['a.com', '::/0'], keepAll, 5);
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).param).toBe('targets[1]');
      expect((err as ApiError).message).toContain('more than 10^12');
    }
    // The same /8 is fine once exclusions leave less than the limit.
    const keep = scopeFilter([{ value: '+10.3.0.0/16', param: 'e[0]' }]);
    expect(expandTargets(['10.0.0.0/8'], keep, 3).truncated).toBe(65_536 - 3);
  });

  it('applies wildcard, IP, CIDR and exact exclusions', () => {
    const keep = scopeFilter([
      { value: '*.staging.example.com', param: 'exclusions[0]' },
      { value: '10.0.0.0/24', param: 'exclusions[1]' },
      { value: '192.168.0.7', param: 'exclusions[2]' },
      { value: 'http://127.0.0.1:9/skip', param: 'exclude_targets[0]' },
    ]);
    const input = [
      'https://a.staging.example.com',
      'staging.example.com',
      'https://www.example.com',
      '10.0.0.9',
      '10.0.1.9',
      '192.168.0.7',
      'http://192.168.0.7:8080',
      'http://127.0.0.1:9/skip',
      'http://127.0.0.1:9/keep',
    ];
    expect(input.filter(keep)).toEqual([
      'staging.example.com',
      'https://www.example.com',
      '10.0.1.9',
      'http://127.0.0.1:9/keep',
    ]);
  });

  it('treats + patterns as an allow-list, with exclusions still applied', () => {
    const keep = scopeFilter([
      { value: '+prod-*.example.com', param: 'exclusions[0]' },
      { value: '+10.1.0.0/16', param: 'exclusions[1]' },
      { value: 'prod-db.example.com', param: 'exclusions[2]' },
    ]);
    const input = ['https://prod-web.example.com', 'prod-db.example.com', 'dev.example.com', '10.1.2.3', '10.2.0.1'];
    expect(input.filter(keep)).toEqual(['https://prod-web.example.com', '10.1.2.3']);
  });

  it('tells internal targets from external ones', () => {
    for (const t of [
      'http://127.0.0.1:8080',
      '10.1.2.3',
      'https://192.168.1.10/x',
      'http://[::1]:80',
      'db.internal',
      'localhost:3000',
      'fd00::1',
    ]) {
      expect(isInternalTarget(t), t).toBe(true);
    }
    for (const t of ['https://example.com', '8.8.8.8', 'http://[2001:db8::1]/', '172.32.0.1'])
      expect(isInternalTarget(t), t).toBe(false);
  });
});

// Scans and discovery read addresses and ranges with the engine's one address module, so a pattern means
// the same in both: an IPv4-mapped range is the IPv4 range it maps, and an address in any spelling
// (IPv4-mapped included) is the one address.
describe('scan and discovery scopes agree', () => {
  const excluded = (pattern: string, target: string) => {
    const scan = !scopeFilter([{ value: pattern, param: 'exclusions[0]' }])(target);
    const discovery = !scopeOf([pattern]).allows(target);
    expect(discovery, `${pattern} vs ${target}: discovery and scans disagree`).toBe(scan);
    return scan;
  };

  it('::ffff:10.0.0.0/120 is 10.0.0.0/24: ::ffff:10.9.9.9 stays in both, ::ffff:10.0.0.9 is out of both', () => {
    expect(excluded('::ffff:10.0.0.0/120', '::ffff:10.9.9.9')).toBe(false);
    expect(excluded('::ffff:10.0.0.0/120', '10.9.9.9')).toBe(false);
    expect(excluded('::ffff:10.0.0.0/120', '::ffff:10.0.0.9')).toBe(true);
    expect(excluded('::ffff:10.0.0.0/120', '::ffff:a00:9')).toBe(true);
    expect(excluded('::ffff:10.0.0.0/120', '10.0.0.9')).toBe(true);
    expect(excluded('10.0.0.0/24', '::ffff:10.0.0.9')).toBe(true);
    expect(excluded('10.0.0.9', '::ffff:10.0.0.9')).toBe(true);
    expect(excluded('::ffff:10.0.0.9', '10.0.0.9')).toBe(true);
    expect(excluded('2001:db8::/120', '2001:db8::ff')).toBe(true);
    expect(excluded('2001:db8::/120', '2001:db8::100')).toBe(false);
  });

  it('expands an IPv4-mapped range to the same IPv4 addresses, minus the same exclusions', () => {
    const scan = expandTargets(
      ['::ffff:10.0.0.0/126'],
      scopeFilter([{ value: '::ffff:10.0.0.2', param: 'exclusions[0]' }]),
      100,
    ).targets;
    const scope = scopeOf(['::ffff:10.0.0.2']);
    const discovery = [...addressesIn(scope.ranges([parseRoot('::ffff:10.0.0.0/126')]))];
    expect(scan).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.3']);
    expect(discovery).toEqual(scan);
  });
});
