// The OAST server against an independent interactsh client (./interactsh-client.ts): registration, an
// interaction of each protocol (HTTP, DNS over UDP and TCP, SMTP, LDAP) sealed for the client and read back
// by decrypting it, deregistration, and the DNS answers an operator relies on (A, NS with glue, refusals).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { makeCert } from '../helpers/certs.ts';
import { Resolver } from 'node:dns/promises';
import * as dnsPacket from 'dns-packet';
import dgram from 'node:dgram';
import { startOast, type OastServer } from '../../src/oast/index.ts';
import { oastConfigFromEnv } from '../../src/oast/config.ts';
import { TestInteractshClient, type PolledInteraction } from './interactsh-client.ts';
import { waitFor } from '../helpers/wait.ts';

const DOMAIN = 'oast.vigil.test';
let server: OastServer;
let client: TestInteractshClient;
const seen: PolledInteraction[] = [];

async function until(pred: (i: PolledInteraction) => boolean): Promise<PolledInteraction> {
  return waitFor(async () => {
    seen.push(...(await client.poll()));
    return seen.find(pred);
  });
}

function smtpSend(port: number, from: string, to: string, body: string): Promise<string> {
  // Raw SMTP, line by line: each command after the previous reply.
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const steps = [`EHLO client.test`, `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA', `${body}\r\n.`, 'QUIT'];
    let log = '';
    sock.on('data', (d) => {
      log += d.toString();
      if (!/\r\n$/.test(log) || /^\d{3}-/m.test(log.split('\r\n').filter(Boolean).pop() ?? '')) return;
      const next = steps.shift();
      if (next) sock.write(next + '\r\n');
    });
    sock.on('close', () => resolve(log));
    sock.on('error', reject);
  });
}

function ber(tag: number, value: Buffer): Buffer {
  if (value.length < 128) return Buffer.concat([Buffer.from([tag, value.length]), value]);
  return Buffer.concat([Buffer.from([tag, 0x82, value.length >> 8, value.length & 255]), value]);
}
const str = (s: string, tag = 0x04) => ber(tag, Buffer.from(s));
const int = (n: number, tag = 0x02) => ber(tag, Buffer.from([n]));

function ldapExchange(port: number, messages: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(Buffer.concat(messages)));
    const got: Buffer[] = [];
    sock.on('data', (d) => got.push(d));
    sock.on('close', () => resolve(Buffer.concat(got)));
    sock.on('error', reject);
  });
}

beforeAll(async () => {
  const config = oastConfigFromEnv({
    VIGIL_OAST_DOMAIN: DOMAIN,
    VIGIL_OAST_IP: '127.0.0.1',
    VIGIL_OAST_HTTP: '127.0.0.1:0',
    VIGIL_OAST_DNS: '127.0.0.1:0',
    VIGIL_OAST_SMTP: '127.0.0.1:0',
    VIGIL_OAST_LDAP: '127.0.0.1:0',
  })!;
  server = await startOast(config);
  client = new TestInteractshClient(server.localUrl, DOMAIN);
  const res = await client.register();
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ message: 'registration successful' });
});

afterAll(async () => {
  await server?.close();
});

describe('OAST server with an independent interactsh client', () => {
  it('records an HTTP request to a name under the domain, sealed for the client', async () => {
    const name = client.name();
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: server.ports.http, path: '/ssrf?x=1', headers: { host: name, 'x-probe': 'one' } },
        (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    // The page reflects the id reversed, as interactsh's does.
    expect(res.body).toContain([...name.split('.')[0]!].reverse().join(''));
    const i = await until((x) => x.protocol === 'http' && x['unique-id'] === name.split('.')[0]);
    expect(i['raw-request']).toContain('GET /ssrf?x=1 HTTP/1.1');
    expect(i['raw-request']).toContain('x-probe: one');
    expect(i['remote-address']).toBe('127.0.0.1');
    expect(i['full-id']).toBe(name.split('.')[0]);
  });

  it('answers DNS for every name under the domain with the public address, over UDP and TCP, and records it', async () => {
    const resolver = new Resolver();
    resolver.setServers([`127.0.0.1:${server.ports.dns}`]);
    const name = `spoofed.${client.name()}`;
    expect(await resolver.resolve4(name)).toEqual(['127.0.0.1']);
    const i = await until((x) => x.protocol === 'dns' && name.includes(x['unique-id']));
    expect(i['q-type']).toBe('A');
    expect(i['raw-request']).toContain(name);
    expect(i['full-id']).toBe(name.replace(`.${DOMAIN}`, ''));

    // TCP, as a resolver retrying a truncated answer would.
    const tcpName = client.name();
    const q = dnsPacket.streamEncode({ type: 'query', id: 7, questions: [{ type: 'A', name: tcpName }] });
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const s = net.connect(server.ports.dns!, '127.0.0.1', () => s.write(q));
      s.on('data', (d) => {
        resolve(d);
        s.destroy();
      });
      s.on('error', reject);
    });
    const answer = dnsPacket.streamDecode(reply);
    expect(answer.answers?.[0]).toMatchObject({ type: 'A', data: '127.0.0.1' });
    await until((x) => x.protocol === 'dns' && x['unique-id'] === tcpName.split('.')[0]);
  });

  it('serves NS with glue for the domain and refuses names outside it', async () => {
    const resolver = new Resolver();
    resolver.setServers([`127.0.0.1:${server.ports.dns}`]);
    expect((await resolver.resolveNs(DOMAIN)).sort()).toEqual([`ns1.${DOMAIN}`, `ns2.${DOMAIN}`]);
    expect(await resolver.resolve4(`ns1.${DOMAIN}`)).toEqual(['127.0.0.1']);
    await expect(resolver.resolve4('example.com')).rejects.toMatchObject({ code: 'EREFUSED' });
    // Glue: the NS answer carries the servers' addresses.
    const sock = dgram.createSocket('udp4');
    const msg = await new Promise<Buffer>((resolve) => {
      sock.on('message', (m) => resolve(m));
      sock.send(
        dnsPacket.encode({ type: 'query', id: 9, questions: [{ type: 'NS', name: DOMAIN }] }),
        server.ports.dns!,
        '127.0.0.1',
      );
    });
    sock.close();
    const p = dnsPacket.decode(msg);
    expect(p.flag_aa).toBe(true);
    expect(p.additionals?.map((a) => [a.name, (a as { data?: unknown }).data])).toEqual([
      [`ns1.${DOMAIN}`, '127.0.0.1'],
      [`ns2.${DOMAIN}`, '127.0.0.1'],
    ]);
  });

  it('records mail to an address under a registered name', async () => {
    const name = client.name();
    const log = await smtpSend(
      server.ports.smtp!,
      'app@target.test',
      `reset@${name}`,
      'Subject: reset\r\n\r\nyour link',
    );
    expect(log).toMatch(/^250 /m);
    const i = await until((x) => x.protocol === 'smtp' && x['unique-id'] === name.split('.')[0]);
    expect(i['smtp-from']).toBe('app@target.test');
    expect(i['raw-request']).toContain('your link');
  });

  it('answers an LDAP bind and search and records the search naming a registered id', async () => {
    const name = client.name();
    const bind = ber(0x30, Buffer.concat([int(1), ber(0x60, Buffer.concat([int(3), str(''), str('', 0x80)]))]));
    const search = ber(
      0x30,
      Buffer.concat([
        int(2),
        ber(
          0x63,
          Buffer.concat([
            str(`cn=${name}`),
            int(0, 0x0a),
            int(0, 0x0a),
            int(0),
            int(0),
            ber(0x01, Buffer.from([0])),
            str('objectClass', 0x87),
            ber(0x30, Buffer.alloc(0)),
          ]),
        ),
      ]),
    );
    const unbind = ber(0x30, Buffer.concat([int(3), Buffer.from([0x42, 0x00])]));
    const reply = await ldapExchange(server.ports.ldap!, [bind, search, unbind]);
    // bindResponse success (0x61 ... 0a 01 00) then searchResDone success (0x65).
    expect(reply.includes(Buffer.from([0x61, 0x07, 0x0a, 0x01, 0x00]))).toBe(true);
    expect(reply.includes(Buffer.from([0x65, 0x07, 0x0a, 0x01, 0x00]))).toBe(true);
    const i = await until((x) => x.protocol === 'ldap' && x['unique-id'] === name.split('.')[0]);
    expect(i['raw-request']).toContain(`cn=${name}`);
  });

  it('hands each interaction over once, and forgets the client on deregister', async () => {
    const name = client.name();
    await new Promise((resolve) => http.get({ port: server.ports.http, path: '/x', headers: { host: name } }, resolve));
    await until((x) => x['unique-id'] === name.split('.')[0]);
    expect(await client.poll()).toEqual([]);
    const res = await client.deregister();
    expect(res.status).toBe(200);
    const after = await client.pollRaw();
    expect(after.status).toBe(400);
    expect(await after.json()).toEqual({ error: 'could not get correlation-id from cache' });
  });
});

describe('OAST server over HTTPS', () => {
  it('records a request on the HTTPS listener as protocol https', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-oast-tls-'));
    const pem = makeCert({ subject: `/CN=*.${DOMAIN}` });
    writeFileSync(path.join(dir, 'cert.pem'), pem.cert);
    writeFileSync(path.join(dir, 'key.pem'), pem.key);
    const tlsServer = await startOast(
      oastConfigFromEnv({
        VIGIL_OAST_DOMAIN: DOMAIN,
        VIGIL_OAST_IP: '127.0.0.1',
        VIGIL_OAST_HTTP: '127.0.0.1:0',
        VIGIL_OAST_HTTPS: '127.0.0.1:0',
        VIGIL_OAST_CERT: path.join(dir, 'cert.pem'),
        VIGIL_OAST_KEY: path.join(dir, 'key.pem'),
      })!,
    );
    try {
      const c = new TestInteractshClient(tlsServer.localUrl, DOMAIN);
      expect((await c.register()).status).toBe(200);
      const name = c.name();
      const status = await new Promise<number>((resolve, reject) => {
        https
          .get(
            {
              host: '127.0.0.1',
              port: tlsServer.ports.https,
              path: '/tls',
              servername: name,
              headers: { host: name },
              rejectUnauthorized: false,
            },
            (r) => {
              r.resume();
              r.on('end', () => resolve(r.statusCode!));
            },
          )
          .on('error', reject);
      });
      expect(status).toBe(200);
      const got = await waitFor(async () => (await c.poll()).find((i) => i.protocol === 'https'));
      expect(got['unique-id']).toBe(name.split('.')[0]);
      expect(got['raw-request']).toContain('GET /tls HTTP/1.1');
    } finally {
      await tlsServer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
