// The headless protocol under the deny list: a page the scan may open tries to reach a denied port (the
// platform's own API, played by a receiver on 127.0.0.1) by every road a browser has (subresources in
// other spellings of the address, a name a DNS server started here resolves to it, fetch, a form post, an
// iframe, a redirect, a websocket), and a template navigates there directly. The receiver sees nothing
// and the error names the refusal. Screenshots cannot be written outside their folder; `files` may not
// hand the scanner's files to a page.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { tpl } from '../helpers/templates.ts';
import { runScan, closeClients, type Template, type EgressPolicy } from '../../src/engine/index.ts';
import { scanEgress } from '../../src/platform/shared/deny.ts';
import { CHROMIUM } from '../helpers/browser.ts';

if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\``);

let receiver: { port: number; connections: string[]; close(): Promise<void> };
let site: TestServer;
let dns: DnsTestServer;
let policy: EgressPolicy;

async function startReceiver(): Promise<typeof receiver> {
  const connections: string[] = [];
  const server = net.createServer((s) => {
    connections.push('connect');
    s.on('error', () => {});
    s.once('data', () => s.end('HTTP/1.1 200 OK\r\ncontent-length: 16\r\nconnection: close\r\n\r\nINTERNAL-SECRET!'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// Every road out of the page at once; #done appears when each attempt has settled (failed or not).
const attackPage = (P: number) => `<html><body><div id="log"></div><script>
  const log = (m) => { document.getElementById('log').textContent += m + ';'; };
  const settle = (p) => p.then(() => log('ok'), () => log('failed'));
  const img = (src) => new Promise((res, rej) => { const i = new Image(); i.onload = res; i.onerror = rej; i.src = src; });
  const ws = () => new Promise((res, rej) => { const w = new WebSocket('ws://127.0.0.1:${P}/'); w.onopen = res; w.onerror = rej; w.onclose = rej; });
  const frame = () => new Promise((res) => { const f = document.createElement('iframe'); f.onload = res; f.src = 'http://[::ffff:127.0.0.1]:${P}/'; document.body.appendChild(f); });
  Promise.allSettled([
    settle(img('http://2130706433:${P}/pixel.png')),
    settle(fetch('http://api.internal.test:${P}/secret')),
    settle(fetch('http://127.0.0.1:${P}/post', { method: 'POST', body: 'x' })),
    settle(fetch('/go')),
    settle(ws()),
    settle(frame()),
  ]).then(() => { const d = document.createElement('p'); d.id = 'done'; d.textContent = 'done'; document.body.appendChild(d); });
</script></body></html>`;

beforeAll(async () => {
  receiver = await startReceiver();
  const P = receiver.port;
  site = await startHttpServer((req, res) => {
    if (req.url === '/go') {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${P}/secret`);
      return res.end();
    }
    res.setHeader('content-type', 'text/html');
    res.end(attackPage(P));
  });
  dns = await startDnsServer({ records: { 'api.internal.test': [{ type: 'A', data: '127.0.0.1' }] } });
  policy = {
    ...scanEgress({ port: P, host: '127.0.0.1', denyTargets: [], allowDeniedTargets: false }),
    resolvers: [dns.resolver],
  };
});

afterAll(async () => {
  await closeClients();
  await Promise.all([receiver?.close(), site?.close(), dns?.close()]);
});

beforeEach(() => {
  receiver.connections.length = 0;
});

async function scan(templates: Template[], targets: string[], egress?: EgressPolicy, screenshotDir?: string) {
  const errors: string[] = [];
  const events: Record<string, unknown>[] = [];
  await runScan({
    targets,
    templates,
    egress,
    screenshotDir,
    rateLimit: 0,
    timeout: 3,
    onResult: (e) => events.push(e as never),
    onAttempt: (a) => a.error && errors.push(a.error),
  });
  return { errors, events };
}

const roads = tpl(`id: roads
info: {name: r, author: v, severity: info}
headless:
  - steps:
      - action: navigate
        args: {url: "{{BaseURL}}/"}
      - action: waitvisible
        args: {selector: "#done"}
      - action: extract
        name: log
        args: {selector: "#log"}
    matchers: [{type: dsl, dsl: ['log != ""']}]
    extractors: [{type: dsl, dsl: [log]}]
`);

describe('headless pages under the deny list', () => {
  it('control: without a policy the page reaches the receiver (so the test can tell)', async () => {
    const { events } = await scan([roads], [site.url]);
    expect(events).toHaveLength(1);
    expect(receiver.connections.length).toBeGreaterThan(0);
  }, 60_000);

  it('no road out of the page reaches a denied address', async () => {
    const { events } = await scan([roads], [site.url], policy);
    expect(events).toHaveLength(1);
    // Every attempt settled (the page's log has all six), and the receiver saw no connection at all.
    expect(String((events[0]!['extracted-results'] as string[])[0]).split(';')).toHaveLength(7);
    expect(receiver.connections).toEqual([]);
  }, 60_000);

  it('a template navigating to a denied address is refused with the reason', async () => {
    const t = tpl(`id: direct
info: {name: d, author: v, severity: info}
headless:
  - steps:
      - action: navigate
        args: {url: "http://[::ffff:127.0.0.1]:${receiver.port}/secret"}
      - action: waitload
    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`);
    const { errors, events } = await scan([t], [site.url], policy);
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("refused: this platform's own API port");
    expect(receiver.connections).toEqual([]);
  }, 60_000);

  it('screenshots stay inside their folder and `files` is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-shot-'));
    const outside = path.join(path.dirname(dir), `${path.basename(dir)}-escape.png`);
    try {
      const shot = tpl(`id: shot-escape
info: {name: s, author: v, severity: info}
headless:
  - steps:
      - action: navigate
        args: {url: "{{BaseURL}}/"}
      - action: screenshot
        args: {to: "../${path.basename(dir)}-escape"}
    matchers: [{type: dsl, dsl: ["true"]}]
`);
      const files = tpl(`id: files
info: {name: f, author: v, severity: info}
headless:
  - steps:
      - action: navigate
        args: {url: "{{BaseURL}}/"}
      - action: files
        args: {selector: "input", value: /etc/passwd}
    matchers: [{type: dsl, dsl: ["true"]}]
`);
      const { errors, events } = await scan([shot, files], [site.url], policy, dir);
      expect(events).toEqual([]);
      expect(errors.sort()).toEqual([
        expect.stringContaining('files: local file access is not allowed'),
        expect.stringContaining('outside the screenshot folder'),
      ]);
      expect(existsSync(outside)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { force: true });
    }
  }, 60_000);
});
