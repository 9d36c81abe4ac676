import { InvalidArgumentError, type Command } from 'commander';
import { configFromEnv } from '../platform/shared/config.ts';

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('use a whole number of 1 or more');
  return n;
};

// `vigil worker`: runs jobs only, sharing the queue with `vigil serve` and other workers through PostgreSQL.
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'run background jobs (scans, enumerations) and the monitor loop against the PostgreSQL database of DATABASE_URL',
    )
    .option(
      '--concurrency <n>',
      'jobs of each kind run at once (env VIGIL_WORKER_CONCURRENCY; default per job)',
      positive,
    )
    .option('--secret-file <path...>', 'secret file(s) applied to the scans this worker runs; never sent to the server')
    .option('--secret-team <team_id...>', 'the team(s) whose scans get the secret files (required with --secret-file)')
    .option('--no-monitor', 'do not run the monitor loop (schedules, alert deliveries, tickets, remediation retests)')
    .action(async (opts: { concurrency?: number; secretFile?: string[]; secretTeam?: string[]; monitor: boolean }) => {
      const config = configFromEnv();
      if (!config.databaseUrl) {
        console.error(
          'vigil worker needs DATABASE_URL (a PostgreSQL server): the embedded database belongs to one process, ' +
            'and `vigil serve` already runs an in-process worker on it.',
        );
        process.exit(2);
      }
      const { createLogger, exitOnSignals, openPlatform } = await import('../platform/server.ts');
      const { startWorker } = await import('../platform/worker/runtime.ts');
      const log = createLogger();
      const envConcurrency = process.env.VIGIL_WORKER_CONCURRENCY
        ? positive(process.env.VIGIL_WORKER_CONCURRENCY)
        : undefined;
      let platform;
      try {
        platform = await openPlatform(config, log, process.env.VIGIL_DB_SCHEMA || undefined);
      } catch (err) {
        log.fatal({ err }, 'vigil worker could not start');
        console.error(`vigil: ${(err as Error).message}`);
        process.exit(1);
      }
      const { db, queue } = platform;
      // VIGIL_TEMPLATE_CERTIFICATES: a file that is no signing certificate stops the worker, named.
      try {
        (await import('../platform/templates/signing.ts')).templateCertificates();
      } catch (err) {
        console.error(`vigil: ${(err as Error).message}`);
        process.exit(1);
      }
      if (opts.secretFile?.length) {
        // Loaded (and dynamic logins run) before any job is taken; a broken file stops the worker.
        const { useSecretFiles } = await import('../platform/scans/worker-secrets.ts');
        try {
          await useSecretFiles(opts.secretFile, opts.secretTeam ?? []);
        } catch (err) {
          console.error(`vigil: ${(err as Error).message}`);
          process.exit(1);
        }
      }
      const ctx = { db, config, log, queue };
      const worker = await startWorker(ctx, { concurrency: opts.concurrency ?? envConcurrency });
      // The monitor loop runs here too, so schedules, alerts and retests go on with no serve process up.
      // Every step claims its rows in the database: any mix of serve and worker processes runs each once.
      let monitor: { stop(): Promise<void> } | undefined;
      if (opts.monitor) {
        await import('../platform/monitor/steps.ts');
        const { startMonitor } = await import('../platform/monitor/loop.ts');
        monitor = startMonitor(ctx);
      }
      const { startMetricsServer } = await import('../platform/shared/metrics.ts');
      const metrics = await startMetricsServer(process.env, log).catch((err: Error) => {
        console.error(`vigil: ${err.message}`);
        process.exit(1);
      });
      const grace = Number(process.env.VIGIL_SHUTDOWN_TIMEOUT ?? 30) * 1000;
      exitOnSignals(log, async () => {
        log.info('shutting down: finishing running jobs');
        await monitor?.stop().catch((err) => log.error({ err }, 'stopping the monitor loop failed'));
        await worker.stop(grace).catch((err) => log.error({ err }, 'stopping the worker failed'));
        await metrics?.close();
        await queue
          .stop({ graceful: false, close: true })
          .catch((err) => log.error({ err }, 'stopping the queue failed'));
        await db.close();
        log.info('stopped');
      });
    });
}
