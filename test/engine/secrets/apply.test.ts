// Static secrets against a real protected server: each type opens its endpoint, nothing else does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretFiles, type SecretStore } from '../../../src/engine/secrets/index.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { CREDS, entryYaml, protectedHandler, tempDir, writeFile } from './fixtures.ts';

let server: TestServer;
let host: string;
beforeAll(async () => {
  server = await startHttpServer(protectedHandler);
  host = `127.0.0.1:${server.port}`;
});
afterAll(() => server.close());

/** Sends a GET the way the runner does: build URL and headers, let the store apply, then send. */
async function send(store: SecretStore | undefined, url: string, headers: Record<string, string> = {}) {
  const req = { url: new URL(url), headers: { ...headers } };
  store?.apply(req);
  const res = await fetch(req.url, { headers: req.headers });
  return { status: res.status, body: await res.text(), sent: req };
}

const TYPES = ['basicauth', 'bearertoken', 'header', 'cookie', 'query'] as const;

describe('static secrets reach protected endpoints', () => {
  for (const type of TYPES) {
    it(`${type}: granted with the secret, denied without it`, async () => {
      const file = writeFile(tempDir(), 's.yaml', `static:\n${entryYaml(type, host)}`);
      const store = await loadSecretFiles([file]);
      const path = type === 'bearertoken' ? '/bearer' : type === 'basicauth' ? '/basic' : `/${type}`;
      expect((await send(undefined, server.url + path)).status).toBe(401);
      const granted = await send(store, server.url + path);
      expect(granted).toMatchObject({ status: 200, body: `granted:${path.slice(1)}` });
      // A secret opens only its own door.
      const other = TYPES.find((t) => t !== type)!;
      const otherPath = other === 'bearertoken' ? '/bearer' : other === 'basicauth' ? '/basic' : `/${other}`;
      expect((await send(store, server.url + otherPath)).status).toBe(401);
    });
  }
});

describe('applying', () => {
  it('overrides a template header of any case and replaces a same-name cookie, keeping others', async () => {
    const text = `static:\n${entryYaml('bearertoken', host)}`;
    const store = await loadSecretFiles([writeFile(tempDir(), 's.yml', text)]);
    const r = await send(store, server.url + '/bearer', { authorization: 'Bearer wrong' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.sent.headers).filter((k) => k.toLowerCase() === 'authorization')).toHaveLength(1);

    const cookieStore = await loadSecretFiles([
      writeFile(tempDir(), 'c.yaml', `static:\n${entryYaml('cookie', host)}`),
    ]);
    const c = await send(cookieStore, server.url + '/cookie', { Cookie: 'a=1; session=stale; b=2' });
    expect(c.status).toBe(200);
    expect(c.sent.headers.Cookie).toBe(`a=1; session=${CREDS.session}; b=2`);
  });

  it('appends query parameters after the template ones without re-encoding them', async () => {
    const store = await loadSecretFiles([
      writeFile(
        tempDir(),
        'q.json',
        JSON.stringify({
          static: [{ type: 'query', domains: [host], params: [{ key: 'api_key', value: CREDS.queryKey }] }],
        }),
      ),
    ]);
    const r = await send(store, `${server.url}/query?x=%27a%20b`);
    expect(r.status).toBe(200);
    expect(r.sent.url.search).toBe(`?x=%27a%20b&api_key=${encodeURIComponent(CREDS.queryKey)}`);
  });

  it('header type sets several headers; cookie type with key/value pairs', async () => {
    const store = await loadSecretFiles([
      writeFile(
        tempDir(),
        'h.yaml',
        `static:
  - type: header
    domains: ["${host}"]
    headers:
      - {key: X-Api-Key, value: ${CREDS.apiKey}}
      - {key: X-Second, value: two}
  - type: cookie
    domains: ["other.test"]
    cookies:
      - {key: session, value: ${CREDS.session}}
      - {key: lang, value: en}
`,
      ),
    ]);
    const r = await send(store, server.url + '/header', { 'x-api-key': 'old' });
    expect(r.status).toBe(200);
    expect(r.sent.headers).toEqual({ 'X-Api-Key': CREDS.apiKey, 'X-Second': 'two' });
    const c = { url: new URL('http://other.test/'), headers: {} as Record<string, string> };
    store.apply(c);
    expect(c.headers).toEqual({ Cookie: `session=${CREDS.session}; lang=en` });
  });
});
