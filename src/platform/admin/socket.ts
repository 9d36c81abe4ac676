// The admin socket: while `vigil serve` holds the embedded database (PGlite belongs to one process), the
// operator commands (`vigil templates import`, `vigil intel import`, `vigil users key` ...) run inside the
// server instead, through a Unix socket in the data folder. The socket file is mode 0600, so only the
// account that runs the server (and root) can connect: file permissions are the authentication, as for
// a database's local socket. Requests are one JSON object; answers stream as JSON lines.
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Db } from '../../db/connection.ts';
import type { Logger } from 'pino';
import { TASKS, type TaskName } from './tasks.ts';
import type { TaskIO } from '../shared/task-io.ts';

export const ADMIN_SOCKET_NAME = 'admin.sock';
const MAX_BODY = 1024 * 1024;
// Unix socket paths are limited to about 107 bytes (sun_path).
const MAX_SOCKET_PATH = 100;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_SOCKET_NAME);
}

interface RunRequest {
  task: TaskName;
  args: Record<string, unknown>;
  tty?: boolean;
}

/** Listens on <dataDir>/admin.sock; returns undefined (and logs why) when it cannot. */
export async function startAdminSocket(
  db: Db,
  dataDir: string,
  log: Logger,
): Promise<{ close(): Promise<void> } | undefined> {
  const file = adminSocketPath(dataDir);
  if (file.length > MAX_SOCKET_PATH) {
    log.warn({ file }, 'admin socket not started: the data folder path is too long for a Unix socket');
    return undefined;
  }
  // A socket file left by a killed server: this process holds the data folder's lock, so it is stale.
  if (existsSync(file)) unlinkSync(file);
  const server = http.createServer((req, res) => void handle(db, log, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        try {
          unlinkSync(file);
        } catch {
          /* gone */
        }
      }),
  };
}

async function handle(db: Db, log: Logger, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST' || req.url !== '/run') {
    res.writeHead(404).end();
    return;
  }
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_BODY) {
      res.writeHead(413).end();
      return;
    }
  }
  let r: RunRequest;
  try {
    r = JSON.parse(body) as RunRequest;
    if (!Object.prototype.hasOwnProperty.call(TASKS, r.task) || typeof r.args !== 'object' || r.args === null)
      throw new Error('bad request');
  } catch {
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ message: 'unknown task or malformed request' }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const line = (o: unknown) => res.write(`${JSON.stringify(o)}\n`);
  const io: TaskIO = { out: (o: string) => line({ o }), err: (e: string) => line({ e }), tty: !!r.tty };
  // The task name only: arguments may name files, and a key task's output is a secret.
  log.info({ task: r.task }, 'admin task started through the admin socket');
  try {
    await (TASKS[r.task] as (db: Db, a: unknown, io: TaskIO) => Promise<void>)(db, r.args, io);
    line({ exit: 0 });
    log.info({ task: r.task }, 'admin task finished');
  } catch (err) {
    line({ exit: 1, message: (err as Error).message });
    log.warn({ task: r.task, reason: (err as Error).message }, 'admin task failed');
  }
  res.end();
}

/**
 * Runs a task in the `vigil serve` that holds `dataDir`, printing its output here. Resolves with the
 * exit code, or undefined when no server answers on the socket (the caller opens the database itself).
 */
export function runThroughServer(
  dataDir: string,
  task: TaskName,
  args: Record<string, unknown>,
): Promise<number | undefined> {
  const file = adminSocketPath(dataDir);
  if (!existsSync(file)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let started = false;
    const req = http.request(
      { socketPath: file, method: 'POST', path: '/run', headers: { 'content-type': 'application/json' } },
      (res) => {
        started = true;
        if (res.statusCode !== 200) {
          res.resume();
          process.stderr.write(`vigil: the running server refused the task (${res.statusCode})\n`);
          return resolve(1);
        }
        let buf = '';
        let code = 1;
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          buf += d;
          let i;
          while ((i = buf.indexOf('\n')) >= 0) {
            const msg = JSON.parse(buf.slice(0, i)) as { o?: string; e?: string; exit?: number; message?: string };
            buf = buf.slice(i + 1);
            if (msg.o !== undefined) process.stdout.write(msg.o);
            if (msg.e !== undefined) process.stderr.write(msg.e);
            if (msg.exit !== undefined) {
              code = msg.exit;
              if (msg.message) process.stderr.write(`vigil: ${msg.message}\n`);
            }
          }
        });
        res.on('end', () => resolve(code));
        res.on('error', () => resolve(1));
      },
    );
    // No server behind the file (killed without cleanup): the caller works on the database directly.
    // A server that dies mid-task is a failure, never a reason to run the task a second time.
    req.on('error', () => resolve(started ? 1 : undefined));
    req.end(JSON.stringify({ task, args, tty: Boolean(process.stderr.isTTY) }));
  });
}
