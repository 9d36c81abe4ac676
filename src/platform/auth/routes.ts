// /v1/auth/...: the console's sign-in (password or API key), session and sign-out; /v1/user/password and
// /v1/user/apikey for the caller's own account.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { badRequest, errorResponses, MessageBody } from '../shared/errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { checkNewPassword, MAX_PASSWORD } from './password-rules.ts';
import {
  checkCredentials,
  createSession,
  createSignInLimits,
  endOtherSessions,
  endSession,
  SESSION_COOKIE,
  SESSION_DAYS,
} from './sessions.ts';
import * as store from './store.ts';
import { createFirstKey, revokeKey } from './service.ts';

const tags = ['auth'];

/** The cookie is Secure when the request came over HTTPS or the public URL is HTTPS. */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  const secure = req.protocol === 'https' || /^https:/i.test(req.server.ctx.config.publicUrl ?? '');
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: SESSION_DAYS * 86_400,
  });
}

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;
  const limits = createSignInLimits();

  app.post(
    '/v1/auth/sign-in',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in to the console with email and password, or with an API key: sets the session cookie',
        security: [],
        body: Type.Object({
          email: Type.Optional(Type.String({ maxLength: 320 })),
          password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD })),
          api_key: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            email: Type.String(),
            csrf_token: Type.String({ description: 'send it as X-CSRF-Token with every request that changes data' }),
          }),
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (req, reply) => {
      const { email, password, api_key } = req.body;
      if (api_key === undefined && (!email || password === undefined))
        throw badRequest('send email and password, or api_key', email ? 'password' : 'email');
      let user;
      try {
        user = await checkCredentials(db, { email, password, api_key, ip: req.ip }, limits);
      } catch (err) {
        // For the operator: who was tried from where (never the password or key).
        req.log.warn(
          {
            email: api_key === undefined ? email : undefined,
            with: api_key === undefined ? 'password' : 'api_key',
            ip: req.ip,
            status: (err as { status?: number }).status,
          },
          'console sign-in refused',
        );
        throw err;
      }
      const s = await createSession(db, user.userId);
      setSessionCookie(req, reply, s.token);
      return { message: 'signed in', email: user.email, csrf_token: s.csrfToken };
    },
  );

  app.post(
    '/v1/auth/sign-out',
    {
      schema: {
        tags,
        summary: 'Sign out: ends the session on the server and clears the cookie',
        response: { 200: MessageBody, ...errorResponses(401, 403) },
      },
    },
    async (req, reply) => {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      if (!req.session) return { message: 'no session to end (signed in with an API key)' };
      await endSession(db, req.session.token);
      return { message: 'signed out' };
    },
  );

  app.get(
    '/v1/auth/session',
    {
      schema: {
        tags,
        summary: 'The signed-in caller and, for a console session, its CSRF token',
        response: {
          200: Type.Object({
            message: Type.String(),
            email: Type.String(),
            user_id: Type.Integer(),
            team_id: Type.String(),
            role: Type.String(),
            via: Type.Union([Type.Literal('session'), Type.Literal('api_key')]),
            csrf_token: Type.Optional(Type.String()),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => ({
      message: 'ok',
      email: req.caller.email,
      user_id: req.caller.userId,
      team_id: req.caller.teamId,
      role: req.caller.role,
      via: req.session ? ('session' as const) : ('api_key' as const),
      ...(req.session ? { csrf_token: req.session.csrfToken } : {}),
    }),
  );

  app.put(
    '/v1/user/password',
    {
      schema: {
        tags: ['users'],
        summary:
          'Set or change your password (with the session cookie, the current one is needed once one is set); ends your other sessions',
        body: Type.Object({
          password: Type.String({ maxLength: MAX_PASSWORD }),
          current_password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD })),
        }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      await checkNewPassword(req.body.password, { email: req.caller.email });
      // With the console's session the current password is needed (a borrowed session must not take the
      // account over); with the API key, the stronger credential, it is not: that is how a forgotten
      // password is reset (`vigil users key` gives a new key on the server machine).
      const stored = await store.findPasswordHash(db, req.caller.userId);
      if (stored && req.session && !(await verifyPassword(req.body.current_password ?? '', stored))) {
        throw badRequest('the current password is wrong', 'current_password');
      }
      await store.setPasswordHash(db, req.caller.userId, await hashPassword(req.body.password));
      await endOtherSessions(db, req.caller.userId, req.session?.token);
      return { message: 'password set; your other sessions have ended' };
    },
  );

  app.get(
    '/v1/user/apikey',
    {
      schema: {
        tags: ['users'],
        summary: 'Your API key as it may be shown: its prefix and age (rotate it to see a new key once)',
        response: {
          200: Type.Object({
            message: Type.String(),
            has_key: Type.Boolean(),
            key_prefix: Type.Optional(Type.String()),
            created_at: Type.Optional(Type.String()),
          }),
          ...errorResponses(401),
        },
      },
    },
    async (req) => {
      const info = await store.findKeyInfo(db, req.caller.userId);
      if (!info) return { message: 'you have no API key yet: rotate to get one', has_key: false };
      return {
        message: 'ok',
        has_key: true,
        key_prefix: info.key_prefix,
        created_at: new Date(info.created_at).toISOString(),
      };
    },
  );

  app.post(
    '/v1/user/apikey',
    {
      schema: {
        tags: ['users'],
        summary: 'Create your API key when you have none (shown once; a user with a key rotates it instead: 409)',
        response: {
          200: Type.Object({ message: Type.String(), api_key: Type.String() }),
          ...errorResponses(401, 409),
        },
      },
    },
    async (req) => ({
      message: 'API key created; it is shown this once',
      api_key: await createFirstKey(db, req.caller.userId),
    }),
  );

  app.delete(
    '/v1/user/apikey',
    {
      schema: {
        tags: ['users'],
        summary: 'Revoke your API key at once (sign in to the console or ask `vigil users key` for a new one)',
        response: { 200: MessageBody, ...errorResponses(401, 404) },
      },
    },
    async (req) => {
      await revokeKey(db, req.caller.userId);
      return { message: 'API key revoked; it no longer works' };
    },
  );
};
