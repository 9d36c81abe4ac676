// What both multi-process schedule tests need: a schema of their own on TEST_DATABASE_URL, the env that
// `vigil serve` / `vigil worker` start with (a fast monitor loop), a target that counts its hits and a
// receiver for alerts; everything is killed and dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { VigilProcess } from '../../helpers/process.ts';
import { dropSchema } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { connect, type Db } from '../../../src/db/connection.ts';

export interface ProcessLab {
  url: string;
  schema: string;
  key: string;
  env: Record<string, string>;
  procs: VigilProcess[];
  target: TestServer;
  receiver: TestServer;
  /** Requests the target got for /vuln (one per scan run). */
  hits: number;
  /** A direct connection to the schema, to move schedules in time. */
  db(): Promise<Db>;
}

/** Call inside a describe: registers the hooks and returns the lab its tests use. */
export function useProcessLab(prefix: string): ProcessLab {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  let db: Db | undefined;
  const lab: ProcessLab = {
    url, schema, key: `vigil_${randomBytes(24).toString('hex')}`, procs: [], hits: 0,
    env: {} as Record<string, string>, target: undefined!, receiver: undefined!,
    db: async () => (db ??= await connect({ databaseUrl: url, schema, poolSize: 1 })),
  };
  lab.env = {
    DATABASE_URL: url, VIGIL_DB_SCHEMA: schema, VIGIL_DATA_DIR: dir, VIGIL_BOOTSTRAP_API_KEY: lab.key,
    VIGIL_MONITOR_INTERVAL: '0.2', VIGIL_SHUTDOWN_TIMEOUT: '5', VIGIL_ENGINE_THREADS: '1', VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
  };
  beforeAll(async () => {
    lab.target = await startHttpServer((req, res) => {
      if (req.url === '/vuln') lab.hits++;
      res.end(req.url === '/vuln' ? 'VULNERABLE-MARKER' : 'hi');
    });
    lab.receiver = await startHttpServer((_req, res) => res.end('ok'));
  });
  afterAll(async () => {
    for (const p of lab.procs) await p.kill('SIGKILL');
    await db?.close();
    await lab.target?.close();
    await lab.receiver?.close();
    await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });
  return lab;
}
