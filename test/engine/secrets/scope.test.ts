// Which secret a target gets: exact domains (ports 80/443 dropped), unanchored regexes, one secret per
// target, first match wins and domains beat domains-regex.
import { describe, expect, it } from 'vitest';
import { loadSecretFiles } from '../../../src/engine/secrets/index.ts';
import { tempDir, writeFile } from './fixtures.ts';

/** A store of bearer tokens named after their entry, so the chosen entry is visible in the header. */
async function storeOf(entries: Array<{ name: string; domains?: string[]; regex?: string[] }>, files = 1) {
  const dir = tempDir();
  const paths: string[] = [];
  const per = Math.ceil(entries.length / files);
  for (let f = 0; f < files; f++) {
    const part = entries.slice(f * per, (f + 1) * per);
    const yaml =
      'static:\n' +
      part
        .map(
          (e) =>
            `  - type: bearertoken\n    token: ${e.name}\n` +
            (e.domains
              ? `    domains: ${JSON.stringify(e.domains)}\n`
              : `    domains-regex: ${JSON.stringify(e.regex)}\n`),
        )
        .join('');
    paths.push(writeFile(dir, `s${f}.yaml`, yaml));
  }
  const store = await loadSecretFiles(paths);
  return (url: string) => {
    const req = { url: new URL(url), headers: {} as Record<string, string> };
    store.apply(req);
    return req.headers.Authorization?.replace('Bearer ', '');
  };
}

describe('scope', () => {
  it('domains compare exactly and case-insensitively, no subdomains', async () => {
    const pick = await storeOf([{ name: 'a', domains: ['Example.COM'] }]);
    expect(pick('https://example.com/x')).toBe('a');
    expect(pick('http://EXAMPLE.com/')).toBe('a');
    expect(pick('https://www.example.com/')).toBeUndefined();
    expect(pick('https://example.com.evil.test/')).toBeUndefined();
    expect(pick('http://example.com:8080/')).toBeUndefined();
  });

  it('a domain with a port matches only that port; 80 and 443 are dropped on both sides', async () => {
    const pick = await storeOf([
      { name: 'p8080', domains: ['127.0.0.1:8080'] },
      { name: 'tls', domains: ['secure.test:443'] },
      { name: 'plain', domains: ['plain.test'] },
    ]);
    expect(pick('http://127.0.0.1:8080/a')).toBe('p8080');
    expect(pick('http://127.0.0.1:8081/a')).toBeUndefined();
    expect(pick('http://127.0.0.1/a')).toBeUndefined();
    expect(pick('https://secure.test/')).toBe('tls');
    expect(pick('http://secure.test:443/')).toBe('tls');
    expect(pick('http://plain.test:80/')).toBe('plain');
    expect(pick('https://plain.test:443/')).toBe('plain');
    expect(pick('http://plain.test:8443/')).toBeUndefined();
  });

  it('regexes are unanchored and `.*` matches every target', async () => {
    const pick = await storeOf([{ name: 'corp', regex: ['corp\\.test$'] }]);
    expect(pick('https://intranet.corp.test/')).toBe('corp');
    expect(pick('https://corp.test.evil/')).toBeUndefined();
    const all = await storeOf([{ name: 'all', regex: ['.*'] }]);
    expect(all('http://anything.example:9/')).toBe('all');
    expect(all('http://[::1]:8080/')).toBe('all');
    const port = await storeOf([{ name: 'port', regex: ['^127\\.0\\.0\\.1:90\\d\\d$'] }]);
    expect(port('http://127.0.0.1:9001/')).toBe('port');
    expect(port('http://127.0.0.1:8001/')).toBeUndefined();
  });

  it('first matching entry wins, in file order and across files', async () => {
    const pick = await storeOf(
      [
        { name: 'first', domains: ['dup.test'] },
        { name: 'second', domains: ['dup.test', 'only-second.test'] },
        { name: 're1', regex: ['\\.zone$'] },
        { name: 're2', regex: ['b\\.zone$'] },
      ],
      2,
    );
    expect(pick('https://dup.test/')).toBe('first');
    expect(pick('https://only-second.test/')).toBe('second');
    expect(pick('https://b.zone/')).toBe('re1');
  });

  it('domains take priority over domains-regex even when the regex entry comes first', async () => {
    const pick = await storeOf([
      { name: 'regex-all', regex: ['.*'] },
      { name: 'exact', domains: ['api.test'] },
    ]);
    expect(pick('https://api.test/')).toBe('exact');
    expect(pick('https://web.test/')).toBe('regex-all');
  });

  it('Go-style (?i) prefixes are accepted', async () => {
    const pick = await storeOf([{ name: 'ci', regex: ['(?i)^API\\.TEST$'] }]);
    expect(pick('https://api.test/')).toBe('ci');
  });
});
