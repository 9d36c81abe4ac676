// nuclei/mysql (pkg/js/libs/mysql): MySQLClient().IsMySQL(host, port), FingerprintMySQL(host, port) ->
// { Host, IP, Port, Protocol, TLS, Transport, Version, Debug, Raw } from the server's first packet,
// Connect(host, port, user, password) -> true or the server's error, ConnectWithDSN(dsn),
// ExecuteQuery(host, port, user, password, query) and ExecuteQueryOnDB(..., db, query) ->
// { Count, Columns, Rows }. Over the mysql2 package on a socket dialled through the engine's guard;
// LOAD DATA LOCAL is never allowed (no file of the server is read).
import type mysqlTypes from 'mysql2/promise';
import { lazy } from '../../../lazy.ts';
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';
import { cell, sqlResult } from './sql.ts';

// Loaded on a template's first MySQL call, not when `vigil scan` starts.
const mysql = lazy<typeof mysqlTypes>('mysql2/promise');

/** The server's first packet: a handshake (protocol 10 and the version) or an error (host not allowed ...). */
async function greeting(env: HostEnv, host: unknown, port: unknown) {
  const s = await connectTcp(env, text(host), portOf(port));
  try {
    let buf = Buffer.alloc(0);
    const packet = await bounded(
      new Promise<Buffer>((resolve, reject) => {
        s.on('data', (d: Buffer) => {
          buf = Buffer.concat([buf, d]);
          if (buf.length >= 4 && buf.length >= 4 + buf.readUIntLE(0, 3))
            resolve(buf.subarray(4, 4 + buf.readUIntLE(0, 3)));
        });
        s.once('close', () => reject(new Error('mysql: connection closed')));
      }),
      env,
      'mysql greeting',
    );
    return { packet, ip: s.remoteAddress ?? '' };
  } finally {
    s.destroy();
  }
}

function readGreeting(packet: Buffer): Record<string, unknown> | undefined {
  if (packet[0] === 10) {
    const end = packet.indexOf(0, 1);
    return {
      packetType: 'handshake',
      protocolVersion: 10,
      version: packet.subarray(1, end < 0 ? undefined : end).toString('latin1'),
    };
  }
  if (packet[0] === 0xff && packet.length >= 3)
    return {
      packetType: 'error',
      errorCode: packet.readUInt16LE(1),
      errorMessage: packet
        .subarray(3)
        .toString('utf8')
        .replace(/^#[0-9A-Z]{5}/, ''),
    };
  return undefined;
}

async function isMySQL(env: HostEnv, h: unknown, p: unknown): Promise<boolean> {
  return readGreeting((await greeting(env, h, p)).packet) !== undefined;
}

async function fingerprint(env: HostEnv, h: unknown, p: unknown) {
  const { packet, ip } = await greeting(env, h, p);
  const g = readGreeting(packet);
  if (!g) throw new Error('something went wrong got null output');
  return {
    Host: text(h),
    IP: ip,
    Port: portOf(p),
    Protocol: 'mysql',
    TLS: false,
    Transport: 'tcp',
    Version: typeof g.version === 'string' ? g.version : '',
    Debug: g,
    Raw: JSON.stringify(g),
  };
}

async function withConnection<T>(
  env: HostEnv,
  o: { host: unknown; port: unknown; user: unknown; password: unknown; db?: unknown },
  fn: (c: mysqlTypes.Connection) => Promise<T>,
): Promise<T> {
  if (!(await isMySQL(env, o.host, o.port))) throw new Error('not a mysql service');
  const stream = await connectTcp(env, text(o.host), portOf(o.port));
  const c = await bounded(
    mysql().createConnection({
      stream,
      user: text(o.user),
      password: text(o.password),
      database: text(o.db) || undefined,
      connectTimeout: env.timeoutMs,
      infileStreamFactory: () => {
        throw new Error('LOAD DATA LOCAL is refused');
      },
    }),
    env,
    'mysql connect',
  ).catch((err: unknown) => {
    stream.destroy();
    throw err;
  });
  const id = env.add({ kind: 'mysql', close: () => c.destroy() });
  try {
    return await fn(c);
  } finally {
    env.drop(id);
  }
}

async function query(
  env: HostEnv,
  o: { host: unknown; port: unknown; user: unknown; password: unknown; db?: unknown },
  q: unknown,
) {
  return withConnection(env, o, async (c) => {
    // eslint-disable-next-line vigil/sql-in-stores -- a template's query to the scanned server, not Vigil's database
    const [rows, fields] = await bounded(c.query({ sql: text(q), rowsAsArray: true }), env, 'mysql query');
    const cols = (fields ?? []).map((f) => f.name);
    const list = Array.isArray(rows) ? (rows as unknown[][]).slice(0, 10_000) : [];
    return sqlResult(
      cols,
      list.map((row) => {
        const out: Record<string, unknown> = {};
        cols.forEach((name, i) => (out[name] = cell(row[i], 'text')));
        return out;
      }),
    );
  });
}

/** user:password@tcp(host:port)/db — the DSN form of nuclei's BuildDSN. */
function parseDsn(dsn: string) {
  const m = /^([^:@]*)(?::([^@]*))?@(?:[a-z]+)\(([^)]+)\)\/?([^?]*)/.exec(dsn);
  if (!m) throw new Error('invalid DSN');
  const at = m[3]!.lastIndexOf(':');
  return {
    user: decodeURIComponent(m[1]!),
    password: m[2] ?? '',
    host: m[3]!.slice(0, at).replace(/^\[|\]$/g, ''),
    port: m[3]!.slice(at + 1),
    db: m[4],
  };
}

export const mysqlOps: Record<string, HostOp> = {
  'mysql.IsMySQL': (env, [, h, p]) => isMySQL(env, h, p),
  'mysql.FingerprintMySQL': (env, [, h, p]) => fingerprint(env, h, p),
  'mysql.Connect': (env, [, host, port, user, password]) =>
    withConnection(
      env,
      { host, port, user, password },
      async (c) => (await bounded(c.ping(), env, 'mysql ping'), true),
    ),
  'mysql.ConnectWithDSN': (env, [, dsn]) => {
    const d = parseDsn(text(dsn));
    return withConnection(env, d, async (c) => (await bounded(c.ping(), env, 'mysql ping'), true));
  },
  'mysql.ExecuteQuery': (env, [, host, port, user, password, q]) => query(env, { host, port, user, password }, q),
  'mysql.ExecuteQueryOnDB': (env, [, host, port, user, password, db, q]) =>
    query(env, { host, port, user, password, db }, q),
  'mysql.ExecuteQueryWithOpts': (env, [, o, q]) => {
    const opts = (o ?? {}) as Record<string, unknown>;
    return query(
      env,
      { host: opts.Host, port: opts.Port, user: opts.Username, password: opts.Password, db: opts.DbName },
      q,
    );
  },
  'mysql.BuildDSN': (_env, [o]) => {
    const opts = (o ?? {}) as Record<string, unknown>;
    if (!opts.Host || !(Number(opts.Port) > 0)) throw new Error('invalid host or port');
    const host = String(opts.Host);
    const target = host.includes(':') ? `[${host}]:${opts.Port}` : `${host}:${opts.Port}`;
    return `${encodeURIComponent(text(opts.Username))}:${text(opts.Password)}@tcp(${target})/${text(opts.DbName)}${text(opts.RawQuery)}`;
  },
};
