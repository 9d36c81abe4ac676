import { InvalidArgumentError, type Command } from 'commander';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configFromEnv } from '../platform/shared/config.ts';

const portOption = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('use a number from 0 to 65535');
  return n;
};

// `vigil serve`: the API, the cron scheduler and (unless --no-worker) an in-process worker.
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API, the job scheduler and an in-process worker')
    .option('--host <host>', 'address to listen on (env VIGIL_HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (env PORT, default 8085)', portOption)
    .option(
      '--data-dir <dir>',
      'embedded database folder when DATABASE_URL is not set (env VIGIL_DATA_DIR, default ./data)',
    )
    .option('--tls-cert <file>', 'PEM certificate: serve HTTPS (env VIGIL_TLS_CERT; needs --tls-key)')
    .option('--tls-key <file>', 'PEM private key for --tls-cert (env VIGIL_TLS_KEY)')
    .option('--no-worker', 'do not run jobs in this process (run `vigil worker` processes instead)')
    .action(
      async (opts: {
        host?: string;
        port?: number;
        dataDir?: string;
        worker: boolean;
        tlsCert?: string;
        tlsKey?: string;
      }) => {
        const env = { ...process.env };
        if (opts.dataDir) env.VIGIL_DATA_DIR = opts.dataDir;
        const config = configFromEnv(env);
        if (opts.host) config.host = opts.host;
        if (opts.port !== undefined) config.port = opts.port;
        if (opts.tlsCert) config.tlsCert = opts.tlsCert;
        if (opts.tlsKey) config.tlsKey = opts.tlsKey;
        if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) {
          throw new InvalidArgumentError(`invalid PORT "${process.env.PORT}"`);
        }
        // Loaded here, not at the top, so other commands and --help do not load the whole platform.
        const { createLogger, exitOnSignals, startServer } = await import('../platform/server.ts');
        const { DataDirBusyError } = await import('../platform/start.ts');
        const log = createLogger();
        let server;
        try {
          server = await startServer({
            config,
            worker: opts.worker,
            dbSchema: process.env.VIGIL_DB_SCHEMA || undefined,
            log,
            shutdownGraceMs: Number(process.env.VIGIL_SHUTDOWN_TIMEOUT ?? 30) * 1000,
          });
        } catch (err) {
          // A data folder held by another `vigil serve` is an expected refusal: its sentence says it all.
          if (!(err instanceof DataDirBusyError)) log.fatal({ err }, 'vigil serve could not start');
          console.error(`vigil: ${(err as Error).message}`);
          process.exit(1);
        }
        if (server.bootstrap.apiKey && config.bootstrapApiKey) {
          log.info(
            { email: server.bootstrap.email },
            'owner account created with the key given in VIGIL_BOOTSTRAP_API_KEY',
          );
        } else if (server.bootstrap.apiKey) {
          announceOwnerKey(server.bootstrap.email, server.bootstrap.apiKey, server.url, config.dataDir, log);
        }
        if (server.bootstrap.passwordToken) {
          announcePasswordLink(
            server.bootstrap.email,
            `${config.publicUrl?.replace(/\/+$/, '') ?? server.url}/invite#${server.bootstrap.passwordToken}`,
            config.dataDir,
            log,
          );
        }
        log.info(
          { url: server.url, database: config.databaseUrl ? 'postgres' : config.dataDir, worker: opts.worker },
          `vigil listening on ${server.url}`,
        );
        exitOnSignals(log, server.stop);
      },
    );
}

/**
 * The first start's owner key, shown once and never written into the log stream: on a terminal it is
 * printed there; otherwise (a service manager, a container, CI) it goes into `<data dir>/owner-api-key`,
 * readable by this user only, and the log says where.
 */
function announceOwnerKey(
  email: string,
  key: string,
  url: string,
  dataDir: string,
  log: { info: (o: object, m: string) => void },
): void {
  if (process.stdout.isTTY) {
    process.stdout.write(
      `\nOwner account ${email} created. Its API key (shown only this once):\n\n  ${key}\n\n` +
        `Try: curl -H "X-API-Key: $KEY" ${url}/v1/user/team/member\n\n`,
    );
    return;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'owner-api-key');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  log.info(
    { email, file },
    `owner account created; its API key is in ${file} (readable by this user only): read it, then delete the file`,
  );
}

/**
 * The first start's one-time link to set the owner's console password. The token sits after `#`, so it
 * never reaches a server log; like the key, it is printed on a terminal and otherwise written to
 * `<data dir>/owner-password-link` (readable by this user only).
 */
function announcePasswordLink(
  email: string,
  link: string,
  dataDir: string,
  log: { info: (o: object, m: string) => void },
): void {
  if (process.stdout.isTTY) {
    process.stdout.write(`Set the console password of ${email} once, within 7 days, at:\n\n  ${link}\n\n`);
    return;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'owner-password-link');
  writeFileSync(file, link + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  log.info(
    { email, file },
    `the one-time link to set the owner's console password is in ${file} (readable by this user only)`,
  );
}
