// The whole `vigil serve` process: open the database (migrations), bootstrap the owner, start the job
// queue and (unless told not to) an in-process worker, then listen. stop() undoes it in the safe order:
// stop taking requests and let in-flight ones finish, let running jobs finish, close queue and database.
import { platformSigners } from './templates/signing.ts';
import { recheckSignatures } from './templates/signature-recheck.ts';
import { fillRecordJson } from './templates/record-json.ts';
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import { buildApp } from './app.ts';
import { checkEgressSettings } from './shared/deny.ts';
import type { PlatformConfig } from './shared/config.ts';
import type { AppContext } from './shared/context.ts';
import { openDatabase } from './start.ts';
import { bootstrapOwner } from './auth/service.ts';
import { createPasswordLink } from './team/invites.ts';
import { queueSchemaFor, startQueue } from '../db/queue.ts';
import type { Db } from '../db/connection.ts';
import { ensureQueues } from './worker/registry.ts';
import { startWorker, type WorkerHandle } from './worker/runtime.ts';
import './jobs.ts';
import { closeEngineThreads, useEngineThreads } from './scans/engine-pool.ts';
import { importCatalogueAndRelink } from './intel/catalogue-import.ts';
import { startAdminSocket } from './admin/socket.ts';
import { startMetricsServer } from './shared/metrics.ts';
import { scheduleAutoUpdate } from './updates/jobs.ts';
import { startMonitor, type MonitorHandle } from './monitor/loop.ts';
import { startOast, type OastServer } from '../oast/index.ts';
import './monitor/steps.ts';

export interface ServerOptions {
  config: PlatformConfig;
  /** Run the in-process worker (default true). */
  worker?: boolean;
  /** PostgreSQL schema for Vigil's tables (VIGIL_DB_SCHEMA; tests point processes at a fresh one). */
  dbSchema?: string;
  log?: Logger;
  /** How long stop() waits for running jobs before aborting them (VIGIL_SHUTDOWN_TIMEOUT seconds). */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  /**
   * Set on the first start only: the owner account just created, its key and a one-time token for the
   * console page that sets the owner's password (`/invite#<token>`; both shown once).
   */
  bootstrap: { email: string; apiKey?: string; passwordToken?: string };
  /** The OAST server, when VIGIL_OAST_* configured one (docs/oast.md). */
  oast?: OastServer;
  stop(): Promise<void>;
}

export function createLogger(level = process.env.VIGIL_LOG_LEVEL ?? 'info'): Logger {
  // Keys never reach the log: requests are logged without headers, and these paths are masked anyway.
  return pino({ level, redact: ['req.headers["x-api-key"]', 'req.headers["x-pdcp-key"]', 'apiKey', 'api_key'] });
}

