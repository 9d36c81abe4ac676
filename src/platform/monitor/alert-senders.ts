// Sending one alert through its alerting config: generic webhook, Slack and Microsoft Teams incoming
// webhooks, and email over SMTP (nodemailer).
import net from 'node:net';
import nodemailer from 'nodemailer';
import type { AppContext } from '../shared/context.ts';
import { integrationGuard, send, SendError, UNREACHABLE, type EgressConfig } from './http-send.ts';

export type AlertPayload = Record<string, unknown> & {
  event: string;
  message: string;
  scan_id: string;
  scan_name: string;
};

/** {{key}} placeholders of a body or subject; inside JSON text the values are JSON-escaped. */
export function renderTemplate(text: string, payload: AlertPayload, jsonEscape: boolean): string {
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_m, key: string) => {
    const v = key === 'json' ? JSON.stringify(payload) : payload[key];
    const s = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    return jsonEscape && key !== 'json' ? JSON.stringify(s).slice(1, -1) : s;
  });
}

/** Sends; resolves with the receiver's status (null for mail), throws SendError on failure. */
export async function sendAlert(
  ctx: AppContext,
  doc: Record<string, any>,
  payload: AlertPayload,
): Promise<number | null> {
  switch (doc.provider) {
    case 'webhook': {
      const w = doc.webhook as { url: string; method?: string; headers?: Record<string, string>; body?: string };
      const body = w.body ? renderTemplate(w.body, payload, /^\s*[[{]/.test(w.body)) : JSON.stringify(payload);
      const own = w.headers ?? {};
      const headers: Record<string, string> = Object.keys(own).some((k) => k.toLowerCase() === 'content-type')
        ? { ...own }
        : { 'content-type': w.body && !/^\s*[[{]/.test(w.body) ? 'text/plain' : 'application/json', ...own };
      return (await send(ctx.config, w.url, { method: w.method ?? 'POST', headers, body })).status;
    }
    case 'slack': {
      const s = doc.slack as { 'webhook-url': string; channel?: string; username?: string };
      const body = {
        text: payload.message,
        ...(s.channel ? { channel: s.channel } : {}),
        ...(s.username ? { username: s.username } : {}),
      };
      return (
        await send(ctx.config, s['webhook-url'], {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status;
    }
    case 'teams': {
      const t = doc.teams as { 'webhook-url': string };
      const facts = [
        ['Scan', `${payload.scan_name} (${payload.scan_id})`],
        ['Event', payload.event],
      ];
      const body = {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: payload.message, wrap: true, weight: 'Bolder' },
                { type: 'FactSet', facts: facts.map(([title, value]) => ({ title, value })) },
              ],
            },
          },
        ],
      };
      return (
        await send(ctx.config, t['webhook-url'], {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status;
    }
    case 'email': {
      const e = doc.email as SmtpSettings & { to: string[]; subject?: string };
      const x = await sendMail(ctx.config, e, {
        from: e.from,
        to: e.to,
        subject: renderTemplate(e.subject ?? 'Vigil: {{event}} - {{scan_name}}', payload, false).replace(
          /[\r\n]+/g,
          ' ',
        ),
        text: `${payload.message}\n\n${JSON.stringify(payload, null, 2)}\n`,
      });
      if (x) {
        // Refused credentials or recipients do not get better by retrying; connection trouble may.
        const permanent = x.code === 'EAUTH' || (x.code === 'EENVELOPE' && (x.responseCode ?? 0) >= 500);
        throw new SendError(mailErrorText(x), x.responseCode ?? null, !permanent);
      }
      return null;
    }
    default:
      throw new SendError(`unknown alerting provider`, null, false);
  }
}

/** One plain-text mail through the SMTP server of an `email` alerting config, to the given addresses. */
export async function sendConfigMail(
  config: EgressConfig,
  doc: Record<string, any>,
  to: string[],
  subject: string,
  text: string,
): Promise<void> {
  const e = doc.email as SmtpSettings;
  const x = await sendMail(config, e, { from: e.from, to, subject: subject.replace(/[\r\n]+/g, ' '), text });
  if (x) throw new Error(mailErrorText(x));
}

interface SmtpSettings {
  host: string;
  port: number;
  secure?: boolean;
  username?: string;
  password?: string;
  from: string;
}
interface MailError {
  code?: string;
  responseCode?: number;
}

/** Errors a reached SMTP server answered with (its own code is worth saying); every other failure did not reach one. */
const SERVER_ANSWERS = new Set(['EAUTH', 'EENVELOPE', 'EMESSAGE']);

/** Only the error class and the server's code (the message may quote the conversation); no reach, no detail. */
function mailErrorText(x: MailError): string {
  if (!x.code || !SERVER_ANSWERS.has(x.code)) return UNREACHABLE;
  return `SMTP delivery failed: ${x.code}${x.responseCode ? ` ${x.responseCode}` : ''}`;
}

/**
 * Sends one mail through the config's SMTP server, connected at an address the integrations' policy allows
 * (decided here after DNS; the certificate is still checked against the configured name). Resolves with
 * the error, undefined when sent.
 */
async function sendMail(
  config: EgressConfig,
  e: SmtpSettings,
  mail: { from: string; to: string[]; subject: string; text: string },
): Promise<MailError | undefined> {
  let address: string;
  try {
    address = await integrationGuard(config).address(e.host, e.port);
  } catch {
    return { code: 'EREFUSED' };
  }
  const transport = nodemailer.createTransport({
    host: address,
    servername: net.isIP(e.host) ? undefined : e.host,
    port: e.port,
    secure: e.secure ?? e.port === 465,
    auth: e.username ? { user: e.username, pass: e.password ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    logger: false,
    debug: false,
  });
  try {
    await transport.sendMail(mail);
    return undefined;
  } catch (err) {
    return err as MailError;
  } finally {
    transport.close();
  }
}
