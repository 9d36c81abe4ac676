import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../../src/engine/protocols/http/cookies.ts';

describe("CookieJar (RFC 6265 rules, as Go's cookiejar for nuclei)", () => {
  it('stores Set-Cookie values per host and sends them back', () => {
    const jar = new CookieJar();
    jar.store('http://127.0.0.1:80/', ['nuclei=test; Path=/; HttpOnly', 'b=2']);
    expect(jar.cookieHeader('http://127.0.0.1:80/x')).toBe('nuclei=test; b=2');
    expect(jar.cookieHeader('http://other:80/x')).toBeUndefined();
  });

  it('lets a cookie the request sets itself win', () => {
    const jar = new CookieJar();
    jar.store('http://h.test/', ['a=jar', 'b=jar']);
    expect(jar.cookieHeader('http://h.test/', 'a=mine')).toBe('a=mine; b=jar');
  });

  it('replaces by name and deletes on Max-Age=0 or past expiry', () => {
    const jar = new CookieJar();
    jar.store('http://h.test/', ['a=1', 'b=1', 'c=1']);
    jar.store('http://h.test/', ['a=2', 'b=; Max-Age=0', 'c=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
    expect([...jar.get('http://h.test/')]).toEqual([['a', '2']]);
  });

  it('matches paths by segment: /admin covers /admin/x, not /administrator', () => {
    const jar = new CookieJar();
    jar.store('http://h.test/admin/login', ['s=1; Path=/admin']);
    expect(jar.get('http://h.test/admin/x').get('s')).toBe('1');
    expect(jar.get('http://h.test/admin').get('s')).toBe('1');
    expect(jar.get('http://h.test/administrator').has('s')).toBe(false);
    expect(jar.get('http://h.test/public').has('s')).toBe(false);
  });

  it('sends Secure cookies over https only', () => {
    const jar = new CookieJar();
    jar.store('https://h.test/', ['sec=1; Secure', 'plain=1']);
    expect([...jar.get('https://h.test/').keys()].sort()).toEqual(['plain', 'sec']);
    expect([...jar.get('http://h.test/').keys()]).toEqual(['plain']);
  });

  it('keeps Domain cookies to the domain and its subdomains, host-only ones to the host, and refuses public suffixes', () => {
    const jar = new CookieJar();
    jar.store('http://www.example.com/', [
      'dom=1; Domain=example.com',
      'host=1',
      'tld=1; Domain=com',
      'other=1; Domain=example.org',
    ]);
    expect([...jar.get('http://www.example.com/').keys()].sort()).toEqual(['dom', 'host']);
    expect([...jar.get('http://api.example.com/').keys()]).toEqual(['dom']);
    expect(jar.get('http://example.org/').size).toBe(0);
    expect(jar.get('http://elsewhere.com/').size).toBe(0);
  });
});
