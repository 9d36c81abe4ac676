// nuclei/mssql (pkg/js/libs/mssql): MSSQLClient().IsMssql(host, port) -> true when the server answers
// a TDS PRELOGIN with a version (fingerprintx's probe; an answer that is not TDS is false, a connection
// that fails is an error), Connect(host, port, user, password) and ConnectWithDB(..., db) -> true when
// the login and `select 1` succeed, false when the server refuses the login, an error when the
// connection fails (refused, reset, timed out), and ExecuteQuery(host, port, user, password, db, query)
// -> { Count, Columns, Rows }. Over the tedious package, its socket dialled through the engine's guard
// (a server's redirect to another host is refused like any host that is not the target).
// Not tested against a real SQL Server: Debian packages none (docs/protocols.md).
import type net from 'node:net';
import type tediousTypes from 'tedious';
import { lazy } from '../../../lazy.ts';
import { bounded, connectTcp, HostEnv, portOf, RefusedError, text, type HostOp } from '../host.ts';
import { sendRecv } from './probe.ts';
import { cell, sqlResult } from './sql.ts';

// Loaded on a template's first SQL Server call, not when `vigil scan` starts.
const tedious = lazy<typeof tediousTypes>('tedious');

/** A TDS PRELOGIN (VERSION, ENCRYPTION, INSTOPT, THREADID, MARS, TRACEID), as fingerprintx sends it. */
const PRELOGIN = Buffer.from(
  [
    '12 01 00 58 00 00 01 00', // header: PRELOGIN, end of message, length 88
    '00 00 1f 00 06  01 00 25 00 01  02 00 26 00 01  03 00 27 00 04  04 00 2b 00 01  05 00 2c 00 24  ff',
    '11 09 00 01 00 00  00  00  00 00 00 00  00', // version, encryption, instance, thread, MARS
    'f9 b8 cb 5c 94 6b 89 1f d9 aa 3c 13 4b d0 7b 88 03 5c 32 21 24 a2 81 86 37 cf 62 39 4a 46 2c c6 00 00 00 00',
  ]
    .join(' ')
    .replace(/\s+/g, ''),
  'hex',
);

/** The server's version from a PRELOGIN answer ("major.minor.build"), or undefined when it is not one. */
export function preloginVersion(r: Buffer): string | undefined {
  if (r.length < 9 || r[0] !== 0x04 || r[1] !== 0x01 || r.readUInt16BE(2) !== r.length) return undefined;
  if (r.readUInt16BE(4) !== 0 || r[6] !== 0x01 || r[7] !== 0x00) return undefined;
  // The first option must be VERSION (token 0) with 6 bytes of data.
  if (r.length < 13 || r[8] !== 0x00 || r.readUInt16BE(11) !== 6) return undefined;
  const at = 8 + r.readUInt16BE(9);
  if (at + 6 > r.length) return undefined;
  return `${r[at]}.${r[at + 1]}.${r.readUInt16BE(at + 2)}`;
}

async function isMssql(env: HostEnv, host: unknown, port: unknown): Promise<boolean> {
  return preloginVersion(await sendRecv(env, host, port, PRELOGIN)) !== undefined;
}

interface Login {
  host: unknown;
  port: unknown;
  user: unknown;
  password: unknown;
  db: unknown;
}

async function withConnection<T>(env: HostEnv, o: Login, fn: (c: tediousTypes.Connection) => Promise<T>): Promise<T> {
  const host = text(o.host);
  const port = portOf(o.port);
  if (host === '') throw new Error('invalid host or port');
  await env.checkScope(host);
  const { Connection } = tedious();
  let dialError: unknown;
  const c = new Connection({
    server: host.replace(/^\[|\]$/g, ''),
    authentication: { type: 'default', options: { userName: text(o.user), password: text(o.password) } },
    options: {
      port,
      database: text(o.db) || 'master',
      encrypt: false, // TLS for the login only when the server asks for it, as go-mssqldb's default
      trustServerCertificate: true, // a probe of the target, not a client that trusts it
      connectTimeout: env.timeoutMs,
      requestTimeout: env.timeoutMs,
      // Every socket tedious opens (a redirect's too) goes through the scope check and the deny list.
      connector: ((opts: { host: string; port: number }) =>
        connectTcp(env, opts.host, opts.port).catch((err: unknown) => {
          dialError = err; // tedious wraps it; the caller gets the guard's own error (a refusal stays one)
          throw err;
        })) as unknown as () => Promise<net.Socket>,
    },
  });
  c.on('error', () => {});
  const id = env.add({ kind: 'mssql', close: () => c.close() });
  try {
    await bounded(
      new Promise<void>((resolve, reject) => c.connect((err) => (err ? reject(dialError ?? err) : resolve()))),
      env,
      'mssql connect',
    );
    return await fn(c);
  } finally {
    env.drop(id);
  }
}

function run(env: HostEnv, c: tediousTypes.Connection, sql: string) {
  const { Request } = tedious();
  const columns: string[] = [];
  const rows: Record<string, unknown>[] = [];
  return bounded(
    new Promise<ReturnType<typeof sqlResult>>((resolve, reject) => {
      const req = new Request(sql, (err) => (err ? reject(err) : resolve(sqlResult(columns, rows))));
      req.on('columnMetadata', (meta) => {
        columns.length = 0;
        for (const m of Array.isArray(meta) ? meta : Object.values(meta)) columns.push(m.colName);
      });
      req.on('row', (cols) => {
        if (rows.length >= 10_000) return;
        const row: Record<string, unknown> = {};
        for (const col of cols) {
          const type = col.metadata.type.name;
          const kind =
            type === 'Bit' ? 'bool' : type === 'Int' || type === 'SmallInt' || type === 'TinyInt' ? 'int' : 'text';
          row[col.metadata.colName] = cell(col.value, kind);
        }
        rows.push(row);
      });
      c.execSql(req);
    }),
    env,
    'mssql query',
  );
}

/** nuclei's connect: a failed connection is an error; a refused login (or any other answer) is false. */
async function connect(env: HostEnv, o: Login): Promise<boolean> {
  try {
    return await withConnection(env, o, async (c) => (await run(env, c, 'select 1'), true));
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof RefusedError || e.code === 'EGRESS_DENIED') throw err;
    if (e.code === 'ETIMEOUT' || /refused|reset|unreachable|timed? ?out|stopped/i.test(e.message)) throw err;
    return false;
  }
}

async function executeQuery(env: HostEnv, o: Login, q: unknown) {
  if (!(await isMssql(env, o.host, o.port))) throw new Error('not a mssql service');
  return withConnection(env, o, (c) => run(env, c, text(q)));
}

export const mssqlOps: Record<string, HostOp> = {
  'mssql.IsMssql': (env, [, h, p]) => isMssql(env, h, p),
  'mssql.Connect': (env, [, host, port, user, password]) => connect(env, { host, port, user, password, db: 'master' }),
  'mssql.ConnectWithDB': (env, [, host, port, user, password, db]) => connect(env, { host, port, user, password, db }),
  'mssql.ExecuteQuery': (env, [, host, port, user, password, db, q]) =>
    executeQuery(env, { host, port, user, password, db }, q),
};
