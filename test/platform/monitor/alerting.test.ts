// Alerts really delivered: a generic webhook (with a body template and headers), Slack and Teams shaped
// webhooks to a real HTTP receiver, email to a real SMTP server (smtp-server) on 127.0.0.1. Events: scan
// running, finished, stopped, new findings of a rescan above a severity floor. A receiver that fails twice
// gets the alert on the third attempt (back-off); a 404 fails for good. Nothing secret reaches the logs.
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from '../scans/fixtures.ts';
import { startMonitor, type MonitorHandle } from '../../../src/platform/monitor/loop.ts';
import '../../../src/platform/monitor/steps.ts';
import { backoff } from '../../../src/platform/monitor/deliveries.ts';
import { failScan } from '../../../src/platform/scans/store.ts';

const LATE_INFO = `id: test-late
info:
  name: Late page
  author: vigil
  severity: info
http:
  - method: GET
    path:
      - "{{BaseURL}}/late"
    matchers:
      - type: word
        words:
          - "LATE-MARKER"
`;

interface Mail {
  from: string;
  to: string[];
  data: string;
}

describe.each(dbKinds())('alerting on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  let receiver: TestServer;
  let smtp: SMTPServer;
  let smtpPort = 0;
  const mails: Mail[] = [];
  let monitor: MonitorHandle;
  let vulnerable = false;
  let flakyCalls = 0;
  const logLines: string[] = [];

  beforeAll(async () => {
    process.env.VIGIL_DELIVERY_RETRY_BASE = '0.2';
    process.env.VIGIL_DELIVERY_MAX_ATTEMPTS = '4';
    // Receivers listen on 127.0.0.1: integrations reach it only when the operator allows it.
    t = await createScanApp(kind, { egressAllow: ['127.0.0.0/8'] });
    t.ctx.log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _e, cb) {
          logLines.push(String(chunk));
          cb();
        },
      }),
    );
    target = await startHttpServer(async (req, res) => {
      if (req.url?.startsWith('/slow')) await new Promise((r) => setTimeout(r, 3000));
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      if (req.url?.endsWith('/vuln') && vulnerable) return res.end('VULNERABLE-MARKER');
      if (req.url?.endsWith('/late') && vulnerable) return res.end('LATE-MARKER');
      res.end('hello');
    });
    receiver = await startHttpServer((req, res) => {
      if (req.url === '/flaky-s3cr3t') {
        flakyCalls++;
        res.statusCode = flakyCalls <= 2 ? 503 : 200;
        return res.end(flakyCalls <= 2 ? 'busy' : 'ok');
      }
      if (req.url === '/gone') {
        res.statusCode = 404;
        return res.end('no');
      }
      res.end('ok');
    });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === 'u' && auth.password === 'pw-s3cr3t') return cb(null, { user: 'u' });
        return cb(new Error('bad credentials'));
      },
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          mails.push({
            from: String(session.envelope.mailFrom && session.envelope.mailFrom.address),
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    smtpPort = (smtp.server.address() as { port: number }).port;
    monitor = startMonitor(t.ctx, 100);
  });
  afterAll(async () => {
    await monitor?.stop();
    await t?.close();
    await Promise.all([target, receiver].map((s) => s?.close()));
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
    delete process.env.VIGIL_DELIVERY_RETRY_BASE;
    delete process.env.VIGIL_DELIVERY_MAX_ATTEMPTS;
  });

  const config = async (name: string, yaml: string, extra: Record<string, unknown> = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: { name, config_type: 'alerting', config: yaml, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const deliveries = async (id: string, key?: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/config/${id}/deliveries`, key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, any>[];
  };
  const received = (path: string) => receiver.requests.filter((r) => r.url === path);

  it('computes the back-off', () => {
    const p = { baseSeconds: 30, maxAttempts: 4 };
    expect([1, 2, 3, 4].map((n) => backoff(n, p))).toEqual([30, 60, 120, null]);
  });

  it('delivers scan events and new findings of a rescan to webhook, Slack, Teams and email, retrying a failing receiver', async () => {
    const hook = await config(
      'hook',
      `provider: webhook
events: [scan_running, scan_finished, new_finding]
min-severity: high
webhook:
  url: ${receiver.url}/hook
  method: PUT
  headers: {X-Token: tok-s3cr3t}
  body: '{"text": "{{message}}", "scan": "{{scan_id}}", "event": "{{event}}", "n": "{{findings_count}}"}'
`,
    );
    const allNew = await config(
      'all new',
      `provider: webhook
events: [new_finding]
webhook: {url: "${receiver.url}/all-new"}
`,
    );
    const slack = await config(
      'slack global',
      `provider: slack
events: [scan_finished]
slack: {webhook-url: "${receiver.url}/slack", channel: "#sec", username: vigil}
`,
      { global: true },
    );
    const teams = await config(
      'teams',
      `provider: teams
events: [scan_finished]
teams: {webhook-url: "${receiver.url}/teams"}
`,
    );
    const mail = await config(
      'mail',
      `provider: email
events: [scan_finished]
email: {host: 127.0.0.1, port: ${smtpPort}, username: u, password: pw-s3cr3t, from: vigil@localhost, to: [secops@localhost]}
`,
    );
    const flaky = await config(
      'flaky',
      `provider: webhook
events: [scan_finished]
webhook: {url: "${receiver.url}/flaky-s3cr3t"}
`,
    );
    const gone = await config(
      'gone',
      `provider: webhook
events: [scan_finished]
webhook: {url: "${receiver.url}/gone"}
`,
    );
    await config(
      'not this scan',
      `provider: webhook
events: [scan_finished]
webhook: {url: "${receiver.url}/unused"}
`,
    );

    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        name: 'watched',
        targets: [target.url],
        private_templates: [
          { name: 'm.yaml', contents: MARKER_TEMPLATE },
          { name: 'h.yaml', contents: HEADER_TEMPLATE },
          { name: 'l.yaml', contents: LATE_INFO },
        ],
        alerting_config_ids: [hook, allNew, teams, mail, flaky, gone],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    await t.waitStatus(id, ['finished']);

    await waitFor(
      async () =>
        received('/hook').length >= 2 &&
        received('/slack').length >= 1 &&
        received('/teams').length >= 1 &&
        mails.length >= 1,
      20_000,
    );
    const hookBodies = received('/hook').map((r) => JSON.parse(r.body));
    expect(hookBodies.map((b) => b.event)).toEqual(['scan_running', 'scan_finished']);
    expect(hookBodies[1]).toMatchObject({ scan: id, text: expect.stringContaining('finished with 1 findings') });
    expect(received('/hook').every((r) => r.method === 'PUT' && r.headers['x-token'] === 'tok-s3cr3t')).toBe(true);
    expect(JSON.parse(received('/slack')[0]!.body)).toEqual({
      text: expect.stringContaining(`"watched" (${id}) finished`),
      channel: '#sec',
      username: 'vigil',
    });
    const card = JSON.parse(received('/teams')[0]!.body);
    expect(card.type).toBe('message');
    expect(card.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.attachments[0].content.body[0].text).toContain('finished');
    expect(mails[0]).toMatchObject({ from: 'vigil@localhost', to: ['secops@localhost'] });
    expect(mails[0]!.data).toMatch(/Subject: Vigil: scan_finished - watched/);
    expect(received('/unused')).toHaveLength(0);
    // The first run's findings are not "new" findings of a rescan.
    expect(received('/all-new')).toHaveLength(0);

    // The flaky receiver: two 503s, then delivered on the third attempt, each attempt recorded.
    const flakyRow = await waitFor(async () => (await deliveries(flaky)).find((d) => d.status === 'delivered'), 20_000);
    expect(flakyRow).toMatchObject({ event: 'scan_finished', scan_id: id, attempts: 3, response_status: 200 });
    expect(flakyCalls).toBe(3);
    // A 404 is not retried: failed after one attempt.
    const goneRow = await waitFor(async () => (await deliveries(gone)).find((d) => d.status === 'failed'), 20_000);
    expect(goneRow).toMatchObject({ attempts: 1, response_status: 404, last_error: 'HTTP 404' });
    expect(received('/gone')).toHaveLength(1);

    // Rescan: the marker (high) and the late page (info) are new; the hook's floor is high.
    vulnerable = true;
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(200);
    await t.waitStatus(id, ['finished']).then(() =>
      waitFor(async () => {
        const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
        return s.rescan_count === 1 && s.status === 'finished' && s;
      }, 30_000),
    );
    await waitFor(async () => received('/hook').length >= 5 && received('/all-new').length >= 1, 20_000);
    const newHook = received('/hook')
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.event === 'new_finding');
    expect(newHook).toHaveLength(1);
    expect(newHook[0]).toMatchObject({ n: '1', text: expect.stringContaining('[high] Marker page') });
    const allNewBody = JSON.parse(received('/all-new')[0]!.body);
    expect(allNewBody).toMatchObject({ event: 'new_finding', findings_count: 2, run: 1 });
    expect(allNewBody.findings.map((f: { template_id: string }) => f.template_id).sort()).toEqual([
      'test-late',
      'test-marker',
    ]);

    // The list of deliveries; Members see it too, without any secret of the config.
    const list = await waitFor(async () => {
      const l = await deliveries(hook);
      return l.length === 5 && l.every((d) => d.status === 'delivered') && l;
    }, 10_000);
    expect(list.map((d) => d.event)).toEqual([
      'new_finding',
      'scan_finished',
      'scan_running',
      'scan_finished',
      'scan_running',
    ]);
    const member = await t.addUser(`alert-member-${kind}@localhost`, 'member');
    const seenByMember = await t.request({
      method: 'GET',
      url: `/v1/scans/config/${flaky}/deliveries`,
      key: member.key,
    });
    expect(seenByMember.statusCode).toBe(200);
    expect(seenByMember.body).not.toContain('s3cr3t');
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${hook}`, key: member.key })).body).not.toContain(
      's3cr3t',
    );
    // Settings of a config that delivers nothing.
    const scanCfg = (
      await t.request({
        method: 'POST',
        url: '/v1/scans/config',
        payload: { name: 's', config_type: 'scan', config: 'retries: 1' },
      })
    ).json().id;
    expect((await t.request({ method: 'GET', url: `/v1/scans/config/${scanCfg}/deliveries` })).statusCode).toBe(400);
    expect(logLines.join('')).toContain('delivery attempt failed');
    expect(logLines.join('')).not.toContain('s3cr3t');
    void slack;
  }, 90_000);

  it('sends scan_stopped to the configs that ask for it, and nothing to a scan that disabled globals', async () => {
    const stopped = await config(
      'stops',
      `provider: webhook
events: [scan_stopped, scan_failed]
webhook: {url: "${receiver.url}/stopped"}
`,
    );
    const before = received('/slack').length;
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [`${target.url}/slow`],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        alerting_config_ids: [stopped],
        disable_global_alert_config: true,
      },
    });
    const id = res.json().id as string;
    await t.waitStatus(id, ['running', 'starting']);
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/stop` })).statusCode).toBe(200);
    await waitFor(async () => received('/stopped').length >= 1, 20_000);
    expect(JSON.parse(received('/stopped')[0]!.body)).toMatchObject({
      event: 'scan_stopped',
      scan_id: id,
      failure_reason: 'stopped',
    });
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${id}/config` })).json();
    expect(cfg.alerting_config_ids.map((c: { id: string }) => c.id)).toEqual([stopped]);

    // A scan that fails: the worker's failure path (failScan, as a chunk's last failed attempt calls it).
    const failing = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [`${target.url}/slow`],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        alerting_config_ids: [stopped],
        disable_global_alert_config: true,
      },
    });
    const failId = failing.json().id as string;
    await t.waitStatus(failId, ['running', 'starting']);
    expect(await failScan(t.ctx.db, failId, 'chunk 0 failed after 5 attempts (error id x in the server log)')).toBe(
      true,
    );
    await waitFor(async () => received('/stopped').length >= 2, 20_000);
    expect(JSON.parse(received('/stopped')[1]!.body)).toMatchObject({
      event: 'scan_failed',
      scan_id: failId,
      failure_reason: 'chunk 0 failed after 5 attempts (error id x in the server log)',
      message: expect.stringContaining('failed: chunk 0 failed'),
    });
    // An event's deliveries are all written at once, before any is sent: with the one to /stopped sent,
    // those of both scans exist, and none is for another config (the team's global Slack one included).
    const others = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deliveries WHERE scan_id = ANY($1) AND config_id <> $2',
      [[id, failId], stopped],
    );
    expect(others.rows[0]!.n).toBe(0);
    expect(received('/slack').length).toBe(before);
  }, 60_000);
});
