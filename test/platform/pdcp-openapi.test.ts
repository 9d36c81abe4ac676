// The helper other tests use to hold answers to the hosted platform's schemas: it must find the right
// operation for a concrete path and tell a matching answer from one that is not.
import { describe, expect, it } from 'vitest';
import { assertPdcpAnswer, hasPdcpOpenApi, pdcpOperations, pdcpPath } from '../helpers/pdcp-openapi.ts';

describe.skipIf(!hasPdcpOpenApi())("the hosted platform's OpenAPI as a test oracle", () => {
  it('knows its 125 operations and maps concrete paths to their templates, literal segments first', () => {
    expect(pdcpOperations()).toHaveLength(125);
    expect(pdcpPath('GET', '/v1/scans/vuln/changelogs')).toBe('/v1/scans/vuln/changelogs');
    expect(pdcpPath('GET', '/v1/scans/vuln/abc123')).toBe('/v1/scans/vuln/{vuln_id}');
    expect(pdcpPath('PATCH', '/v1/scans/vulns?x=1')).toBe('/v1/scans/vulns');
    expect(pdcpPath('GET', '/v1/nothing/here')).toBeUndefined();
  });

  it('accepts an answer of the documented shape and names what a wrong one lacks', () => {
    expect(assertPdcpAnswer('PATCH', '/v1/scans/vulns', 200, { message: 'updated' })).toBe('/v1/scans/vulns');
    expect(() => assertPdcpAnswer('PATCH', '/v1/scans/vulns', 200, { nope: 1 })).toThrow(/required property 'message'/);
    expect(() => assertPdcpAnswer('PATCH', '/v1/scans/vulns', 400, { message: 1 })).toThrow(/must be string/);
    expect(() => assertPdcpAnswer('GET', '/v1/scans/history', 200, {})).toThrow(/current_page/);
    expect(() => assertPdcpAnswer('GET', '/v1/not/documented', 200, {})).toThrow(/has no GET/);
  });
});
