// A deployment whose API server is down and only `vigil worker` processes run (on one PostgreSQL): the
// workers' monitor loop still starts due schedules and delivers alerts; with two workers polling, a due
// slot still runs exactly once.
import { describe, expect, it } from 'vitest';
import { spawnVigil } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/queue.ts';
import { createProbe, loopPasses, useProcessLab } from './process-lab.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';

describe.runIf(!!process.env.TEST_DATABASE_URL)('schedules run by vigil worker processes alone', () => {
  const lab = useProcessLab('vigil-sched-w-');
  const { key, env, procs } = lab;

  const scanRow = async (id: string) =>
    (
      await (
        await lab.db()
      ).query<{ status: string; rescan_count: number }>('SELECT status, rescan_count FROM scans WHERE id = $1', [id])
    ).rows[0]!;

  it('starts a due schedule with only workers up, once with two workers', async () => {
    // The API server sets things up, then goes away.
    const serve = spawnVigil(['serve', '--port', '0', '--no-worker'], env);
    procs.push(serve);
    const base = await serve.listening(150_000);
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${base}${p}`, {
        ...init,
        headers: { 'X-API-Key': key, 'content-type': 'application/json', ...(init.headers ?? {}) },
      });
    const alert = await api('/v1/scans/config', {
      method: 'POST',
      body: JSON.stringify({
        name: 'done',
        config_type: 'alerting',
        config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: "${lab.receiver.url}/done"}\n`,
      }),
    });
    expect(alert.status).toBe(200);
    const alertId = (await alert.json()).id as string;
    const created = await api('/v1/scans', {
      method: 'POST',
      body: JSON.stringify({
        targets: [lab.target.url],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        schedule_only: true,
        alerting_config_ids: [alertId],
      }),
    });
    expect(created.status).toBe(200);
    const id = (await created.json()).id as string;
    const set = await api('/v1/scans/schedule', {
      method: 'POST',
      body: JSON.stringify({ scan_id: id, scan_frequency: 'daily' }),
    });
    expect(set.status, await set.clone().text()).toBe(200);
    const probe = await createProbe(lab, base);
    expect(await serve.kill('SIGTERM')).toBe(0);

    const db = await lab.db();
    // A worker without the loop (as every worker was before) leaves a due schedule alone.
    const w0 = spawnVigil(['worker', '--concurrency', '1', '--no-monitor'], env);
    procs.push(w0);
    await w0.waitFor(/worker started/, 120_000);
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '1 minute' WHERE scan_id = $1`, [
      id,
    ]);
    // The one fixed wait left: a process without a loop makes no event to wait for. 2 s is ten passes of
    // the loop it would have (VIGIL_MONITOR_INTERVAL=0.2; the first pass 0.2 s after start).
    await new Promise((r) => setTimeout(r, 2000));
    expect(await scanRow(id)).toMatchObject({ status: 'scheduled', rescan_count: 0 });
    expect(await w0.kill('SIGTERM')).toBe(0);
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() + interval '1 day' WHERE scan_id = $1`, [id]);

    const w1 = spawnVigil(['worker', '--concurrency', '1'], env);
    procs.push(w1);
    await w1.waitFor(/worker started/, 120_000);
    // Not due yet (next slot tomorrow): a pass of its loop runs nothing.
    await loopPasses(lab, probe, [w1]);
    expect(await scanRow(id)).toMatchObject({ status: 'scheduled', rescan_count: 0 });
    expect(lab.hits).toBe(0);

    // Due (missed for days): the one worker runs it, once, and its alert is delivered.
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '3 days' WHERE scan_id = $1`, [id]);
    await waitFor(async () => (await scanRow(id)).status === 'finished', 60_000, 200);
    await waitFor(async () => lab.receiver.requests.length >= 1, 20_000);
    expect(lab.hits).toBe(1);
    const sched = (
      await db.query<{ next: Date }>('SELECT schedule_next_run AS next FROM scan_schedules WHERE scan_id = $1', [id])
    ).rows[0]!;
    expect(new Date(sched.next).getTime()).toBeGreaterThan(Date.now());

    // A second worker; the next slot comes due while both poll: one rescan, one alert.
    const w2 = spawnVigil(['worker', '--concurrency', '1'], env);
    procs.push(w2);
    await w2.waitFor(/worker started/, 120_000);
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() WHERE scan_id = $1`, [id]);
    await waitFor(
      async () => {
        const s = await scanRow(id);
        return s.rescan_count === 1 && s.status === 'finished';
      },
      60_000,
      200,
    );
    // Both loops make a pass after it finished (and could wrongly start it again).
    await loopPasses(lab, probe, [w1, w2]);
    expect(await scanRow(id)).toMatchObject({ status: 'finished', rescan_count: 1 });
    expect(lab.hits).toBe(2);
    const runs = await db.query<{ n: number }>(
      'SELECT count(DISTINCT run)::int AS n FROM scan_chunks WHERE scan_id = $1',
      [id],
    );
    expect(runs.rows[0]!.n).toBe(2);
    await waitFor(async () => lab.receiver.requests.length >= 2, 20_000);
    // Each run's alert delivered, claimed once (a second sender would have claimed it again): none can follow.
    const sent = await waitFor(async () => {
      const rows = (
        await db.query<{ run: number; status: string; attempts: number }>(
          'SELECT run, status, attempts FROM deliveries WHERE scan_id = $1 ORDER BY run',
          [id],
        )
      ).rows;
      return rows.length >= 2 && rows.every((r) => r.status !== 'pending') && rows;
    }, 20_000);
    expect(sent).toEqual([
      { run: 0, status: 'delivered', attempts: 1 },
      { run: 1, status: 'delivered', attempts: 1 },
    ]);
    expect(lab.receiver.requests.map((r) => JSON.parse(r.body).run).sort()).toEqual([0, 1]);
    // Both workers ran the loop (each logs its scheduled starts); the two slots were started once in all.
    const starts = (w1.stdout + w1.stderr + w2.stdout + w2.stderr)
      .split('\n')
      .filter((l) => l.includes(id) && /scheduled scan started/.test(l));
    expect(starts.length).toBe(2);
  }, 300_000);
});
