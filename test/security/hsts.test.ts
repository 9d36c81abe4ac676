// Served over HTTPS, every answer tells the browser to use nothing but HTTPS for this host
// (Strict-Transport-Security), so a later plain-HTTP link cannot be used to strip TLS and read the session
// cookie. Over plain HTTP the header means nothing to browsers and is left out; VIGIL_HSTS_MAX_AGE=0 too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { localhostCert } from '../helpers/certs.ts';

function get(
  port: number,
  urlPath: string,
  ca: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: urlPath, ca, servername: 'localhost' }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('Strict-Transport-Security', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-hsts-'));
  const pem = localhostCert();
  const tls = { tlsCert: path.join(dir, 'cert.pem'), tlsKey: path.join(dir, 'key.pem') };
  const apps: TestApp[] = [];
  beforeAll(() => {
    writeFileSync(tls.tlsCert, pem.cert);
    writeFileSync(tls.tlsKey, pem.key);
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listen = async (config: Record<string, unknown>) => {
    const t = await createTestApp('pglite', config);
    apps.push(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return { t, port: (t.app.server.address() as AddressInfo).port };
  };

  it('is on every HTTPS answer: API success, error, unknown route and the console', async () => {
    const { port } = await listen(tls);
    for (const [p, status] of [
      ['/healthz', 200],
      ['/v1/scans', 401],
      ['/v1/no-such-route', 404],
      ['/', 200],
    ] as const) {
      const res = await get(port, p, pem.cert);
      expect(res.status, p).toBe(status);
      expect(res.headers['strict-transport-security'], p).toBe('max-age=31536000');
    }
  });

  it('is left out over plain HTTP, and with VIGIL_HSTS_MAX_AGE=0', async () => {
    const { t } = await listen({});
    const plain = await fetch(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/healthz`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const { port } = await listen({ ...tls, hstsMaxAge: 0 });
    const off = await get(port, '/healthz', pem.cert);
    expect(off.status).toBe(200);
    expect(off.headers['strict-transport-security']).toBeUndefined();
  });
});
