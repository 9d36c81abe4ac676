import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../../src/engine/protocols/http/cookies.ts';

describe('CookieJar', () => {
  it('stores Set-Cookie values per host and sends them back', () => {
    const jar = new CookieJar();
    jar.store('127.0.0.1:80', ['nuclei=test; Path=/; HttpOnly', 'b=2']);
    expect(jar.cookieHeader('127.0.0.1:80', '/x')).toBe('nuclei=test; b=2');
    expect(jar.cookieHeader('other:80', '/x')).toBeUndefined();
  });

  it('lets a cookie the request sets itself win', () => {
    const jar = new CookieJar();
    jar.store('h', ['a=jar', 'b=jar']);
    expect(jar.cookieHeader('h', '/', 'a=mine')).toBe('a=mine; b=jar');
  });

  it('replaces by name and deletes on Max-Age=0 or past expiry', () => {
    const jar = new CookieJar();
    jar.store('h', ['a=1', 'b=1', 'c=1']);
    jar.store('h', ['a=2', 'b=; Max-Age=0', 'c=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
    expect([...jar.get('h')]).toEqual([['a', '2']]);
  });

  it('respects cookie paths', () => {
    const jar = new CookieJar();
    jar.store('h', ['s=1; Path=/admin']);
    expect(jar.get('h', '/admin/x').get('s')).toBe('1');
    expect(jar.get('h', '/public').has('s')).toBe(false);
  });
});
