// Invites by email: when the team has an `email` alerting config (an SMTP server), the invite link goes to
// the new member's address through it. The link holds the one-time token after `#`, so it never reaches
// a server log; the mail is sent in the background and only its outcome (never the token) is logged.
import type { AppContext } from '../shared/context.ts';
import { listConfigs } from '../configs/store.ts';
import { parseConfig } from '../configs/parsed.ts';
import { sendConfigMail } from '../monitor/alert-senders.ts';

export type SmtpConfig = Record<string, unknown>;

/** The team's first `email` alerting config, if it has one. */
export async function inviteMailer(ctx: Pick<AppContext, 'db'>, teamId: string): Promise<SmtpConfig | undefined> {
  const all = await listConfigs(ctx.db, teamId, { type: 'alerting', limit: 100, offset: 0 });
  return all.map(parseConfig).find((d) => d.provider === 'email');
}

/** Mails the invite link through the given SMTP config; failures are logged, never thrown. */
export async function mailInvite(
  ctx: Pick<AppContext, 'config' | 'log'>,
  smtp: SmtpConfig,
  a: { teamId: string; teamName: string; email: string; token: string; expiresAt: Date; account: 'new' | 'existing' },
): Promise<void> {
  const base = (
    ctx.config.publicUrl ?? `${ctx.config.tlsCert ? 'https' : 'http'}://${ctx.config.host}:${ctx.config.port}`
  ).replace(/\/+$/, '');
  const what = a.account === 'new' ? 'Set your password and sign in' : `Sign in as ${a.email} and accept`;
  const text =
    `You have been invited to the Vigil team "${a.teamName}".\n\n${what}: ${base}/invite#${a.token}\n\n` +
    `The link works once, until ${a.expiresAt.toISOString()}.\n`;
  try {
    await sendConfigMail(ctx.config, smtp, [a.email], `Your invitation to Vigil (${a.teamName})`, text);
    ctx.log.info({ team_id: a.teamId }, 'invite emailed');
  } catch (err) {
    ctx.log.warn(
      { team_id: a.teamId, reason: (err as Error).message },
      'invite email failed; the invite token was still returned',
    );
  }
}
