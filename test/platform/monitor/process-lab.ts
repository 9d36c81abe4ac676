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
import { waitFor } from '../../helpers/wait.ts';

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
    url,
    schema,
    key: `vigil_${randomBytes(24).toString('hex')}`,
    procs: [],
    hits: 0,
    env: {} as Record<string, string>,
    target: undefined!,
    receiver: undefined!,
    db: async () => (db ??= await connect({ databaseUrl: url, schema, poolSize: 1 })),
  };
  lab.env = {
    DATABASE_URL: url,
    VIGIL_DB_SCHEMA: schema,
    VIGIL_DATA_DIR: dir,
    VIGIL_BOOTSTRAP_API_KEY: lab.key,
    VIGIL_MONITOR_INTERVAL: '0.2',
    VIGIL_SHUTDOWN_TIMEOUT: '5',
    VIGIL_ENGINE_THREADS: '1',
    VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
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

/**
 * A scan stored with a daily schedule (next slot tomorrow) that only `loopPasses` makes due: it asks the
 * target for /probe, so `lab.hits` never counts it, and it sends no alert (no config, globals disabled).
 */
export async function createProbe(lab: ProcessLab, base: string): Promise<string> {
  const api = (p: string, body: unknown) =>
    fetch(`${base}${p}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'X-API-Key': lab.key, 'content-type': 'application/json' },
    });
  const created = await api('/v1/scans', {
    targets: [lab.target.url],
    private_templates: [{ name: 'probe.yaml', contents: PROBE_TEMPLATE }],
    schedule_only: true,
    disable_global_alert_config: true,
  });
  if (created.status !== 200) throw new Error(`probe scan: ${created.status} ${await created.text()}`);
  const id = (await created.json()).id as string;
  const set = await api('/v1/scans/schedule', { scan_id: id, scan_frequency: 'daily' });
  if (set.status !== 200) throw new Error(`probe schedule: ${set.status} ${await set.text()}`);
  return id;
}

const PROBE_TEMPLATE = `id: loop-probe
info:
  name: Loop probe
  author: vigil
  severity: info
http:
  - method: GET
    path: ["{{BaseURL}}/probe"]
    matchers:
      - type: word
        words: [never-there]
`;

/**
 * Returns once the monitor loop of every process in `procs` has made a schedules pass that began after this
 * call: the probe's slot is made due again and again until each process has logged that it took it
 * ("scheduled scan started", or "scheduled run skipped" while the probe still runs). A pass handles every
 * due schedule, so what such a pass left alone was not due to it: the event that proves "nothing more
 * happened", instead of sleeping for a few passes.
 */
export async function loopPasses(
  lab: ProcessLab,
  probeId: string,
  procs: VigilProcess[],
  timeoutMs = 60_000,
): Promise<void> {
  const takes = (p: VigilProcess) =>
    (p.stdout + p.stderr)
      .split('\n')
      .filter((l) => l.includes(probeId) && /scheduled (scan started|run skipped)/.test(l)).length;
  const baseline = procs.map(takes);
  const pending = new Set(procs.map((_, i) => i));
  const deadline = Date.now() + timeoutMs;
  const db = await lab.db();
  while (pending.size) {
    if (Date.now() > deadline)
      throw new Error(`monitor loops of ${pending.size} process(es) made no pass within ${timeoutMs} ms`);
    const seen = procs.map(takes);
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '1 second' WHERE scan_id = $1`, [
      probeId,
    ]);
    await waitFor(async () => procs.some((p, i) => takes(p) > seen[i]!), Math.max(1, deadline - Date.now()), 20);
    procs.forEach((p, i) => {
      if (takes(p) > baseline[i]!) pending.delete(i);
    });
  }
}
