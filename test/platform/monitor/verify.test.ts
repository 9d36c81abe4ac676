// "Send a test" (POST /v1/scans/config/verify): a webhook, Slack and email test delivered to real
// receivers on 127.0.0.1 (allowed here with VIGIL_EGRESS_ALLOW), a receiver's refusal reported in words,
// a reporting config checked by reading its tracker project (no ticket opened), and a bad config refused
// with a 400 naming the key in words. Nothing is stored.
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';

describe('send a test (config verify)', () => {
  let t: TestApp;
  let receiver: TestServer;
  let smtp: SMTPServer;
  let smtpPort = 0;
  const mails: string[] = [];

  beforeAll(async () => {
    t = await createTestApp('pglite', { egressAllow: ['127.0.0.0/8'] });
    receiver = await startHttpServer((req, res) => {
      if (req.url === '/refuses') {
        res.statusCode = 403;
        return res.end('no');
      }
      if (req.url === '/repos/acme/web') return res.end(JSON.stringify({ id: 1, full_name: 'acme/web' }));
      if (req.url?.startsWith('/repos/')) {
        res.statusCode = 404;
        return res.end('{}');
      }
      res.end('ok');
    });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _s, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          mails.push(data);
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    smtpPort = (smtp.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  });

  const verify = (payload: Record<string, unknown>, key?: string) =>
    t.request({ method: 'POST', url: '/v1/scans/config/verify', payload, key });
  const configsStored = async () =>
    Number((await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM configs')).rows[0]!.n);

  it('delivers a test alert through a webhook with its body template and headers', async () => {
    const res = await verify({
      config_type: 'alerting',
      config: `provider: webhook\nevents: [scan_finished]\nwebhook:\n  url: ${receiver.url}/hook\n  method: PUT\n  headers: {X-Token: abc}\n  body: '{"text": "{{message}}", "event": "{{event}}"}'\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ is_verified: true, response: 'test alert delivered (HTTP 200)' });
    const got = receiver.requests.filter((r) => r.url === '/hook');
    expect(got).toHaveLength(1);
    expect(got[0]!.method).toBe('PUT');
    expect(got[0]!.headers['x-token']).toBe('abc');
    expect(JSON.parse(got[0]!.body)).toEqual({
      text: 'Vigil: a test alert sent by owner@localhost; this integration works',
      event: 'test',
    });
  });

  it('reads the type from the text and sends a Slack message', async () => {
    const res = await verify({
      config: `provider: slack\nevents: [new_finding]\nslack: {webhook-url: ${receiver.url}/slack, channel: '#sec'}\n`,
    });
    expect(res.json()).toMatchObject({ is_verified: true });
    const got = receiver.requests.filter((r) => r.url === '/slack');
    expect(JSON.parse(got[0]!.body)).toMatchObject({ channel: '#sec', text: expect.stringContaining('test alert') });
  });

  it('sends a test mail through the SMTP server', async () => {
    const res = await verify({
      config_type: 'alerting',
      config: `provider: email\nevents: [scan_finished]\nemail: {host: 127.0.0.1, port: ${smtpPort}, from: vigil@example.com, to: [sec@example.com]}\n`,
    });
    expect(res.json(), res.body).toMatchObject({
      is_verified: true,
      response: 'test mail accepted by the SMTP server',
    });
    expect(mails.at(-1)).toContain('test alert');
  });

  it('says in words that a receiver refused the test, and stores nothing', async () => {
    const before = await configsStored();
    const res = await verify({
      config_type: 'alerting',
      config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: ${receiver.url}/refuses}\n`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ is_verified: false, response: 'HTTP 403' });
    expect(await configsStored()).toBe(before);
  });

  it('checks a reporting config by reading the tracker project, opening no ticket', async () => {
    const gh = (project: string) =>
      verify({
        config: `github: {base-url: '${receiver.url}', owner: acme, project-name: ${project}, token: ghp_x}\n`,
      });
    const ok = await gh('web');
    expect(ok.json(), ok.body).toMatchObject({
      is_verified: true,
      response: expect.stringMatching(/^github project reached/),
    });
    const seen = receiver.requests.filter((r) => r.url.startsWith('/repos/acme/web'));
    expect(seen.map((r) => r.method)).toEqual(['GET']);
    expect(seen[0]!.headers.authorization).toBe('Bearer ghp_x');
    expect((await gh('missing')).json()).toEqual({ is_verified: false, response: 'HTTP 404' });
  });

  it('answers a bad config with the problem in words and the key it names, sending nothing', async () => {
    const bad = await verify({
      config_type: 'alerting',
      config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: ${receiver.url}/x, method: GET}\n`,
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({
      is_verified: false,
      param: 'config.webhook.method',
      response: 'config key "webhook.method" must be one of POST, PUT, PATCH',
    });
    const url = await verify({ config: 'provider: slack\nevents: [scan_finished]\nslack: {webhook-url: hooks}\n' });
    expect(url.json().response).toBe(
      'config key "slack.webhook-url" must be an http(s) URL such as https://hooks.example.com/path',
    );
    // A text with neither a provider nor a tracker is checked as a scan config (the hosted default).
    expect((await verify({ config: 'rate-limit: 5\n' })).json()).toEqual({
      is_verified: true,
      response: 'valid scan config',
    });
    expect((await verify({ config: 'x: 1', config_type: 'nonsense' })).json()).toMatchObject({
      status: 400,
      param: 'config_type',
    });
    expect(receiver.requests.filter((r) => r.url === '/x')).toHaveLength(0);
  });

  it('is for those who manage configs', async () => {
    const member = await t.addUser('member@localhost', 'member');
    const res = await verify(
      {
        config_type: 'alerting',
        config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: ${receiver.url}/member}\n`,
      },
      member.key,
    );
    expect(res.statusCode).toBe(403);
    expect(receiver.requests.filter((r) => r.url === '/member')).toHaveLength(0);
  });
});
