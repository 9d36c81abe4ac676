// Errors answered before any route — by Node's HTTP parser (headers too large, a malformed request) or
// by Fastify (a URL that does not decode) — carry the spec's error body like every other error.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(text));
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    sock.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    sock.on('error', reject);
  });
}

describe('errors before routing use the error body', () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => t?.close());

  const bodyOf = (res: string) => JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));

  it('431 for headers too large, with the spec body', async () => {
    const res = await rawRequest(port, `GET /v1/scans HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(res)).toEqual({ message: 'request headers are too large', code: 'headers_too_large', status: 431 });
  });

  it('400 for a malformed request, with the spec body', async () => {
    const res = await rawRequest(port, 'NOT A REQUEST\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(res)).toMatchObject({ code: 'bad_request', status: 400, message: expect.any(String) });
  });

  it('400 for a URL that does not decode', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/scans/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, message: expect.any(String), code: expect.any(String) });
  });
});
