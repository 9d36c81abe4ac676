// nuclei/smtp (pkg/js/libs/smtp): `new Client(host, port)` with IsSMTP() -> { IsSMTP, Banner } (the
// server's 220 greeting), IsOpenRelay(message) -> true when the server takes a message for its one
// recipient, SendMail(message) -> true (AUTH PLAIN when the message has a user and password; a refusal
// is an error); `new SMTPMessage()` with From, To, Subject, Body, Auth, String. A small SMTP client over
// the engine's guarded connection; no STARTTLS.
import type net from 'node:net';
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';

interface Message {
  from: string;
  to: string[];
  sub: string;
  msg: string;
  user: string;
  pass: string;
}

/** nuclei's SMTPMessage.String(): To, Subject, a blank line, the body. */
export function messageText(m: Message): string {
  return `To: ${m.to.join(',')}\r\n${m.sub ? `Subject: ${m.sub}\r\n` : ''}\r\n${m.msg}\r\n`;
}

class Session {
  private buf = '';
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly s: net.Socket,
    private readonly env: HostEnv,
  ) {
    s.on('data', (d: Buffer) => {
      if (this.buf.length < 64 * 1024) this.buf += d.toString('utf8');
      this.wake?.();
    });
    s.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  /** One reply (multi-line ones joined): its code and text. */
  reply(): Promise<{ code: number; text: string }> {
    const read = async () => {
      for (;;) {
        const m = /^(?:\d{3}-[^\n]*\n)*(\d{3})(?: [^\n]*)?\r?\n/.exec(this.buf);
        if (m) {
          this.buf = this.buf.slice(m[0].length);
          return { code: Number(m[1]), text: m[0].trim() };
        }
        if (this.closed) throw new Error('smtp: connection closed');
        await new Promise<void>((r) => (this.wake = r));
      }
    };
    return bounded(read(), this.env, 'smtp reply');
  }

  async command(line: string, expect: number[]): Promise<string> {
    this.s.write(`${line}\r\n`);
    const r = await this.reply();
    if (!expect.includes(r.code)) throw new Error(`smtp: ${r.text}`);
    return r.text;
  }
}

function message(v: unknown): Message {
  const o = (v ?? {}) as Record<string, unknown>;
  return {
    from: text(o.from),
    to: Array.isArray(o.to) ? o.to.map(text) : [],
    sub: text(o.sub),
    msg: text(o.msg),
    user: text(o.user),
    pass: text(o.pass),
  };
}

const clean = (s: string) => s.replace(/[\r\n]/g, '');

async function deliver(env: HostEnv, host: unknown, port: unknown, m: Message, auth: boolean): Promise<boolean> {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    const c = new Session(s, env);
    const hello = await c.reply();
    if (hello.code !== 220) throw new Error(`smtp: ${hello.text}`);
    await c.command('EHLO localhost', [250]).catch(() => c.command('HELO localhost', [250]));
    if (auth && m.user && m.pass)
      await c.command(`AUTH PLAIN ${Buffer.from(`\0${m.user}\0${m.pass}`).toString('base64')}`, [235]);
    await c.command(`MAIL FROM:<${clean(m.from)}>`, [250]);
    for (const to of m.to) await c.command(`RCPT TO:<${clean(to)}>`, [250, 251]);
    await c.command('DATA', [354]);
    const body = messageText(m).replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    await c.command(`${body}.`, [250]);
    await c.command('QUIT', [221]).catch(() => '');
    return true;
  } finally {
    s.destroy();
  }
}

async function isSmtp(env: HostEnv, host: unknown, port: unknown) {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    const hello = await new Session(s, env).reply();
    return hello.code === 220
      ? { IsSMTP: true, Banner: hello.text.replace(/^220[ -]/, '') }
      : { IsSMTP: false, Banner: '' };
  } finally {
    s.destroy();
  }
}

export const smtpOps: Record<string, HostOp> = {
  'smtp.IsSMTP': (env, [h, p]) => isSmtp(env, h, p),
  'smtp.IsOpenRelay': (env, [h, p, m]) => {
    const msg = message(m);
    if (msg.to.length !== 1) throw new Error(`invalid number of recipients: required 1, got ${msg.to.length}`);
    return deliver(env, h, p, msg, false);
  },
  'smtp.SendMail': async (env, [h, p, m]) => {
    const msg = message(m);
    try {
      return await deliver(env, h, p, msg, true);
    } catch (err) {
      throw new Error(`failed to send mail with message(${messageText(msg)}) got ${(err as Error).message}`);
    }
  },
};
