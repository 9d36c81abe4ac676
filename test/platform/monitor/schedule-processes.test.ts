// Two real `vigil serve` processes on one PostgreSQL database, both running the monitor loop: a due
// schedule starts its scan exactly once, and after "downtime" (many missed slots) it catches up once; each
// run's alert is delivered once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { dropSchema } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { connect, type Db } from '../../../src/db/connection.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';

describe.runIf(!!process.env.TEST_DATABASE_URL)('schedules with two vigil serve processes on one PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const key = `vigil_${randomBytes(24).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-sched-'));
  const env = {
    DATABASE_URL: url, VIGIL_DB_SCHEMA: schema, VIGIL_DATA_DIR: dir, VIGIL_BOOTSTRAP_API_KEY: key,
    VIGIL_MONITOR_INTERVAL: '0.2', VIGIL_SHUTDOWN_TIMEOUT: '5', VIGIL_ENGINE_THREADS: '1',
  };
  const procs: VigilProcess[] = [];
  let target: TestServer;
  let receiver: TestServer;
  let hits = 0;
  let db: Db;

  beforeAll(async () => {
    target = await startHttpServer((req, res) => {
      if (req.url === '/vuln') hits++;
      res.end(req.url === '/vuln' ? 'VULNERABLE-MARKER' : 'hi');
    });
    receiver = await startHttpServer((_req, res) => res.end('ok'));
  });
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await db?.close();
    await target?.close();
    await receiver?.close();
    await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a due schedule once across both processes, and catches up once', async () => {
    const a = spawnVigil(['serve', '--port', '0'], env);
    const b = spawnVigil(['serve', '--port', '0'], env);
    procs.push(a, b);
    const [urlA, urlB] = await Promise.all([a.listening(150_000), b.listening(150_000)]);
    const api = (base: string, p: string, init: RequestInit = {}) =>
      fetch(`${base}${p}`, { ...init, headers: { 'X-API-Key': key, 'content-type': 'application/json', ...(init.headers ?? {}) } });
    db = await connect({ databaseUrl: url, schema, poolSize: 1 });

    // An alert on every finished run: each run's alert is sent once, though both processes run the loop.
    const alert = await api(urlA, '/v1/scans/config', { method: 'POST', body: JSON.stringify({
      name: 'done', config_type: 'alerting', config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: "${receiver.url}/done"}\n`,
    }) });
    expect(alert.status).toBe(200);
    const alertId = (await alert.json()).id as string;
    const created = await api(urlA, '/v1/scans', { method: 'POST', body: JSON.stringify({
      targets: [target.url], private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }], schedule_only: true,
      alerting_config_ids: [alertId],
    }) });
    expect(created.status).toBe(200);
    const id = (await created.json()).id as string;
    const set = await api(urlB, '/v1/scans/schedule', { method: 'POST', body: JSON.stringify({ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 2 }) });
    expect(set.status, await set.clone().text()).toBe(200);

    // Make it due as after a long downtime: a week of two-hour slots missed.
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '7 days' WHERE scan_id = $1`, [id]);
    const scan = await waitFor(async () => {
      const s = await (await api(urlA, `/v1/scans/${id}`)).json();
      return s.status === 'finished' && s;
    }, 60_000, 200);
    // Give both loops several more passes to (wrongly) start it again.
    await new Promise((r) => setTimeout(r, 2000));
    const after = await (await api(urlB, `/v1/scans/${id}`)).json();
    expect(after).toMatchObject({ status: 'finished', rescan_count: 0, total_result: 1 });
    expect(scan.rescan_count).toBe(0);
    expect(hits).toBe(1);
    const chunks = await db.query<{ n: number }>('SELECT count(DISTINCT run)::int AS n FROM scan_chunks WHERE scan_id = $1', [id]);
    expect(chunks.rows[0]!.n).toBe(1);
    const next = new Date(after.schedule.schedule_next_run).getTime();
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

    // The next due slot: one rescan.
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() WHERE scan_id = $1`, [id]);
    await waitFor(async () => {
      const s = await (await api(urlB, `/v1/scans/${id}`)).json();
      return s.rescan_count === 1 && s.status === 'finished' && s;
    }, 60_000, 200);
    await new Promise((r) => setTimeout(r, 2000));
    const last = await (await api(urlA, `/v1/scans/${id}`)).json();
    expect(last.rescan_count).toBe(1);
    expect(hits).toBe(2);
    await waitFor(async () => receiver.requests.length >= 2, 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests.map((r) => JSON.parse(r.body).run).sort()).toEqual([0, 1]);
  }, 300_000);
});
