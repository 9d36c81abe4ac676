// "Send a test" (POST /v1/scans/config/verify) follows the integrations' egress rules: 127.0.0.1 plays the
// internal network (not allowed), 127.0.0.2 a range the operator allowed, and the platform's own API
// listens on 127.0.0.2 at its port. A test to the internal network, to the API's port, to a cloud metadata
// address or through a redirect to the internal network reaches nothing there (the receivers see nothing)
// and is answered with the one text that does not tell a closed port from a refused one. A reached service's
// answer body never comes back (only its status), nor does the config's URL or token; a Member cannot send
// tests at all.
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const UNREACHABLE = 'delivery failed: the destination is not allowed or did not answer';

describe('send a test: the deny list applies', () => {
  let t: TestApp;
  let inner: TestServer;
  let api: TestServer;
  let allowed: TestServer;
  let smtpInner: SMTPServer;
  const innerMails: string[] = [];

  beforeAll(async () => {
    process.env.VIGIL_DELIVERY_TIMEOUT = '2';
    api = await startHttpServer((_req, res) => res.end('{}'), { host: '127.0.0.2' });
    t = await createTestApp('pglite', { port: api.port, host: '127.0.0.1', egressAllow: ['127.0.0.2/32'] });
    inner = await startHttpServer((_req, res) => res.end('inner'));
    allowed = await startHttpServer(
      (req, res) => {
        if (req.url === '/redirect') {
          res.statusCode = 302;
          res.setHeader('location', `${inner.url}/after-redirect`);
          return res.end();
        }
        res.statusCode = 500;
        res.end('{"internal": "stack trace with INNER-SECRET"}');
      },
      { host: '127.0.0.2' },
    );
    smtpInner = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _s, cb) {
        stream.on('data', (c) => innerMails.push(String(c)));
        stream.on('end', () => cb());
      },
    });
    await new Promise<void>((r) => smtpInner.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([inner, api, allowed].map((s) => s?.close()));
    await new Promise<void>((r) => (smtpInner ? smtpInner.close(() => r()) : r()));
    delete process.env.VIGIL_DELIVERY_TIMEOUT;
  });

  const verify = (config: string, key?: string) =>
    t.request({ method: 'POST', url: '/v1/scans/config/verify', payload: { config }, key });
  const webhook = (url: string) => `provider: webhook\nevents: [scan_finished]\nwebhook: {url: '${url}'}\n`;

  it('reaches neither the internal network, the API port nor a metadata address', async () => {
    const apiOnAllowedHost = `http://127.0.0.2:${api.port}/v1/scans`;
    for (const url of [
      `${inner.url}/hook`,
      `http://localhost:${inner.port}/hook`,
      `http://[::ffff:127.0.0.1]:${inner.port}/hook`,
      apiOnAllowedHost,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const res = await verify(webhook(url));
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ is_verified: false, response: UNREACHABLE });
    }
    expect(inner.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(0);
  });

  it('does not follow a redirect into the internal network', async () => {
    const res = await verify(webhook(`${allowed.url}/redirect`));
    expect(res.json()).toEqual({ is_verified: false, response: 'HTTP 302' });
    expect(inner.requests).toHaveLength(0);
  });

  it('sends no mail through an internal SMTP server and no tracker check to the internal network', async () => {
    const port = (smtpInner.server.address() as { port: number }).port;
    const mail = await verify(
      `provider: email\nevents: [scan_finished]\nemail: {host: 127.0.0.1, port: ${port}, from: a@example.com, to: [b@example.com]}\n`,
    );
    expect(mail.json()).toEqual({ is_verified: false, response: UNREACHABLE });
    expect(innerMails).toHaveLength(0);
    const gitea = await verify(
      `gitea: {base-url: '${inner.url}', project-owner: a, project-name: b, token: tok-s3cr3t}\n`,
    );
    expect(gitea.json()).toEqual({ is_verified: false, response: UNREACHABLE });
    expect(inner.requests).toHaveLength(0);
  });

  it("never answers with the receiver's body, the URL or the token", async () => {
    const res = await verify(
      `provider: webhook\nevents: [scan_finished]\nwebhook: {url: '${allowed.url}/hook-s3cr3t', headers: {Authorization: Bearer tok-s3cr3t}}\n`,
    );
    expect(res.json()).toEqual({ is_verified: false, response: 'HTTP 500' });
    expect(res.body).not.toMatch(/INNER-SECRET|s3cr3t|127\.0\.0\.2/);
    const bad = await verify('provider: webhook\nevents: [scan_finished]\nwebhook: {url: "http://tok-s3cr3t@x/"\n');
    expect(bad.json().is_verified).toBe(false);
    expect(bad.body).not.toContain('s3cr3t');
  });

  it('is refused to a Member and a Viewer, who send nothing', async () => {
    for (const role of ['member', 'viewer']) {
      const u = await t.addUser(`${role}@localhost`, role);
      const res = await verify(webhook(`${allowed.url}/${role}`), u.key);
      expect(res.statusCode).toBe(403);
    }
    expect(allowed.requests.filter((r) => r.url === '/member' || r.url === '/viewer')).toHaveLength(0);
  });
});
