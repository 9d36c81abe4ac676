// Attack tests of POST /v1/template/run (the editor's one-off run). A receiver on 127.0.0.1 plays the
// platform's own API port (denied to scans): every road to it — the target itself in any spelling, a name
// resolving to it, a template's absolute URL, a redirect — is refused, proven by the receiver seeing no
// connection. Members may not run; the worker's secrets (another team's or this one's) are never applied
// nor shown; huge templates, payload floods and endless flows end within the run's caps; unsigned
// javascript templates are refused as scans refuse them.
import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { closeClients, type SecretApplier } from '../../src/engine/index.ts';
import { setWorkerSecrets } from '../../src/platform/scans/worker-secrets.ts';

/** A TCP port that records every connection: the "API" nothing may reach. */
async function startReceiver() {
  const connections: string[] = [];
  const server = net.createServer((s) => {
    connections.push('connect');
    s.on('error', () => {});
    s.end('HTTP/1.1 200 OK\r\ncontent-length: 16\r\nconnection: close\r\n\r\nINTERNAL-SECRET!');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let site: TestServer;
let t: TestApp;
const SECRET = 'Sup3r-Secret-Token-Value';

beforeAll(async () => {
  receiver = await startReceiver();
  const P = receiver.port;
  site = await startHttpServer(async (req, res) => {
    if (req.url === '/go') {
      res.statusCode = 302;
      res.setHeader('location', `http://[::ffff:127.0.0.1]:${P}/secret`);
      return res.end();
    }
    if (req.url === '/echo-secret') return res.end(`reflected: ${SECRET}`);
    if (req.url === '/big') return res.end('B'.repeat(200_000));
    if (req.url?.startsWith('/slow')) await new Promise((r) => setTimeout(r, 1500));
    res.end('PUBLIC-PAGE');
  });
  // The receiver is this platform's API port.
  t = await createTestApp('pglite', { port: P, host: '127.0.0.1' });
});

afterAll(async () => {
  setWorkerSecrets(undefined);
  await closeClients();
  await Promise.all([receiver?.close(), site?.close()]);
  await t?.close();
});

beforeEach(() => {
  receiver.connections.length = 0;
});

const run = (template: string, target: string, extra: Record<string, unknown> = {}, key?: string) =>
  t.request({ method: 'POST', url: '/v1/template/run', payload: { template, target, ...extra }, key });

const REACH = (paths: string[], more = '') => `id: reach
info: {name: reach, author: mallory, severity: high}
http:
  - method: GET
    path: [${paths.map((p) => JSON.stringify(p)).join(', ')}]
${more}    matchers: [{type: word, words: [INTERNAL-SECRET]}]
`;

describe('the deny list holds for the editor run', () => {
  it('a denied target in any spelling is a 400 naming it, and nothing is sent', async () => {
    const P = receiver.port;
    for (const target of [
      `http://127.0.0.1:${P}`,
      `http://2130706433:${P}/`,
      `http://[::ffff:127.0.0.1]:${P}`,
      `localhost:${P}`,
      `http://${os.hostname()}:${P}`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const res = await run(REACH(['{{BaseURL}}/']), target);
      expect(res.statusCode, target).toBe(400);
      expect(res.json().message).toMatch(/denied/);
      expect(res.json().param).toBe('target');
    }
    expect(receiver.connections).toEqual([]);
  });

  it('a name that resolves to a denied address, in a template path, is refused at connect', async () => {
    const P = receiver.port;
    const res = await run(REACH([`http://${os.hostname()}:${P}/healthz`, `http://2130706433:${P}/x`]), site.url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(receiver.connections).toEqual([]);
    expect(body.matched).toBe(false);
    expect(body.requests).toHaveLength(2);
    for (const step of body.requests) {
      expect(step.denied).toBe(true);
      expect(step.error).toContain("refused: this platform's own API port");
      expect(step.response).toBeUndefined();
    }
    expect(body.notices.join('\n')).toMatch(/refused by the deny list/);
    expect(JSON.stringify(body)).not.toContain('INTERNAL-SECRET!');
  });

  it('a redirect to a denied address is refused on that hop; the first response is shown', async () => {
    const res = await run(REACH(['{{BaseURL}}/go'], '    redirects: true\n    max-redirects: 3\n'), site.url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(receiver.connections).toEqual([]);
    const denied = body.requests.find((s: { denied?: boolean }) => s.denied);
    expect(denied?.request.url).toContain('/secret');
    expect(body.matched).toBe(false);
  });
});

describe("the team's exclusions hold for the editor run", () => {
  it('an excluded target or template id is a 400 naming the rule, and nothing is sent; without the rule it runs', async () => {
    const exclude = (values: string[], exclude_type: string) =>
      t.request({ method: 'POST', url: '/v1/scans/config/exclude', payload: { values, exclude_type } });
    expect((await exclude(['127.0.0.1'], 'scan_target')).statusCode).toBe(200);
    const seen = site.requests.length;
    let res = await run(REACH(['{{BaseURL}}/']), site.url);
    expect(res.statusCode).toBe(400);
    expect(res.json().param).toBe('target');
    expect(res.json().message).toMatch(/excluded by the team's exclusions/);
    // The same host in another spelling is still the excluded host.
    res = await run(REACH(['{{BaseURL}}/']), `127.0.0.1:${site.port}`);
    expect(res.statusCode).toBe(400);
    expect(site.requests.length).toBe(seen);

    const rules = (await t.request({ method: 'GET', url: '/v1/scans/config/exclude' })).json().data as { id: number }[];
    const del = await t.request({
      method: 'DELETE',
      url: '/v1/scans/config/exclude',
      payload: { ids: rules.map((r) => r.id) },
    });
    expect(del.statusCode).toBe(200);
    expect((await exclude(['reach'], 'template')).statusCode).toBe(200);
    res = await run(REACH(['{{BaseURL}}/']), site.url);
    expect(res.statusCode).toBe(400);
    expect(res.json().param).toBe('template');
    expect(site.requests.length).toBe(seen);

    const left = (await t.request({ method: 'GET', url: '/v1/scans/config/exclude' })).json().data as { id: number }[];
    await t.request({ method: 'DELETE', url: '/v1/scans/config/exclude', payload: { ids: left.map((r) => r.id) } });
    res = await run(REACH(['{{BaseURL}}/']), site.url);
    expect(res.statusCode).toBe(200);
    expect(site.requests.length).toBeGreaterThan(seen);
  });
});

describe('who may run, and what never shows', () => {
  it('members, viewers and guests may not run a template (403, nothing sent)', async () => {
    for (const role of ['MEMBER', 'VIEWER', 'GUEST']) {
      const u = await t.addUser(`${role.toLowerCase()}-tr@example.com`, role);
      const before = site.requests.length;
      const res = await run(REACH(['{{BaseURL}}/']), site.url, {}, u.key);
      expect(res.statusCode, role).toBe(403);
      expect(site.requests.length).toBe(before);
    }
  });

  it("the worker's secret files (this team's or another's) are never applied, and their values never shown", async () => {
    const applier: SecretApplier = {
      apply(req) {
        req.headers['Authorization'] = `Bearer ${SECRET}`;
      },
      secretValues: () => [SECRET],
    };
    setWorkerSecrets(applier, ['another-team', t.owner.teamId]);
    try {
      const before = site.requests.length;
      const res = await run(
        `id: echo
info: {name: echo, author: v, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/echo-secret"]
    matchers: [{type: word, words: [reflected]}]
    extractors: [{type: regex, regex: ["reflected: .*"]}]
`,
        site.url,
      );
      expect(res.statusCode, res.body).toBe(200);
      const seen = site.requests.slice(before);
      expect(seen.length).toBe(1);
      expect(JSON.stringify(seen[0]!.headers)).not.toContain(SECRET);
      expect(res.body).not.toContain(SECRET);
      expect(res.json().requests[0].response.body).toBe('reflected: [REDACTED]');
    } finally {
      setWorkerSecrets(undefined);
    }
  });
});

describe('caps', () => {
  it('a template past 1 MiB is a 400 and runs nothing', async () => {
    const before = site.requests.length;
    const huge = REACH(['{{BaseURL}}/']) + `# ${'x'.repeat(1024 * 1024)}\n`;
    const res = await run(huge, site.url);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
    expect(site.requests.length).toBe(before);
  });

  it('many payloads: stopped by a cap, the first requests shown, the rest counted, the answer bounded', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const res = await run(
      `id: flood
info: {name: flood, author: mallory, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/p?q={{word}}"]
    payloads:
      word: [${words.join(', ')}]
    matchers: [{type: word, words: [NEVER-THERE]}]
`,
      site.url,
      { max_seconds: 3 },
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const body = res.json();
    expect(body.stopped).toMatch(/time|requests/);
    expect(body.requests_shown).toBe(50);
    expect(body.requests_sent).toBeGreaterThan(50);
    expect(body.requests_sent).toBeLessThanOrEqual(500);
    expect(body.notices.join('\n')).toMatch(/50 of \d+ requests are shown/);
    expect(res.body.length).toBeLessThan(2 * 1024 * 1024);
  });

  it('a response body is cut at the cap', async () => {
    const res = await run(REACH(['{{BaseURL}}/big']), site.url);
    const step = res.json().requests[0];
    expect(step.response.body_truncated).toBe(true);
    expect(step.response.body.length).toBe(16 * 1024);
  });

  it('a flow that loops forever ends within the time cap with what ran', async () => {
    const started = Date.now();
    const res = await run(
      `id: forever
info: {name: forever, author: mallory, severity: info}
flow: |
  http(1);
  while (true) {}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers: [{type: word, words: [PUBLIC-PAGE]}]
`,
      site.url,
      { max_seconds: 2 },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(20_000);
    const body = res.json();
    expect(body.requests.length).toBeGreaterThanOrEqual(1);
    expect(body.requests[0].response.status).toBe(200);
  });

  it('a third run of the team at once is a 429', async () => {
    const slow = REACH(['{{BaseURL}}/slow']);
    const all = await Promise.all([run(slow, site.url), run(slow, site.url), run(slow, site.url)]);
    const codes = all.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 429]);
    expect(all.find((r) => r.statusCode === 429)!.json().code).toBe('too_many_runs');
  });
});

describe('code and javascript templates unsigned', () => {
  const JS = `id: unsigned-js
info: {name: unsigned js, author: mallory, severity: critical}
javascript:
  - code: |
      let m = require('nuclei/net');
      m.Open('tcp', Host + ':' + Port);
    args:
      Host: "{{Host}}"
      Port: "{{Port}}"
    matchers:
      - type: dsl
        dsl: [success == true]
`;
  it('are refused with a 400 saying why, as scans refuse them; the Owner allowing them lets them run', async () => {
    const res = await run(JS, site.url);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('template_not_signed');
    expect(res.json().message).toMatch(/javascript template not signed by a trusted key/);
    const code = await run(
      `id: unsigned-code
info: {name: c, author: mallory, severity: critical}
code:
  - engine: [sh]
    source: id
`,
      site.url,
    );
    expect(code.statusCode).toBe(400);
    expect(code.json().message).toMatch(/code template/);
    const allow = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/settings',
      payload: { allow_unsigned_templates: true },
    });
    expect(allow.statusCode, allow.body).toBe(200);
    try {
      const ok = await run(JS, site.url);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().notices.join('\n')).toMatch(/result events are shown/);
    } finally {
      await t.request({ method: 'PATCH', url: '/v1/user/team/settings', payload: { allow_unsigned_templates: false } });
    }
  });
});
