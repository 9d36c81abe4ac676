// Invites by email through the team's SMTP alerting config, to a real SMTP server on 127.0.0.1: the new
// member gets the one-time link (token after `#`), the token never reaches the log; without an SMTP
// config nothing is sent and the token is only in the answer.
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/queue.ts';

describe('invite emails', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  let port = 0;
  const mails: { to: string[]; data: string }[] = [];
  const lines: string[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        let data = '';
        stream.on('data', (c) => (data += c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    port = (smtp.server.address() as { port: number }).port;
    t = await createTestApp(
      'pglite',
      { publicUrl: 'https://vigil.example.test', egressAllow: ['127.0.0.0/8'] },
      {
        log: pino(
          { level: 'info' },
          new Writable({
            write(c, _e, cb) {
              lines.push(String(c));
              cb();
            },
          }),
        ),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('mails the invite link only when the team has an SMTP alerting config', async () => {
    const plain = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: 'first@example.test', role: 'member' },
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().message).not.toMatch(/emailed/);

    const cfg = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: {
        name: 'mail',
        config_type: 'alerting',
        config: `provider: email\nevents: [scan_finished]\nemail: {host: 127.0.0.1, port: ${port}, from: vigil@localhost, to: [secops@localhost]}\n`,
      },
    });
    expect(cfg.statusCode, cfg.body).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: 'second@example.test', role: 'member' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/emailed/);
    const token = res.json().invite_token as string;
    const mail = await waitFor(async () => mails.find((m) => m.to.includes('second@example.test')));
    expect(mail.data.replace(/=\r?\n/g, '')).toContain(`https://vigil.example.test/invite#${token}`);
    expect(mails.some((m) => m.to.includes('first@example.test') || m.to.includes('secops@localhost'))).toBe(false);
    expect(lines.join('')).not.toContain(token);
  });
});
