// The screenshot browser's proxy: plain requests (absolute form) and CONNECT tunnels go only to what the
// guard allows, names mapped to discovery's own answers first. Driven by a plain HTTP client here; the
// browser itself in test/security/deny-targets.test.ts.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { guardFor } from '../../src/engine/index.ts';
import { startEgressProxy, type EgressProxy } from '../../src/discovery/egress-proxy.ts';

describe('egress proxy', () => {
  let site: TestServer;
  let denied: TestServer;
  let proxy: EgressProxy;
  beforeAll(async () => {
    site = await startHttpServer((_req, res) => res.end('SITE'));
    denied = await startHttpServer((_req, res) => res.end('DENIED'));
    const guard = guardFor({ deny: [{ target: '127.0.0.0/8', port: denied.port, reason: 'own API port' }] })!;
    proxy = await startEgressProxy(guard, new Map([['site.discovered', '127.0.0.1']]));
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all([site?.close(), denied?.close()]);
  });

  const viaProxy = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const p = new URL(proxy.url);
      const req = http.request(
        { host: p.hostname, port: p.port, path: url, headers: { host: new URL(url).host } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  const tunnel = (authority: string) =>
    new Promise<string>((resolve) => {
      const p = new URL(proxy.url);
      const s = net.connect(Number(p.port), p.hostname, () =>
        s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
      );
      let got = '';
      s.on('data', (d) => {
        got += d.toString('latin1');
        if (got.includes('\r\n\r\n') && got.startsWith('HTTP/1.1 200')) {
          if (!got.includes('SITE')) s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
        }
      });
      s.on('close', () => resolve(got));
      s.on('error', () => resolve(got));
    });

  it("forwards plain requests to allowed addresses, names through discovery's answers", async () => {
    expect(await viaProxy(`http://site.discovered:${site.port}/a`)).toEqual({ status: 200, body: 'SITE' });
    expect(site.requests.at(-1)).toMatchObject({ url: '/a', headers: { host: `site.discovered:${site.port}` } });
  });

  it('refuses plain requests and tunnels to denied addresses in any spelling', async () => {
    expect((await viaProxy(`http://[::ffff:127.0.0.1]:${denied.port}/`)).status).toBe(403);
    expect((await viaProxy(`http://2130706433:${denied.port}/`)).status).toBe(403);
    expect(await tunnel(`127.1:${denied.port}`)).toMatch(/^HTTP\/1.1 403/);
    expect(denied.requests).toEqual([]);
  });

  it('tunnels to allowed addresses', async () => {
    expect(await tunnel(`127.0.0.1:${site.port}`)).toMatch(/^HTTP\/1.1 200 Connection Established[\s\S]*SITE/);
  });
});
