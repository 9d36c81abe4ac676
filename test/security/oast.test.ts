// The OAST server under attack: one client cannot read, take over or remove another's interactions (the
// secret is checked, a correlation id cannot be registered twice, the data is sealed for the owner's key);
// the token guards the client API; oversized and garbage input to every listener (HTTP API, DNS over UDP
// and TCP, SMTP, LDAP) gets an error or a closed connection, and the listener keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { Resolver } from 'node:dns/promises';
import * as dnsPacket from 'dns-packet';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { TestInteractshClient } from '../oast/interactsh-client.ts';
import { waitFor } from '../helpers/wait.ts';

const DOMAIN = 'sec.oast.test';
const TOKEN = 'oast-token-for-tests';
let server: OastServer;

function hit(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: server.ports.http, path: '/', headers: { host: name } }, (r) => {
        r.resume();
        r.on('end', () => resolve(r.statusCode!));
      })
      .on('error', reject);
  });
}

/** Waits for the server's greeting, then sends `data` at once and collects everything until close. */
function smtpRaw(port: number, data: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let got = '';
    let sent = false;
    s.on('data', (d) => {
      got += d.toString();
      if (!sent && got.includes('\r\n')) {
        sent = true;
        s.write(data);
      }
    });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
    s.setTimeout(20_000, () => s.destroy());
  });
}

function rawTcp(port: number, data: Buffer | string, endAfter = true): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.write(data);
      if (endAfter) s.end();
    });
    const got: Buffer[] = [];
    s.on('data', (d) => got.push(d));
    s.on('close', () => resolve(Buffer.concat(got)));
    s.on('error', () => resolve(Buffer.concat(got)));
    s.setTimeout(10_000, () => s.destroy());
  });
}

async function dnsAnswers(): Promise<string[]> {
  const r = new Resolver({ timeout: 2000, tries: 1 });
  r.setServers([`127.0.0.1:${server.ports.dns}`]);
  return r.resolve4(`alive.${DOMAIN}`);
}

async function apiAlive(): Promise<boolean> {
  const c = new TestInteractshClient(server.localUrl, DOMAIN, TOKEN);
  return (await c.register()).status === 200;
}

beforeAll(async () => {
  server = await startOast(
    oastConfigFromEnv({
      VIGIL_OAST_DOMAIN: DOMAIN,
      VIGIL_OAST_IP: '127.0.0.1',
      VIGIL_OAST_HTTP: '127.0.0.1:0',
      VIGIL_OAST_DNS: '127.0.0.1:0',
      VIGIL_OAST_SMTP: '127.0.0.1:0',
      VIGIL_OAST_LDAP: '127.0.0.1:0',
      VIGIL_OAST_TOKEN: TOKEN,
    })!,
  );
});
afterAll(async () => {
  await server?.close();
});

describe('OAST clients are kept apart', () => {
  it("a client cannot poll, deregister or re-register another client's id", async () => {
    const alice = new TestInteractshClient(server.localUrl, DOMAIN, TOKEN);
    const mallory = new TestInteractshClient(server.localUrl, DOMAIN, TOKEN);
    expect((await alice.register()).status).toBe(200);
    expect((await mallory.register()).status).toBe(200);
    const name = alice.name();
    await hit(name);

    // Alice's id with Mallory's secret, or with no secret: refused, and nothing handed over.
    const stolen = await mallory.pollRaw(alice.correlationId, mallory.secret);
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toEqual({ error: 'invalid secret key passed for user' });
    expect((await mallory.pollRaw(alice.correlationId, '')).status).toBe(400);
    // Case and length variants of the secret do not pass either.
    expect((await mallory.pollRaw(alice.correlationId, alice.secret.toUpperCase())).status).toBe(400);
    expect((await mallory.pollRaw(alice.correlationId, alice.secret + 'x')).status).toBe(400);

    // Deregistering Alice with Mallory's secret fails; registering Alice's id again with Mallory's key too.
    const dereg = await fetch(`${server.localUrl}/deregister`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ 'correlation-id': alice.correlationId, 'secret-key': mallory.secret }),
    });
    expect(dereg.status).toBe(400);
    const hijack = await fetch(`${server.localUrl}/register`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        'public-key': mallory.publicKeyField(),
        'secret-key': mallory.secret,
        'correlation-id': alice.correlationId,
      }),
    });
    expect(hijack.status).toBe(400);
    expect(await hijack.json()).toEqual({ error: 'correlation-id provided already exists' });

    // Mallory's own polls never carry Alice's interaction; Alice still gets it.
    expect(await mallory.poll()).toEqual([]);
    const mine = await waitFor(async () => (await alice.poll()).find((i) => name.startsWith(i['unique-id'])));
    expect(mine.protocol).toBe('http');
  });

  it('the poll answer is readable only with the registering private key', async () => {
    const alice = new TestInteractshClient(server.localUrl, DOMAIN, TOKEN);
    await alice.register();
    await hit(alice.name());
    const body = await waitFor(async () => {
      const b = (await (await alice.pollRaw()).json()) as { data: string[]; aes_key: string };
      return b.data?.length ? b : undefined;
    });
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(() =>
      crypto.privateDecrypt(
        { key: other.privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(body.aes_key, 'base64'),
      ),
    ).toThrow();
    // The stored data is not the interaction in the clear.
    expect(Buffer.from(body.data[0]!, 'base64').toString('latin1')).not.toContain('"protocol"');
  });

  it('the client API wants the token', async () => {
    const c = new TestInteractshClient(server.localUrl, DOMAIN);
    expect((await c.register()).status).toBe(401);
    expect((await c.pollRaw()).status).toBe(401);
    expect((await c.deregister()).status).toBe(401);
  });
});

