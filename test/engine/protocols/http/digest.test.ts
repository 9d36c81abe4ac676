import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestAuthorization, parseChallenge } from '../../../../src/engine/protocols/http/digest.ts';

describe('digest auth', () => {
  it('answers the RFC 2617 example challenge', () => {
    const ch = parseChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    )!;
    expect(ch.realm).toBe('testrealm@host.com');
    const header = digestAuthorization(
      ch,
      'GET',
      '/dir/index.html',
      'Mufasa',
      'Circle Of Life',
      '0a4f113b',
      '00000001',
    );
    expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(header).toContain('qop=auth');
  });

  it('works without qop', () => {
    const ch = parseChallenge('Digest realm="r", nonce="n"')!;
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const expected = md5(`${md5('u:r:p')}:n:${md5('GET:/x')}`);
    expect(digestAuthorization(ch, 'GET', '/x', 'u', 'p')).toContain(`response="${expected}"`);
  });
});
