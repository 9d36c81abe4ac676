// The whole API on a fresh database, driven with inject(). Also makes users with keys and roles.
import pino from 'pino';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/platform/app.ts';
import { configFromEnv, type PlatformConfig } from '../../src/platform/shared/config.ts';
import type { AppContext } from '../../src/platform/shared/context.ts';
import { bootstrapOwner, issueKey } from '../../src/platform/auth/service.ts';
import * as store from '../../src/platform/auth/store.ts';
import { parseRole } from '../../src/platform/auth/permissions.ts';
import { freshDb, type DbKind, type TestDb } from './db.ts';

export interface TestUser {
  email: string;
  key: string;
  userId: number;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  testDb: TestDb;
  owner: TestUser & { teamId: string };
  /** Adds a user to the owner's team with a role (any case) and returns their key. */
  addUser(email: string, role: string): Promise<TestUser>;
  /** inject() with the given key (default: the owner's). */
  request(opts: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  kind: DbKind = 'pglite',
  config: Partial<PlatformConfig> = {},
  extra: Partial<AppContext> = {},
): Promise<TestApp> {
  const testDb = await freshDb(kind);
  const db = testDb.db;
  const ctx: AppContext = {
    db,
    // The API rate limit is off unless a test asks for it (tests send thousands of requests a minute).
    config: { ...configFromEnv({}), dataDir: '/nonexistent', rateLimitPerMinute: 0, ...config },
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...extra,
  };
  const app = await buildApp(ctx);
  await app.ready();
  const boot = await bootstrapOwner(db, 'owner@localhost');
  const ownerRow = (await store.findUserByEmail(db, 'owner@localhost'))!;
  const owner = { email: 'owner@localhost', key: boot.apiKey!, userId: ownerRow.id, teamId: ownerRow.default_team_id! };
  return {
    app,
    ctx,
    testDb,
    owner,
    async addUser(email, role) {
      const user = await store.insertUser(db, email, owner.teamId);
      await store.insertMember(db, owner.teamId, user.id, parseRole(role)!, true);
      return { email, userId: user.id, key: await issueKey(db, user.id) };
    },
    request(opts) {
      const { key, ...rest } = opts;
      const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
      if (key !== null) headers['x-api-key'] = key ?? owner.key;
      return app.inject({ ...rest, headers });
    },
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
}
