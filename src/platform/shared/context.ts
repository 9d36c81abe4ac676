// What every route and service of the platform can reach: the database, settings, logger and (when the
// process runs one) the job queue.
import type { Logger } from 'pino';
import type { Db } from '../../db/connection.ts';
import type { PlatformConfig } from './config.ts';

export interface AppContext {
  db: Db;
  config: PlatformConfig;
  log: Logger;
  /** pg-boss instance; absent in processes that run no queue (some tests). */
  queue?: import('pg-boss');
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
