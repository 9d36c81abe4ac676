// One-time invites, so a member added while the server runs can get in without anyone touching the
// server. The inviter receives the token, so what redeeming it may do depends on the account it is for
// (decided when the invite is made, checked again when it is redeemed):
// - an account the invite made (no password, no key, no other team): the redeemer sets its first password
//   and gets its first key;
// - an account that exists: it joins only by accepting while signed in as itself (key or session); the
//   invite never sets or changes a password and never hands out a key;
// - the first start's link for the owner: sets the owner's password once, never a key.
import { hashToken, newToken as mintToken } from '../shared/tokens.ts';
import type { Db } from '../../db/connection.ts';
import { issueKey } from '../auth/service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { checkNewPassword } from '../auth/password-rules.ts';
import * as authStore from '../auth/store.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../shared/errors.ts';
import * as store from './store.ts';

export const INVITE_TTL_DAYS = 7;
const hash = hashToken;
const newToken = () => mintToken('vgi_', 24);

export interface NewInvite {
  token: string;
  expiresAt: Date;
  /** 'new': the redeemer sets up the account; 'existing': the account joins by signing in. */
  account: 'new' | 'existing';
}

/** A one-time invite for a member of the team (replacing an open one); the clear token is returned once. */
export async function createInvite(db: Db, teamId: string, userId: number, createdBy: number): Promise<NewInvite> {
  const kind = (await store.isUnclaimedAccount(db, userId, teamId)) ? 'account' : 'join';
  const token = newToken();
  const expiresAt = await store.insertInvite(db, {
    tokenHash: hash(token),
    teamId,
    userId,
    createdBy,
    kind,
    days: INVITE_TTL_DAYS,
  });
  return { token, expiresAt, account: kind === 'account' ? 'new' : 'existing' };
}

/** The first start's link that sets the owner's password (`/invite#<token>`), printed once. */
export async function createPasswordLink(
  db: Db,
  userId: number,
  teamId: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = await store.insertInvite(db, {
    tokenHash: hash(token),
    teamId,
    userId,
    createdBy: userId,
    kind: 'first_password',
    days: INVITE_TTL_DAYS,
  });
  return { token, expiresAt };
}

/** 'password': redeemed by choosing a password (a new account, the owner's first password); else by signing in. */
function acceptWith(inv: store.OpenInvite): 'password' | 'sign_in' {
  if (inv.kind === 'account') return inv.has_password || inv.has_key ? 'sign_in' : 'password';
  if (inv.kind === 'first_password') return inv.has_password ? 'sign_in' : 'password';
  return 'sign_in';
}

function unknownInvite(): ApiError {
  return notFound('this invite is unknown, used or expired: ask an Admin for a new one', 'token');
}

/** What the invite page shows before anything is done: whose invite, to which team, and how to accept. */
export async function lookupInvite(db: Db, token: string) {
  const inv = await store.findOpenInvite(db, hash(token));
  if (!inv) throw unknownInvite();
  return {
    email: inv.email,
    team_id: inv.team_id,
    team_name: inv.team_name,
    accept_with: acceptWith(inv),
    expires_at: inv.expires_at.toISOString(),
  };
}

export interface AcceptInput {
  token: string;
  password?: string;
  /** The signed-in caller (API key or session), when there is one. */
  caller?: { userId: number; email: string };
}

export interface Accepted {
  email: string;
  teamId: string;
  userId: number;
  /** The new account's first key, shown once. */
  apiKey?: string;
  /** A password was set: the caller may be signed in with a session. */
  passwordSet: boolean;
}

/**
 * Redeems an invite once, under the rules above. A refused invite is not used up. The password (rules,
 * then scrypt) is checked before the invite row is locked; the rules are checked again under the lock.
 */
export async function acceptInvite(db: Db, input: AcceptInput): Promise<Accepted> {
  const tokenHash = hash(input.token);
  const seen = await store.findOpenInvite(db, tokenHash);
  if (!seen) throw unknownInvite();
  decide(seen, input);
  let passwordHash: string | undefined;
  if (input.password !== undefined) {
    await checkNewPassword(input.password, { email: seen.email });
    passwordHash = await hashPassword(input.password);
  }
  return db.transaction(async (tx) => {
    const inv = await store.claimInvite(tx, tokenHash);
    if (!inv) throw unknownInvite();
    const setsPassword = decide(inv, input);
    if (!(await authStore.findMembership(tx, inv.team_id, inv.user_id)))
      throw notFound('the membership this invite was for was removed', 'token');
    if (passwordHash && setsPassword) await authStore.setPasswordHash(tx, inv.user_id, passwordHash);
    await authStore.acceptInvite(tx, inv.team_id, inv.user_id);
    // Only an account this invite set up gets a key from it.
    const apiKey = inv.kind === 'account' && setsPassword && !inv.has_key ? await issueKey(tx, inv.user_id) : undefined;
    return {
      email: inv.email,
      teamId: inv.team_id,
      userId: inv.user_id,
      apiKey,
      passwordSet: Boolean(passwordHash && setsPassword),
    };
  });
}

/**
 * Whether this redemption may go ahead, and whether it sets up the account (first password or first key).
 * Throws when it may not: another account signed in, an existing account not signed in, or a password
 * for an account that has credentials already.
 */
function decide(inv: store.OpenInvite, input: AcceptInput): boolean {
  const setsUp = acceptWith(inv) === 'password';
  if (input.caller && input.caller.userId !== inv.user_id) {
    throw forbidden(
      `this invite is for ${inv.email}, and you are signed in as ${input.caller.email}: sign in as ${inv.email} to accept it`,
    );
  }
  if (!setsUp) {
    if (!input.caller)
      throw new ApiError(
        401,
        `this invite is for the existing account ${inv.email}: sign in as ${inv.email}, then accept it`,
        'unauthorized',
      );
    if (input.password !== undefined) {
      if (inv.kind === 'first_password')
        throw conflict('this account already has a password: sign in with it', 'password');
      throw badRequest(
        'an invite for an existing account sets no password: leave password out (change it in your settings)',
        'password',
      );
    }
    return false;
  }
  if (inv.kind === 'first_password' && input.password === undefined)
    throw badRequest("password is required: this link sets the owner's password", 'password');
  return true;
}
