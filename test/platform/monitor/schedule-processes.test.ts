// Two real `vigil serve` processes on one PostgreSQL database, both running the monitor loop: a due
// schedule starts its scan exactly once, and after "downtime" (many missed slots) it catches up once; each
// run's alert is delivered once.
import { describe, expect, it } from 'vitest';
import { spawnVigil } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/queue.ts';
import { createProbe, loopPasses, useProcessLab } from './process-lab.ts';
import { MARKER_TEMPLATE } from '../scans/fixtures.ts';

describe.runIf(!!process.env.TEST_DATABASE_URL)('schedules with two vigil serve processes on one PostgreSQL', () => {
  const lab = useProcessLab('vigil-sched-');
  const { key, env, procs } = lab;

  it('runs a due schedule once across both processes, and catches up once', async () => {
    const a = spawnVigil(['serve', '--port', '0'], env);
    const b = spawnVigil(['serve', '--port', '0'], env);
    procs.push(a, b);
    const [urlA, urlB] = await Promise.all([a.listening(150_000), b.listening(150_000)]);
    const api = (base: string, p: string, init: RequestInit = {}) =>
      fetch(`${base}${p}`, {
        ...init,
        headers: { 'X-API-Key': key, 'content-type': 'application/json', ...(init.headers ?? {}) },
      });
    const db = await lab.db();

    // An alert on every finished run: each run's alert is sent once, though both processes run the loop.
    const alert = await api(urlA, '/v1/scans/config', {
      method: 'POST',
      body: JSON.stringify({
        name: 'done',
        config_type: 'alerting',
        config: `provider: webhook\nevents: [scan_finished]\nwebhook: {url: "${lab.receiver.url}/done"}\n`,
      }),
    });
    expect(alert.status).toBe(200);
    const alertId = (await alert.json()).id as string;
    const created = await api(urlA, '/v1/scans', {
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
    const set = await api(urlB, '/v1/scans/schedule', {
      method: 'POST',
      body: JSON.stringify({ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 2 }),
    });
    expect(set.status, await set.clone().text()).toBe(200);
    const probe = await createProbe(lab, urlA);

    // Make it due as after a long downtime: a week of two-hour slots missed.
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '7 days' WHERE scan_id = $1`, [id]);
    const scan = await waitFor(
      async () => {
        const s = await (await api(urlA, `/v1/scans/${id}`)).json();
        return s.status === 'finished' && s;
      },
      60_000,
      200,
    );
    // Both loops make a pass after it finished (and could wrongly start it again).
    await loopPasses(lab, probe, [a, b]);
    const after = await (await api(urlB, `/v1/scans/${id}`)).json();
    expect(after).toMatchObject({ status: 'finished', rescan_count: 0, total_result: 1 });
    expect(scan.rescan_count).toBe(0);
    expect(lab.hits).toBe(1);
    const chunks = await db.query<{ n: number }>(
      'SELECT count(DISTINCT run)::int AS n FROM scan_chunks WHERE scan_id = $1',
      [id],
    );
    expect(chunks.rows[0]!.n).toBe(1);
    const next = new Date(after.schedule.schedule_next_run).getTime();
    expect(next).toBeGreaterThan(Date.now());
    expect(next).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

    // The next due slot: one rescan.
    await db.query(`UPDATE scan_schedules SET schedule_next_run = now() WHERE scan_id = $1`, [id]);
    await waitFor(
      async () => {
        const s = await (await api(urlB, `/v1/scans/${id}`)).json();
        return s.rescan_count === 1 && s.status === 'finished' && s;
      },
      60_000,
      200,
    );
    await loopPasses(lab, probe, [a, b]);
    const last = await (await api(urlA, `/v1/scans/${id}`)).json();
    expect(last.rescan_count).toBe(1);
    expect(lab.hits).toBe(2);
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
  }, 300_000);
});
