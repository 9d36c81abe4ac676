// Prints the server's OpenAPI document (the same as GET /openapi.json) from an app on an in-memory
// database, so the console's API types can be generated without a running server.
import pino from 'pino';
import { connect } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildApp } from '../src/platform/app.ts';
import { configFromEnv } from '../src/platform/shared/config.ts';

export async function openApiDocument(): Promise<unknown> {
  const db = await connect({ dataDir: 'memory://' });
  try {
    await migrate(db);
    const app = await buildApp({
      db,
      config: { ...configFromEnv({}), rateLimitPerMinute: 0 },
      log: pino({ level: 'silent' }),
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    await app.close();
    return res.json();
  } finally {
    await db.close();
  }
}
