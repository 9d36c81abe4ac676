// secretValues(): every concrete value in each form it can take on the wire, longest first.
import { describe, expect, it } from 'vitest';
import { loadSecretFiles, redact, redactDeep } from '../../../src/engine/secrets/index.ts';
import { CREDS, entryYaml, tempDir, writeFile } from './fixtures.ts';

describe('secret values for redaction', () => {
  it('lists passwords, base64 credentials, tokens, header, cookie and query values, not names', async () => {
    const types = ['basicauth', 'bearertoken', 'header', 'cookie', 'query'];
    const yaml = 'static:\n' + types.map((t, i) => entryYaml(t, `h${i}.test`)).join('');
    const store = await loadSecretFiles([writeFile(tempDir(), 's.yaml', yaml)]);
    const values = store.secretValues();
    const basic = Buffer.from(`${CREDS.user}:${CREDS.password}`).toString('base64');
    expect(new Set(values)).toEqual(
      new Set([
        CREDS.password,
        basic,
        CREDS.token,
        CREDS.apiKey,
        CREDS.session,
        CREDS.queryKey,
        encodeURIComponent(CREDS.queryKey),
      ]),
    );
    expect(values.map((v) => v.length)).toEqual([...values.map((v) => v.length)].sort((a, b) => b - a));
    expect(values).not.toContain(CREDS.user);
  });

  it('redacts every occurrence in a request as sent', async () => {
    const store = await loadSecretFiles([
      writeFile(tempDir(), 's.yaml', `static:\n${entryYaml('query', 'q.test')}${entryYaml('basicauth', 'q.test')}`),
    ]);
    const req = { url: new URL('http://q.test/a?x=1'), headers: {} as Record<string, string> };
    store.apply(req); // only the first matching entry (query) applies
    const raw = `GET ${req.url.pathname}${req.url.search} HTTP/1.1\r\nHost: q.test\r\n\r\necho ${CREDS.queryKey}`;
    const out = redact(raw, store.secretValues());
    expect(out).toBe('GET /a?x=1&api_key=[REDACTED] HTTP/1.1\r\nHost: q.test\r\n\r\necho [REDACTED]');
  });

  it('a header value with an auth scheme also yields its bare credential', async () => {
    const store = await loadSecretFiles([
      writeFile(
        tempDir(),
        'h.yaml',
        `static:
  - type: header
    domains: [a.test]
    headers: [{key: Authorization, value: "Token abcdef123"}, {key: X-Flag, value: "on"}]
`,
      ),
    ]);
    // `on` is too short to redact (it would replace every "on" in a response).
    expect(store.secretValues()).toEqual(['Token abcdef123', 'abcdef123']);
  });

  it('redactDeep covers nested strings and leaves other values alone', () => {
    const ev = { host: 'http://h/?k=SECRET', list: ['xSECRETx', 3], nested: { ok: true, s: 'SECRET' } };
    expect(redactDeep(ev, ['SECRET'])).toEqual({
      host: 'http://h/?k=[REDACTED]',
      list: ['x[REDACTED]x', 3],
      nested: { ok: true, s: '[REDACTED]' },
    });
    expect(ev.host).toBe('http://h/?k=SECRET');
  });
});
