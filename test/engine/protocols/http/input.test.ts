import { describe, expect, it } from 'vitest';
import { inputVariables, normalizeTarget } from '../../../../src/engine/protocols/http/input.ts';

describe('built-in input variables', () => {
  it('follows the engine notes for http://localhost:9001/test/123', () => {
    const v = inputVariables('http://localhost:9001/test/123');
    expect(v).toMatchObject({
      BaseURL: 'http://localhost:9001/test/123',
      RootURL: 'http://localhost:9001',
      Hostname: 'localhost:9001',
      Host: 'localhost',
      Port: '9001',
      Path: '/test',
      File: '123',
      Scheme: 'http',
      Input: 'http://localhost:9001/test/123',
    });
  });

  it('fills default ports and DNS parts from the public suffix list', () => {
    const v = inputVariables('https://www.api.example.co.uk/a?x=1');
    expect(v.Port).toBe('443');
    expect(v.Query).toBe('x=1');
    expect(v.FQDN).toBe('www.api.example.co.uk');
    expect(v.RDN).toBe('example.co.uk');
    expect(v.DN).toBe('example');
    expect(v.TLD).toBe('co.uk');
    expect(v.SD).toBe('www.api');
  });

  it('uses the IP itself for FQDN and RDN of an IP target', () => {
    const v = inputVariables('http://127.0.0.1:8080');
    expect(v.FQDN).toBe('127.0.0.1');
    expect(v.Path).toBe('');
    expect(v.File).toBe('');
  });

  it('adds a scheme to bare targets', () => {
    expect(normalizeTarget('example.com')).toBe('http://example.com');
    expect(normalizeTarget('example.com:443')).toBe('https://example.com:443');
  });
});
