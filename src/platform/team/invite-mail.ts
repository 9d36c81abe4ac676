// Invites by email: when the team has an `email` alerting config (an SMTP server), the invite link goes to
// the new member's address through it. The link holds the one-time token after `#`, so it never reaches
// a server log; the mail is sent in the background and only its outcome (never the token) is logged.
import yaml from 'js-yaml';
import type { AppContext } from '../context.ts';
import { listConfigs } from '../monitor/config-store.ts';
import { sendConfigMail } from '../monitor/alert-senders.ts';

async function smtpConfig(ctx: Pick<AppContext, 'db'>, teamId: string): Promise<Record<string, unknown> | undefined> {
  const all = await listConfigs(ctx.db, teamId, { type: 'alerting', limit: 100, offset: 0 });
  return all.map((c) => {
    try {
      return yaml.load(c.config, { schema: yaml.CORE_SCHEMA }) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }).find((d) => d?.provider === 'email');
}

export async function hasMailConfig(ctx: Pick<AppContext, 'db'>, teamId: string): Promise<boolean> {
  return (await smtpConfig(ctx, teamId)) !== undefined;
}

/** Sends the invite when an email alerting config exists; resolves with whether one was used. */
export async function mailInvite(ctx: Pick<AppContext, 'db' | 'config' | 'log'>, a: { teamId: string; teamName: string; email: string; token: string; expiresAt: Date }): Promise<boolean> {
  const smtp = await smtpConfig(ctx, a.teamId);
  if (!smtp) return false;
  const base = (ctx.config.publicUrl ?? `${ctx.config.tlsCert ? 'https' : 'http'}://${ctx.config.host}:${ctx.config.port}`).replace(/\/+$/, '');
  const text = `You have been invited to the Vigil team "${a.teamName}".\n\nSet your password and sign in: ${base}/invite#${a.token}\n\n` +
    `The link works once, until ${a.expiresAt.toISOString()}.\n`;
  try {
    await sendConfigMail(smtp, [a.email], `Your invitation to Vigil (${a.teamName})`, text);
    ctx.log.info({ team_id: a.teamId }, 'invite emailed');
  } catch (err) {
    ctx.log.warn({ team_id: a.teamId, reason: (err as Error).message }, 'invite email failed; the invite token was still returned');
  }
  return true;
}