/** Database and queue as every long-running process needs them (also used by `vigil worker`). */
export async function openPlatform(
  config: PlatformConfig,
  log: Logger,
  dbSchema?: string,
): Promise<{ db: Db; queue: PgBoss }> {
  checkEgressSettings(config);
  const db = await openDatabase(config, dbSchema);
  try {
    const queue = await startQueue({
      db,
      databaseUrl: config.databaseUrl,
      schema: queueSchemaFor(config.databaseUrl ? dbSchema : undefined),
      schedule: true,
      supervise: true,
      log,
      setup: (boss) => ensureQueues(boss),
    });
    return { db, queue };
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const { config } = opts;
  const log = opts.log ?? createLogger();
  const grace = opts.shutdownGraceMs ?? 30_000;
  const { db, queue } = await openPlatform(config, log, opts.dbSchema);
  let app: FastifyInstance | undefined;
  let worker: WorkerHandle | undefined;
  let admin: { close(): Promise<void> } | undefined;
  let metrics: { close(): Promise<void> } | undefined;
  let monitor: MonitorHandle | undefined;
  let oast: OastServer | undefined;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log.info('shutting down: finishing in-flight requests and jobs');
      // Each step runs even when an earlier one failed, so the database is always closed last.
      await admin?.close().catch(() => {});
      await metrics?.close().catch(() => {});
      await oast?.close().catch(() => {});
      await app?.close().catch((err) => log.error({ err }, 'closing the HTTP server failed'));
      await monitor?.stop().catch((err) => log.error({ err }, 'stopping the monitor loop failed'));
      await worker?.stop(grace).catch((err) => log.error({ err }, 'stopping the worker failed'));
      await closeEngineThreads().catch(() => {});
      await queue
        .stop({ graceful: false, close: true, wait: true })
        .catch((err) => log.error({ err }, 'stopping the queue failed'));
      await db.close().catch((err) => log.error({ err }, 'closing the database failed'));
      log.info('stopped');
    })());

  try {
    const boot = await bootstrapOwner(db, config.ownerEmail, config.bootstrapApiKey);
    const bootstrap: RunningServer['bootstrap'] = { email: boot.email, apiKey: boot.apiKey };
    if (boot.userId && boot.teamId)
      bootstrap.passwordToken = (await createPasswordLink(db, boot.userId, boot.teamId)).token;
    // VIGIL_TEMPLATE_CERTIFICATES read now: a file that is no signing certificate stops the start, named.
    const signers = platformSigners().signers;
    const ctx: AppContext = { db, config, log, queue };
    app = await buildApp(ctx);
    if (opts.worker !== false) {
      // The engine runs on worker threads here: this process also answers the API, and no scan may
      // make it unresponsive.
      useEngineThreads();
      const n = Number(process.env.VIGIL_WORKER_CONCURRENCY);
      worker = await startWorker(ctx, { concurrency: Number.isInteger(n) && n > 0 ? n : undefined });
    }
    await app.listen({ host: config.host, port: config.port });
    // The embedded database belongs to this process: operator commands reach it through the admin socket.
    if (!config.databaseUrl) admin = await startAdminSocket(db, config.dataDir, log);
    metrics = await startMetricsServer(process.env, log);
    if (config.oast) {
      // The OAST server: out-of-band interactions for this platform's scans (and any interactsh client).
      oast = await startOast(config.oast);
      // A listen port of 0 picked one: the scans' client goes to the port actually bound.
      if (config.interactsh && !process.env.VIGIL_OAST_URL) config.interactsh.server = oast.localUrl;
      log.info({ domain: config.oast.domain, ports: oast.ports }, `OAST server for ${config.oast.domain} listening`);
    }
    const cron = await scheduleAutoUpdate(queue, process.env);
    if (cron) log.info({ cron }, 'automatic template and feed updates scheduled (UTC)');
    // Schedules, alerts and tickets: every serve process runs the loop; rows are claimed in the database.
    monitor = startMonitor(ctx);
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    // `--port 0` picked a port: the deny list's "own API port" is the one actually listened on.
    config.port = port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    if (config.templatesDir) void importTemplatesAtStart(db, config.templatesDir, log);
    // Stored templates checked under other trusted certificates (or none yet) are checked again.
    void recheckSignatures(db)
      .then((changed) => {
        if (changed > 0)
          log.info({ changed, signers }, 'template signatures checked again against the trusted certificates');
      })
      .catch((err) => log.warn({ err }, 'checking template signatures again failed'))
      // Templates without a stored Template record (written before migration 035, or changed by plain SQL)
      // get one: until then search reads their columns.
      .then(() => fillRecordJson(db))
      .then((filled) => {
        if (filled > 0) log.info({ filled }, 'template records stored for search');
      })
      .catch((err) => log.warn({ err }, 'storing template records for search failed'));
    return { app, ctx, url: `${config.tlsCert ? 'https' : 'http'}://${host}:${port}`, bootstrap, oast, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * VIGIL_TEMPLATES_DIR: the public catalogue is (re)imported in the background once the API listens, so a
 * large first import does not keep the server from answering. Progress and the outcome go to the log.
 */
async function importTemplatesAtStart(db: Db, dir: string, log: Logger): Promise<void> {
  log.info({ dir }, 'importing the template catalogue');
  try {
    const s = await importCatalogueAndRelink(db, dir, {
      onProgress: (p) => log.info({ phase: p.phase, done: p.done, total: p.total }, 'template import progress'),
      progressEvery: 2000,
    });
    log.info(
      {
        added: s.added,
        updated: s.updated,
        unchanged: s.unchanged,
        removed: s.removed,
        failed: s.failed.length,
        relinked: s.intel.records_changed,
        ms: s.ms,
      },
      'template catalogue imported',
    );
  } catch (err) {
    log.error({ err, dir }, 'template catalogue import failed');
  }
}

/** First SIGTERM/SIGINT: stop gracefully, then exit. A second one exits at once. */
export function exitOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'signal received');
    stop().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
