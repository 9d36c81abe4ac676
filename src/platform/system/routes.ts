// Health check (no key needed): answers 200 only when the database answers.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ping } from '../../db/generic.ts';

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Health: checks the database',
        response: {
          200: Type.Object({ status: Type.Literal('ok'), database: Type.String() }),
          503: Type.Object({ status: Type.Literal('unavailable'), message: Type.String() }),
        },
      },
    },
    async (req, reply) => {
      try {
        await ping(app.ctx.db);
        return { status: 'ok' as const, database: app.ctx.db.kind };
      } catch (err) {
        // Anyone may ask: the database's own error (host names, users, paths) goes to the log only.
        req.log.error({ err }, 'health check: the database did not answer');
        return reply.code(503).send({ status: 'unavailable' as const, message: 'the database does not answer' });
      }
    },
  );
};
