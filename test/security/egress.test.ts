// Integrations (webhook, Slack, Teams, email, GitHub, GitLab, Jira, Linear, Gitea) reach public addresses
// only, plus what VIGIL_EGRESS_ALLOW lists, and never the platform's own API port; decided on the address
// connected to. Here 127.0.0.1 plays the internal network (not allowed) and 127.0.0.2 a range the
// operator allowed; the "API" listens on 127.0.0.2 at the platform's port. Receivers prove the denied side
// by seeing nothing. A delivery's last_error is one text for every destination not reached (refused by
// the policy, connection refused, reset, timed out), so it cannot be used to map a network; an HTTP
// status from a service that was reached stays. Ticket ids and links are passed on only in their shape.
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/queue.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { createScanApp, HEADER_TEMPLATE, type ScanTestApp } from '../platform/scans/fixtures.ts';
import { startMonitor, type MonitorHandle } from '../../src/platform/monitor/loop.ts';
import '../../src/platform/monitor/steps.ts';
import { checkEgressSettings } from '../../src/platform/shared/deny.ts';

const UNREACHABLE = 'delivery failed: the destination is not allowed or did not answer';

/** A TCP server on `host` that does `onSocket` with each connection; records how many came. */
async function tcpServer(host: string, onSocket: (s: net.Socket) => void) {
  const open = new Set<net.Socket>();
  const server = net.createServer((s) => {
    out.connections++;
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const out = {
    port: (server.address() as net.AddressInfo).port,
    connections: 0,
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
  return out;
}

function smtpServer(mails: string[]): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_s, cb) {
      mails.push('connect');
      cb();
    },
    onData(stream, _s, cb) {
      let data = '';
      stream.on('data', (c) => (data += c));
      stream.on('end', () => {
        mails.push(data);
        cb();
      });
    },
  });
}

