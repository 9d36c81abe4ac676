import { describe, expect, it } from 'vitest';
import { mergePaths, parseDuration, parseRaw, stripAnnotations } from '../../../../src/engine/protocols/http/raw.ts';

describe('parseRaw', () => {
  it('reads request line, headers and body, dropping the YAML trailing newline', () => {
    const r = parseRaw(
      'POST /login?x=1 HTTP/1.1\nHost: example.com\nContent-Length: 1\n\nusername=test&password=nuclei\n',
    );
    expect(r.method).toBe('POST');
    expect(r.target).toBe('/login?x=1');
    expect(r.version).toBe('HTTP/1.1');
    expect(r.headers).toEqual([
      ['Host', 'example.com'],
      ['Content-Length', '1'],
    ]);
    expect(r.body).toBe('username=test&password=nuclei');
  });

  it('keeps a request without body and header values containing colons', () => {
    const r = parseRaw('GET / HTTP/1.1\r\nHost: a:8080\r\nX-Time: 10:20:30\r\n');
    expect(r.body).toBeUndefined();
    expect(r.headers).toEqual([
      ['Host', 'a:8080'],
      ['X-Time', '10:20:30'],
    ]);
  });

  it('accepts targets without leading slash and absolute URLs', () => {
    expect(parseRaw('GET ?test=nuclei HTTP/1.1\nHost: x\n').target).toBe('?test=nuclei');
    expect(parseRaw('GET http://127.0.0.1:5431/one HTTP/1.1\n').target).toBe('http://127.0.0.1:5431/one');
  });

  it('reads @timeout and @tls-sni annotations and strips them', () => {
    const { text, annotations } = stripAnnotations(
      '@timeout: 5s\n@tls-sni: request.host\nGET / HTTP/1.1\nHost: test\n',
    );
    expect(annotations).toEqual({ timeout: 5000, tlsSni: 'request.host' });
    expect(text.startsWith('GET / HTTP/1.1')).toBe(true);
    expect(parseRaw('@timeout: 250ms\nGET / HTTP/1.1\n').annotations.timeout).toBe(250);
  });

  it('parses durations', () => {
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('2m')).toBe(120000);
    expect(parseDuration('3')).toBe(3000);
    expect(parseDuration('soon')).toBeUndefined();
  });
});

describe('mergePaths', () => {
  it('appends the request path to the input path', () => {
    expect(mergePaths('/api/v1/user', '', '/api/v1/test?id=123')).toBe('/api/v1/user/api/v1/test?id=123');
    expect(mergePaths('/app/', '', '/login')).toBe('/app/login');
  });
  it('keeps the input path for a bare slash', () => {
    expect(mergePaths('/index.php', '', '/')).toBe('/index.php');
    expect(mergePaths('', '', '/')).toBe('/');
  });
  it('merges query strings once each, input first', () => {
    expect(mergePaths('/', 'key1=value1', '/?key2=value2')).toBe('/?key1=value1&key2=value2');
    expect(mergePaths('', 'a=1', '/?a=1')).toBe('/?a=1');
    expect(mergePaths('', '', '?test=nuclei')).toBe('/?test=nuclei');
  });
  it('never normalises dot segments or escapes', () => {
    expect(mergePaths('', '', '/test/..;/..;/')).toBe('/test/..;/..;/');
    expect(mergePaths('', '', '/xyz/%u2s/%invalid')).toBe('/xyz/%u2s/%invalid');
  });
});
