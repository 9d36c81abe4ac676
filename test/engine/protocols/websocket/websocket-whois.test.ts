// websocket against a `ws` server on 127.0.0.1 (text inputs, named replies, headers, payloads, the
// reference's `data` examples), and whois against a local RDAP server.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { parseTemplate } from '../../../../src/engine/template/index.ts';
import { runScan, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { localhostCert } from '../../../helpers/certs.ts';

function tpl(text: string): Template {
  const r = parseTemplate(text, 'inline.yaml');
  if (!r.template) throw new Error(JSON.stringify(r.issues));
  return r.template;
}

async function scan(
  templates: Template[],
  targets: string[],
  extra: Partial<ScanOptions> = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 3, onResult: (e) => events.push(e), ...extra });
  return events;
}

let wss: WebSocketServer;
let wsPort: number;
const seen: { path: string; token?: string; messages: string[] }[] = [];
let rdap: http.Server;
let rdapUrl: string;

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wsPort = (wss.address() as net.AddressInfo).port;
  wss.on('connection', (ws, req) => {
    const me = { path: req.url ?? '', token: req.headers['x-token'] as string | undefined, messages: [] as string[] };
    seen.push(me);
    ws.on('message', (m, binary) => {
      const text = binary ? (m as Buffer).toString('latin1') : m.toString();
      me.messages.push(text);
      if (text === 'PING') ws.send('PONG server=vigil-ws/1.2');
      else if (text.startsWith('LOGIN ')) ws.send(text === 'LOGIN admin:admin' ? 'welcome admin' : 'denied');
      else if (text === 'TEST') ws.send(me.token === 'secret' ? 'authorized test reply' : 'unauthorized');
      else ws.send(`echo:${text}`);
    });
  });
  rdap = http.createServer((q, res) => {
    res.setHeader('content-type', 'application/rdap+json');
    if (q.url === '/domain/vigil.test') {
      res.end(
        JSON.stringify({
          objectClassName: 'domain',
          ldhName: 'vigil.test',
          handle: 'D123-VIGIL',
          port43: 'whois.vigil.test',
          status: ['client transfer prohibited', 'active'],
          events: [
            { eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' },
            { eventAction: 'expiration', eventDate: '2031-02-03T04:05:06Z' },
          ],
          entities: [
            {
              roles: ['registrar'],
              vcardArray: [
                'vcard',
                [
                  ['version', {}, 'text', '4.0'],
                  ['fn', {}, 'text', 'Vigil Registrar Inc.'],
                ],
              ],
              publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
            },
          ],
          nameservers: [{ ldhName: 'ns1.vigil.test' }, { ldhName: 'ns2.vigil.test' }],
        }),
      );
    } else if (q.url === '/domain/huge.test') {
      res.end(`{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    } else if (q.url === '/ip/192.0.2.1') {
      res.end(
        JSON.stringify({ objectClassName: 'ip network', handle: 'NET-192-0-2-0-1', name: 'TEST-NET-1', country: 'ZZ' }),
      );
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => rdap.listen(0, '127.0.0.1', r));
  rdapUrl = `http://127.0.0.1:${(rdap.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  wss?.close();
  rdap?.close();
});

describe('websocket protocol', () => {
  it('sends each input as a text message and matches on the replies; the reference data forms (TEST, hex_decode)', async () => {
    const t = tpl(`id: ws
info: {name: ws, author: a, severity: info}
websocket:
  - address: '{{Scheme}}://{{Hostname}}'
    headers:
      X-Token: secret
    inputs:
      - data: TEST
        name: first
      - data: "{{hex_decode('50494e47')}}"
        name: prefix
    matchers-condition: and
    matchers:
      - type: word
        part: first
        words: [authorized test reply]
      - type: word
        words: [PONG]
    extractors:
      - type: regex
        part: prefix
        group: 1
        regex: ['server=(\\S+)']
`);
    const events = await scan([t], [`ws://127.0.0.1:${wsPort}/socket`]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'websocket',
      'matched-at': `ws://127.0.0.1:${wsPort}/socket`,
      request: 'TESTPING',
      response: 'authorized test replyPONG server=vigil-ws/1.2',
      'extracted-results': ['vigil-ws/1.2'],
    });
    const conn = seen.find((s) => s.messages.includes('PING'))!;
    expect(conn).toMatchObject({ path: '/socket', token: 'secret', messages: ['TEST', 'PING'] });
  });

  it('payloads: one connection per combination', async () => {
    const t = tpl(`id: ws-brute
info: {name: ws-brute, author: a, severity: info}
websocket:
  - address: '{{Scheme}}://{{Hostname}}'
    attack: clusterbomb
    payloads:
      user: [root, admin]
      pass: [toor, admin]
    inputs:
      - data: "LOGIN {{user}}:{{pass}}"
    matchers:
      - type: word
        words: [welcome]
    extractors:
      - type: dsl
        dsl: ['user + "/" + pass']
`);
    const events = await scan([t], [`ws://127.0.0.1:${wsPort}`]);
    expect(events.map((e) => e['extracted-results'])).toEqual([['admin/admin']]);
  });

  it('wss:// over TLS with a self-signed certificate', async () => {
    const server = https.createServer({ ...localhostCert() });
    const secure = new WebSocketServer({ server });
    secure.on('connection', (ws) => ws.on('message', (m) => ws.send(`secure:${m.toString()}`)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = tpl(`id: wss
info: {name: wss, author: a, severity: info}
websocket:
  - address: '{{Scheme}}://{{Hostname}}'
    inputs: [{data: hello}]
    matchers: [{type: word, words: ['secure:hello']}]
`);
      const events = await scan([t], [`wss://127.0.0.1:${(server.address() as net.AddressInfo).port}/`]);
      expect(events).toHaveLength(1);
    } finally {
      secure.close();
      server.close();
    }
  });

  it('needs a ws:// or wss:// input', async () => {
    const t = tpl(`id: ws-scheme
info: {name: ws, author: a, severity: info}
websocket:
  - address: '{{Scheme}}://{{Hostname}}'
    inputs: [{data: PING}]
    matchers: [{type: word, words: [PONG]}]
`);
    const events = await scan([t], [`http://127.0.0.1:${wsPort}`], { matcherStatus: true });
    expect(events[0]).toMatchObject({ 'matcher-status': false, error: 'invalid url scheme provided: http' });
  });
});

describe('whois protocol', () => {
  it('a domain: whois-style keys from the RDAP answer', async () => {
    const t = tpl(`id: whois
info: {name: whois, author: a, severity: info}
whois:
  - query: "{{Input}}"
    server: ${rdapUrl}
    # As nuclei: the whois-style keys are lower-cased with their spaces ("name server").
    matchers-condition: and
    matchers:
      - type: word
        part: registrar
        words: [Vigil Registrar]
      - type: word
        part: name server
        words: ["ns1.vigil.test,ns2.vigil.test"]
    extractors:
      - type: json
        json: ['.Data["Creation Date"][]', '.Data["Expiration Date"][]', '.Data["Domain Status"][]']
`);
    const events = await scan([t], ['vigil.test']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'whois', host: 'vigil.test' });
    expect(events[0]['extracted-results']).toEqual([
      '2001-02-03T04:05:06Z',
      '2031-02-03T04:05:06Z',
      'client transfer prohibited',
      'active',
    ]);
  });

  it('refuses an RDAP answer over 1 MiB', async () => {
    const t = tpl(`id: whois-huge
info: {name: whois, author: a, severity: info}
whois:
  - query: "{{Input}}"
    server: ${rdapUrl}
    matchers: [{type: word, words: [pad]}]
`);
    const events = await scan([t], ['huge.test'], { matcherStatus: true });
    expect(events[0]).toMatchObject({
      'matcher-status': false,
      error: expect.stringContaining('larger than 1048576 bytes'),
    });
  });

  it('an IP: the RDAP object itself as the response', async () => {
    const t = tpl(`id: whois-ip
info: {name: whois, author: a, severity: info}
whois:
  - query: "{{Host}}"
    server: ${rdapUrl}
    extractors:
      - type: json
        json: ['.name']
`);
    expect((await scan([t], ['192.0.2.1']))[0]['extracted-results']).toEqual(['TEST-NET-1']);
    expect(await scan([t], ['192.0.2.2'])).toHaveLength(0);
  });
});
