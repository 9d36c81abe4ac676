// nuclei/postgres (pkg/js/libs/postgres): PGClient().IsPostgres(host, port), Connect(host, port, user,
// password) -> true when `select 1` runs in database `postgres` (false when the login is refused, an
// error when the server cannot be reached), ConnectWithDB(host, port, user, password, db),
// ExecuteQuery(host, port, user, password, db, query) -> { Count, Columns, Rows }. Over the pg package,
// whose socket connects through the engine's guard (the deny list decides on the address connected to).
import net from 'node:net';
import type pgTypes from 'pg';
import { lazy } from '../../../lazy.ts';
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';
import { cell, sqlResult } from './sql.ts';

// Loaded on a template's first PostgreSQL call, not when `vigil scan` starts.
const pg = lazy<typeof pgTypes>('pg');

/** Startup message (protocol 3.0) for user and database `postgres`: the server answers R (auth) or E. */
function startup(): Buffer {
  const params = Buffer.from('user\0postgres\0database\0postgres\0\0', 'latin1');
  const b = Buffer.alloc(8 + params.length);
  b.writeUInt32BE(b.length, 0);
  b.writeUInt32BE(196608, 4);
  params.copy(b, 8);
  return b;
}

async function isPostgres(env: HostEnv, host: unknown, port: unknown): Promise<boolean> {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    s.write(startup());
    const first = await bounded(
      new Promise<Buffer>((resolve, reject) => {
        s.once('data', resolve);
        s.once('close', () => reject(new Error('postgres: connection closed')));
      }),
      env,
      'postgres probe',
    );
    return first.length >= 5 && (first[0] === 0x52 || first[0] === 0x45) && first.readUInt32BE(1) >= 4;
  } finally {
    s.destroy();
  }
}

/** A pg client whose socket connects through the guard, to the scan's target only. */
async function client(env: HostEnv, host: unknown, port: unknown, user: unknown, password: unknown, db: unknown) {
  const h = text(host);
  const p = portOf(port);
  await env.checkScope(h);
  const sock = new net.Socket();
  sock.connect = ((...a: unknown[]) => {
    void a;
    try {
      const target = env.guard ? env.guard.connectOptions(h, p) : { host: h.replace(/^\[|\]$/g, '') };
      return (net.Socket.prototype.connect as (o: net.SocketConnectOpts) => net.Socket).call(sock, {
        port: p,
        ...target,
      });
    } catch (err) {
      process.nextTick(() => sock.destroy(err as Error));
      return sock;
    }
  }) as typeof sock.connect;
  const c = new (pg().Client)({
    stream: () => sock,
    user: text(user),
    password: text(password),
    database: text(db) || 'postgres',
    connectionTimeoutMillis: env.timeoutMs,
    query_timeout: env.timeoutMs,
    ssl: false,
    types: { getTypeParser: () => (v: string) => v },
  });
  c.on('error', () => {});
  const id = env.add({ kind: 'pg', close: () => void c.end().catch(() => {}) });
  return { c, done: () => env.drop(id) };
}

/** Errors that mean "could not talk to the server" (nuclei returns those; a refused login is just false). */
const UNREACHABLE =
  /ECONNREFUSED|connection refused|no pg_hba\.conf entry|unreachable|ECONNRESET|reset|timed? ?out|refused:/i;

async function connect(env: HostEnv, [, h, p, u, pw, db]: unknown[]): Promise<boolean> {
  if (!(await isPostgres(env, h, p))) throw new Error('not a postgres service');
  const { c, done } = await client(env, h, p, u, pw, db);
  try {
    await bounded(c.connect(), env, 'postgres connect');
    // eslint-disable-next-line vigil/sql-in-stores -- a template's query to the scanned server, not Vigil's database
    await bounded(c.query('select 1'), env, 'postgres query');
    return true;
  } catch (err) {
    if (UNREACHABLE.test((err as Error).message)) throw err;
    return false;
  } finally {
    done();
  }
}

async function query(env: HostEnv, [, h, p, u, pw, db, q]: unknown[]) {
  if (!(await isPostgres(env, h, p))) throw new Error('not a postgres service');
  const { c, done } = await client(env, h, p, u, pw, db);
  try {
    await bounded(c.connect(), env, 'postgres connect');
    // eslint-disable-next-line vigil/sql-in-stores -- a template's query to the scanned server, not Vigil's database
    const r = await bounded(c.query({ text: text(q), rowMode: 'array' }), env, 'postgres query');
    const cols = r.fields.map((f) => f.name);
    const kinds = r.fields.map(
      (f) => (f.dataTypeID === 16 ? 'bool' : f.dataTypeID === 23 ? 'int' : 'text') as 'bool' | 'int' | 'text',
    );
    const rows = (r.rows as unknown[][]).slice(0, 10_000).map((row) => {
      const o: Record<string, unknown> = {};
      cols.forEach((name, i) => (o[name] = cell(row[i], kinds[i]!)));
      return o;
    });
    return sqlResult(cols, rows);
  } finally {
    done();
  }
}

export const postgresOps: Record<string, HostOp> = {
  'postgres.IsPostgres': (env, [, h, p]) => isPostgres(env, h, p),
  'postgres.Connect': (env, [id, h, p, u, pw]) => connect(env, [id, h, p, u, pw, 'postgres']),
  'postgres.ConnectWithDB': (env, args) => connect(env, args),
  'postgres.ExecuteQuery': (env, args) => query(env, args),
};
