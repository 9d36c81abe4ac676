// The SMTP listener (nodemailer's smtp-server): accepts any mail; a message to an address whose domain
// holds a registered id is an interaction (protocol "smtp", the sender in smtp-from, the message as sent).
import { SMTPServer } from 'smtp-server';
import { idsInName, type Interaction } from './protocol.ts';
import type { Sessions } from './sessions.ts';
import { listenTcp, type ListenAddress } from './listen.ts';

export interface SmtpListenerOptions {
  domain: string;
  sessions: Sessions;
  onInteraction?: (i: Interaction) => void;
}

const MAX_MESSAGE = 256 * 1024;

export async function startSmtp(o: SmtpListenerOptions, at: ListenAddress) {
  const server = new SMTPServer({
    name: o.domain,
    banner: 'ready',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MESSAGE,
    maxClients: 200,
    socketTimeout: 30_000,
    logger: false,
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        if (size < MAX_MESSAGE) parts.push(c.subarray(0, MAX_MESSAGE - size));
        size += c.length;
      });
      stream.on('end', () => {
        const message = Buffer.concat(parts).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const seen = new Set<string>();
        for (const rcpt of session.envelope.rcptTo) {
          const at = rcpt.address.lastIndexOf('@');
          if (at < 0) continue;
          for (const hit of idsInName(rcpt.address.slice(at + 1), (id) => o.sessions.has(id))) {
            if (seen.has(hit.id)) continue;
            seen.add(hit.id);
            const i: Interaction = {
              protocol: 'smtp',
              'unique-id': hit.id,
              'full-id': hit.full,
              'raw-request': message,
              'smtp-from': from,
              'remote-address': (session.remoteAddress ?? '').replace(/^::ffff:/, ''),
              timestamp: new Date().toISOString(),
            };
            o.sessions.add(i);
            o.onInteraction?.(i);
          }
        }
        if (size > MAX_MESSAGE) {
          const err = new Error(`message larger than ${MAX_MESSAGE} bytes`) as Error & { responseCode: number };
          err.responseCode = 552;
          return callback(err);
        }
        callback();
      });
    },
  });
  server.on('error', () => {});
  const port = await listenTcp(server.server, at);
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