describe('bad input to every OAST listener', () => {
  const api = (path: string, body: string | Buffer, contentType = 'application/json') =>
    fetch(`${server.localUrl}${path}`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': contentType },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });

  it('HTTP API: garbage, wrong shapes and oversized bodies get 4xx with a message', async () => {
    const cases: [string, string | Buffer][] = [
      ['/register', '{not json'],
      ['/register', '[]'],
      ['/register', 'null'],
      ['/register', JSON.stringify({ 'correlation-id': 'x', 'secret-key': 'abcdefgh', 'public-key': 'AAAA' })],
      [
        '/register',
        JSON.stringify({ 'correlation-id': 'a'.repeat(20), 'secret-key': 'abcdefgh', 'public-key': '!!!' }),
      ],
      ['/register', JSON.stringify({ 'correlation-id': 'b'.repeat(20), 'secret-key': 1, 'public-key': 'x' })],
      ['/register', JSON.stringify({ 'correlation-id': '../../etc/passwd00000', 'secret-key': 'abcdefgh' })],
      ['/register', crypto.randomBytes(5000)],
      ['/deregister', '{"correlation-id": {"$ne": 1}}'],
    ];
    for (const [path, body] of cases) {
      const res = await api(path, body);
      expect(res.status, `${path} ${String(body).slice(0, 40)}`).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
    // An EC key is not an RSA key.
    const ec = crypto
      .generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' });
    const res = await api(
      '/register',
      JSON.stringify({
        'correlation-id': 'c'.repeat(20),
        'secret-key': 'abcdefgh',
        'public-key': Buffer.from(ec).toString('base64'),
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/not an RSA key/);
    // 2 MB: refused, not buffered whole.
    const big = await api('/register', Buffer.alloc(2 * 1024 * 1024, 0x41));
    expect(big.status).toBe(413);
    // Wrong methods.
    expect(
      (await fetch(`${server.localUrl}/poll?id=x&secret=y`, { method: 'POST', headers: { authorization: TOKEN } }))
        .status,
    ).toBe(405);
    expect((await fetch(`${server.localUrl}/register`, { headers: { authorization: TOKEN } })).status).toBe(405);
    // A broken request line and an enormous header: node's parser refuses them; the listener lives on.
    const broken = await rawTcp(server.ports.http, 'GARBAGE \x00\x01 HTTP/9\r\n\r\n');
    expect(broken.toString()).toMatch(/^HTTP\/1\.1 400/);
    const huge = await rawTcp(server.ports.http, `GET / HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(100_000)}\r\n\r\n`);
    expect(huge.toString()).toMatch(/^HTTP\/1\.1 431/);
    expect(await apiAlive()).toBe(true);
  });

  it('DNS: random datagrams, bad pointers, responses and TCP garbage are dropped; queries still answered', async () => {
    const sock = dgram.createSocket('udp4');
    const send = (b: Buffer) => new Promise<void>((r) => sock.send(b, server.ports.dns!, '127.0.0.1', () => r()));
    for (let i = 0; i < 300; i++) await send(crypto.randomBytes(1 + ((i * 37) % 1400)));
    await send(Buffer.alloc(0));
    await send(Buffer.alloc(60_000, 0xff));
    // A name whose compression pointer points at itself.
    await send(Buffer.from([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1]));
    // A response (QR set) is not answered: no reflection loops between servers.
    const replies: Buffer[] = [];
    sock.on('message', (m) => replies.push(m));
    await send(dnsPacket.encode({ type: 'response', id: 5, questions: [{ type: 'A', name: `x.${DOMAIN}` }] }));
    // Twenty questions in one query: FORMERR, not twenty answers. (Sent until answered: the flood above
    // may have filled the socket's receive buffer, and UDP drops what does not fit.)
    const many = dnsPacket.encode({
      type: 'query',
      id: 6,
      questions: Array.from({ length: 20 }, (_, i) => ({ type: 'A' as const, name: `q${i}.${DOMAIN}` })),
    });
    const formerr = await waitFor(async () => {
      await send(many);
      return replies.find((m) => m.readUInt16BE(0) === 6);
    });
    expect(formerr.readUInt16BE(2) & 0xf).toBe(1);
    sock.close();
    // TCP: a length prefix promising more than ever comes, then garbage that decodes to nothing.
    await rawTcp(server.ports.dns!, Buffer.concat([Buffer.from([0xff, 0xff]), crypto.randomBytes(1000)]));
    const closed = await rawTcp(
      server.ports.dns!,
      Buffer.concat([Buffer.from([0x00, 0x10]), crypto.randomBytes(16)]),
      false,
    );
    expect(closed.length).toBe(0);
    expect(await dnsAnswers()).toEqual(['127.0.0.1']);
    expect(replies.some((m) => m.readUInt16BE(0) === 5)).toBe(false);
  });

  it('SMTP: garbage commands and an oversized message are refused; mail still accepted after', async () => {
    // Talking before the greeting is refused outright.
    expect((await rawTcp(server.ports.smtp!, 'EHLO x\r\n')).toString()).toMatch(/^421 /);
    const out = await smtpRaw(
      server.ports.smtp!,
      `\x00\x01\x02 garbage\r\nEHLO x\r\nMAIL FROM:<<<>>>\r\nRCPT TO:\r\n${'A'.repeat(200_000)}\r\nQUIT\r\n`,
    );
    expect(out).toMatch(/^220 /);
    expect(out).toMatch(/^5\d\d /m);
    // A message larger than the limit: refused with 552 (size) after DATA.
    const big = await smtpRaw(
      server.ports.smtp!,
      `EHLO x\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@${DOMAIN}>\r\nDATA\r\n${'line of text\r\n'.repeat(30_000)}.\r\nQUIT\r\n`,
    );
    expect(big).toMatch(/^552 /m);
    const ok = await smtpRaw(
      server.ports.smtp!,
      `EHLO x\r\nMAIL FROM:<a@b.test>\r\nRCPT TO:<c@${DOMAIN}>\r\nDATA\r\nhello\r\n.\r\nQUIT\r\n`,
    );
    expect(ok).toMatch(/^250 .*(queued|Accepted|OK)/im);
  });

  it('LDAP: random bytes, impossible lengths and deep nesting close the connection; binds still answered', async () => {
    expect((await rawTcp(server.ports.ldap!, crypto.randomBytes(4096))).length).toBeLessThan(64);
    // Long-form lengths: 4 length bytes, and 3 bytes saying 16 MB.
    await rawTcp(server.ports.ldap!, Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02]));
    await rawTcp(server.ports.ldap!, Buffer.from([0x30, 0x83, 0xff, 0xff, 0xff]), false);
    // 2,000 nested sequences inside a search: read within its depth bound, answered, no stack overflow.
    let nested = Buffer.from([0x04, 0x00]);
    for (let i = 0; i < 2000 && nested.length < 60_000; i++) {
      const len = nested.length;
      const head =
        len < 128
          ? Buffer.from([0x30, len])
          : len < 256
            ? Buffer.from([0x30, 0x81, len])
            : Buffer.from([0x30, 0x82, len >> 8, len & 255]);
      nested = Buffer.concat([head, nested]);
    }
    const search = Buffer.concat([
      Buffer.from([0x02, 0x01, 0x02]),
      Buffer.from([0x63, 0x82, nested.length >> 8, nested.length & 255]),
      nested,
    ]);
    const msg = Buffer.concat([Buffer.from([0x30, 0x82, search.length >> 8, search.length & 255]), search]);
    const answer = await rawTcp(server.ports.ldap!, msg);
    expect(answer.includes(Buffer.from([0x65, 0x07]))).toBe(true);
    // And a plain bind afterwards.
    const bind = Buffer.from([0x30, 0x0c, 0x02, 0x01, 0x01, 0x60, 0x07, 0x02, 0x01, 0x03, 0x04, 0x00, 0x80, 0x00]);
    const reply = await rawTcp(server.ports.ldap!, bind);
    expect(reply.includes(Buffer.from([0x61, 0x07, 0x0a, 0x01, 0x00]))).toBe(true);
  });
});
