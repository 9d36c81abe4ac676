// nuclei/smtp against an SMTP server on 127.0.0.1 (the smtp-server package): the greeting, a message
// sent (and what the server received), the open-relay probe against a server that relays and one that
// refuses foreign recipients, and AUTH PLAIN.
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/parse.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';

let server: SMTPServer;
let port = 0;
const received: { from: string; to: string[]; data: string; user?: string }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    banner: 'vigil-mx ready',
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, cb) {
      if (auth.username === 'alice' && auth.password === 'wonder') cb(null, { user: 'alice' });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      // Relays nothing outside its own domain.
      if (address.address.endsWith('@vigil.test')) cb();
      else cb(Object.assign(new Error('Relay access denied'), { responseCode: 554 }));
    },
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (d: Buffer) => (data += d.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function run(code: string): Promise<ResultEvent[]> {
  const res = parseTemplate(
    `id: smtp-js
info: { name: smtp-js, author: vigil, severity: info }
javascript:
  - code: |
${code
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
    args:
      Host: "{{Host}}"
      Port: "25"
    extractors:
      - type: regex
        regex: ["RESULT:.*"]
`,
    'smtp-js.yaml',
  );
  expect(res.issues).toEqual([]);
  expect(unsupportedReason(res.template!)).toBeUndefined();
  const events: ResultEvent[] = [];
  await runScan({
    targets: [`127.0.0.1:${port}`],
    templates: [res.template!],
    allowUnsigned: true, // a hand-written template carries no signature
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return events;
}

const result = (events: ResultEvent[]) => events[0]?.['extracted-results']?.[0];

describe('nuclei/smtp', () => {
  it('IsSMTP reads the greeting', async () => {
    const events = await run(`
      const smtp = require('nuclei/smtp');
      const r = new smtp.Client(Host, Port).IsSMTP();
      'RESULT:' + r.IsSMTP + ' ' + r.Banner`);
    expect(result(events)).toMatch(/^RESULT:true .*vigil-mx ready/);
  });

  it('SendMail delivers the message (To, Subject, body) with AUTH PLAIN', async () => {
    const before = received.length;
    const events = await run(`
      const smtp = require('nuclei/smtp');
      const m = new smtp.SMTPMessage();
      m.From('scanner@example.org').To('postmaster@vigil.test').Subject('hello').Body('line one\\n.dot line').Auth('alice', 'wonder');
      'RESULT:' + new smtp.Client(Host, Port).SendMail(m)`);
    expect(result(events)).toBe('RESULT:true');
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ from: 'scanner@example.org', to: ['postmaster@vigil.test'], user: 'alice' });
    expect(got[0]!.data).toContain('To: postmaster@vigil.test\r\nSubject: hello\r\n\r\nline one\r\n.dot line');
  });

  it('IsOpenRelay: true for a local recipient, an error (no relay) for a foreign one', async () => {
    const events = await run(`
      const smtp = require('nuclei/smtp');
      const c = new smtp.Client(Host, Port);
      const local = c.IsOpenRelay(new smtp.SMTPMessage().From('a@example.org').To('b@vigil.test').Body('x'));
      let foreign;
      try { foreign = c.IsOpenRelay(new smtp.SMTPMessage().From('a@example.org').To('victim@elsewhere.example').Body('x')); }
      catch (e) { foreign = 'refused ' + e.message; }
      'RESULT:' + local + ' / ' + foreign`);
    expect(result(events)).toMatch(/^RESULT:true \/ refused smtp: 554 .*Relay access denied/);
  });
});