describe('integrations reach only what the policy allows', () => {
  let t: ScanTestApp;
  let monitor: MonitorHandle;
  let target: TestServer;
  let inner: TestServer; // 127.0.0.1: internal, not allowed
  let api: TestServer; // 127.0.0.2 at the platform's port
  let allowed: TestServer; // 127.0.0.2: allowed by the operator
  let blackhole: Awaited<ReturnType<typeof tcpServer>>;
  let reset: Awaited<ReturnType<typeof tcpServer>>;
  let closedPort = 0;
  const innerMails: string[] = [];
  const allowedMails: string[] = [];
  let smtpInner: SMTPServer;
  let smtpAllowed: SMTPServer;
  const smtpPort = (s: SMTPServer) => (s.server.address() as net.AddressInfo).port;

  beforeAll(async () => {
    process.env.VIGIL_DELIVERY_MAX_ATTEMPTS = '1';
    process.env.VIGIL_DELIVERY_TIMEOUT = '1';
    api = await startHttpServer((_req, res) => res.end('{"renamed": true}'), { host: '127.0.0.2' });
    t = await createScanApp('pglite', { port: api.port, host: '127.0.0.1', egressAllow: ['127.0.0.2/32'] });
    target = await startHttpServer((_req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end('hello');
    });
    inner = await startHttpServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        '{"number": 7, "iid": 7, "key": "SEC-7", "html_url": "http://inner/7", "data": {"issueCreate": {"success": true, "issue": {"id": "x", "url": "http://inner/7"}}}}',
      );
    });
    allowed = await startHttpServer(
      (req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/500') {
          res.statusCode = 500;
          return res.end('{"internal": "stack trace with secrets"}');
        }
        // A tracker answering with a link that is no link, and another with a number that is no number.
        if (req.url?.startsWith('/odd-link/'))
          return res.end('{"number": 3, "html_url": "javascript:alert(document.cookie)"}');
        if (req.url?.startsWith('/odd-number/'))
          return res.end('{"number": "INTERNAL-SECRET", "html_url": "https://ok.example/1"}');
        res.end('{}');
      },
      { host: '127.0.0.2' },
    );
    blackhole = await tcpServer('127.0.0.2', () => {});
    reset = await tcpServer('127.0.0.2', (s) => s.resetAndDestroy());
    const probe = await tcpServer('127.0.0.2', () => {});
    closedPort = probe.port;
    await probe.close();
    smtpInner = smtpServer(innerMails);
    smtpAllowed = smtpServer(allowedMails);
    await new Promise<void>((r) => smtpInner.listen(0, '127.0.0.1', () => r()));
    await new Promise<void>((r) => smtpAllowed.listen(0, '127.0.0.2', () => r()));
    monitor = startMonitor(t.ctx, 100);
  });
  afterAll(async () => {
    await monitor?.stop();
    await t?.close();
    await Promise.all([target, inner, api, allowed, blackhole, reset].map((s) => s?.close()));
    await Promise.all([smtpInner, smtpAllowed].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))));
    delete process.env.VIGIL_DELIVERY_MAX_ATTEMPTS;
    delete process.env.VIGIL_DELIVERY_TIMEOUT;
  });

  const config = async (type: 'alerting' | 'reporting', name: string, yaml: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: { name, config_type: type, config: yaml },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const settled = (id: string) =>
    waitFor(async () => {
      const list = (await t.request({ method: 'GET', url: `/v1/scans/config/${id}/deliveries` })).json() as Record<
        string,
        any
      >[];
      return list.length > 0 && list.every((d) => d.status !== 'pending') && list;
    }, 30_000);

  it('refuses internal addresses and the own API port for every kind, with one last_error for every failure to reach', async () => {
    const hook = (name: string, url: string, extra = '') =>
      config('alerting', name, `provider: webhook\nevents: [scan_finished]\nwebhook: {url: "${url}"${extra}}\n`);
    const P = api.port;
    const denied = {
      // The attack: PATCH the platform's own API with a key, through a spelling of a local address.
      ownApi: await hook(
        'own api',
        `http://[::ffff:127.0.0.2]:${P}/v1/user/team`,
        ', method: PATCH, headers: {X-API-Key: vgl_stolen}',
      ),
      ownApiName: await hook('own api by name', `http://localhost.:${P}/v1/user/team`),
      inner: await hook('inner', `http://2130706433:${inner.port}/hook`),
      innerName: await hook('inner by name', `http://localhost:${inner.port}/hook`),
      slack: await config(
        'alerting',
        'slack',
        `provider: slack\nevents: [scan_finished]\nslack: {webhook-url: "http://127.1:${inner.port}/slack"}\n`,
      ),
      teams: await config(
        'alerting',
        'teams',
        `provider: teams\nevents: [scan_finished]\nteams: {webhook-url: "http://[::ffff:7f00:1]:${inner.port}/teams"}\n`,
      ),
      email: await config(
        'alerting',
        'email',
        `provider: email\nevents: [scan_finished]\nemail: {host: "2130706433", port: ${smtpPort(smtpInner)}, from: a@b.test, to: [c@d.test]}\n`,
      ),
    };
    const base = `http://127.0.0.1:${inner.port}`;
    const trackers = {
      github: await config(
        'reporting',
        'gh',
        `github: {base-url: "${base}/gh", owner: acme, project-name: web, token: t}\n`,
      ),
      gitlab: await config('reporting', 'gl', `gitlab: {base-url: "${base}/gl", project-name: web, token: t}\n`),
      jira: await config('reporting', 'jira', `jira: {url: "${base}/jira", project-name: SEC, token: t}\n`),
      linear: await config('reporting', 'linear', `linear: {base-url: "${base}/linear", api-key: k, team-id: x}\n`),
      gitea: await config(
        'reporting',
        'gitea',
        `gitea: {base-url: "${base}/gitea", project-owner: acme, project-name: web, token: t}\n`,
      ),
    };
    const A = `http://127.0.0.2`;
    const reached = {
      closed: await hook('closed', `${A}:${closedPort}/`),
      blackhole: await hook('blackhole', `${A}:${blackhole.port}/`),
      reset: await hook('reset', `${A}:${reset.port}/`),
      error500: await hook('500', `${allowed.url}/500`),
      ok: await hook('ok', `${allowed.url}/ok`),
      email: await config(
        'alerting',
        'email ok',
        `provider: email\nevents: [scan_finished]\nemail: {host: 127.0.0.2, port: ${smtpPort(smtpAllowed)}, from: a@b.test, to: [c@d.test]}\n`,
      ),
      oddLink: await config(
        'reporting',
        'odd link',
        `github: {base-url: "${allowed.url}/odd-link", owner: acme, project-name: web, token: t}\n`,
      ),
      oddNumber: await config(
        'reporting',
        'odd number',
        `github: {base-url: "${allowed.url}/odd-number", owner: acme, project-name: web, token: t}\n`,
      ),
    };
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        name: 'egress',
        targets: [target.url],
        private_templates: [{ name: 'h.yaml', contents: HEADER_TEMPLATE }],
        alerting_config_ids: [
          ...Object.values(denied),
          reached.closed,
          reached.blackhole,
          reached.reset,
          reached.error500,
          reached.ok,
          reached.email,
        ],
        reporting_config_ids: [...Object.values(trackers), reached.oddLink, reached.oddNumber],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.waitStatus(res.json().id, ['finished']);

    for (const [name, id] of Object.entries({
      ...denied,
      ...trackers,
      closed: reached.closed,
      blackhole: reached.blackhole,
      reset: reached.reset,
    })) {
      const [d] = await settled(id);
      expect(d, name).toMatchObject({ status: 'failed', last_error: UNREACHABLE, response_status: 0 });
    }
    // Nothing reached the internal receivers or the API.
    expect(inner.requests).toEqual([]);
    expect(api.requests).toEqual([]);
    expect(innerMails).toEqual([]);
    // The allowed range was tried (the policy did not stop these: they failed on the network).
    expect(blackhole.connections).toBeGreaterThan(0);
    expect(reset.connections).toBeGreaterThan(0);
    // A service that answered keeps its status; one that took it, delivered.
    expect((await settled(reached.error500))[0]).toMatchObject({
      status: 'failed',
      last_error: 'HTTP 500',
      response_status: 500,
    });
    expect((await settled(reached.ok))[0]).toMatchObject({ status: 'delivered' });
    expect((await settled(reached.email))[0]).toMatchObject({ status: 'delivered' });
    expect(allowedMails.some((m) => m.includes('scan_finished'))).toBe(true);
    // A tracker's answer is passed on only in the shape of a ticket id and link.
    const odd = (await settled(reached.oddLink))[0]!;
    expect(odd).toMatchObject({ status: 'delivered', ticket_id: '3', ticket_url: '' });
    const oddNumber = (await settled(reached.oddNumber))[0]!;
    expect(oddNumber).toMatchObject({ status: 'failed', last_error: 'GitHub answered without an issue number' });
    expect(JSON.stringify(oddNumber)).not.toContain('INTERNAL-SECRET');
  });
});

describe('egress settings', () => {
  const base = {
    port: 8085,
    host: '127.0.0.1',
    denyTargets: [],
    allowDeniedTargets: false,
    egressAllow: [] as string[],
  };
  it('a process does not start with an allow or deny list it cannot read', () => {
    expect(() =>
      checkEgressSettings({ ...base, egressAllow: ['10.0.0.0/8', '192.168.1.5', '[fd00::]/8'] }),
    ).not.toThrow();
    expect(() => checkEgressSettings({ ...base, egressAllow: ['intranet.example'] })).toThrow(
      'VIGIL_EGRESS_ALLOW: "intranet.example" is not an address or CIDR range',
    );
    expect(() => checkEgressSettings({ ...base, denyTargets: ['http://[bad/'] })).toThrow(/VIGIL_DENY_TARGETS/);
  });
});
