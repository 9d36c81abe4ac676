// Two real `vigil serve` processes on one PostgreSQL database, both running the monitor loop: a due
// enumeration schedule runs the enumeration once per slot (after "downtime" too), as scan schedules do.
import { describe, expect, it } from 'vitest';
import { spawnVigil } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/queue.ts';
import { startHttpServer } from '../../helpers/targets.ts';
import { createProbe, loopPasses, useProcessLab } from './process-lab.ts';

describe.runIf(!!process.env.TEST_DATABASE_URL)('enumeration schedules with two vigil serve processes', () => {
  const lab = useProcessLab('vigil-enum-sched-');
  const { key, env, procs } = lab;

  it('runs an enumeration once per due slot across both processes', async () => {
    // A web asset that counts the enumeration runs probing it.
    let probes = 0;
    const web = await startHttpServer(
      (_req, res) => {
        probes++;
        res.end('<title>Counted</title>');
      },
      { host: '127.0.0.8' },
    );
    try {
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
      const made = await api(urlA, '/v1/asset/enumerate', {
        method: 'POST',
        body: JSON.stringify({
          root_domains: ['127.0.0.8'],
          enumeration_ports: String(web.port),
          steps: ['port_scan', 'http_probe'],
          enumeration_config: { technology_templates: [] },
        }),
      });
      expect(made.status, await made.clone().text()).toBe(200);
      const id = (await made.json()).id as string;
      const state = async (base: string) => (await (await api(base, `/v1/asset/enumerate/${id}`)).json()).data;
      const finishedRun = (rescans: number) =>
        waitFor(
          async () => {
            const d = await state(urlB);
            return d.status === 'finished' && d.rescan_count === rescans && d;
          },
          60_000,
          200,
        );
      await finishedRun(0);
      const set = await api(urlB, '/v1/enumeration/schedule', {
        method: 'POST',
        body: JSON.stringify({ enumeration_id: id, scan_frequency: 'hourly', hourly_frequency: 3 }),
      });
      expect(set.status, await set.clone().text()).toBe(200);
      const probe = await createProbe(lab, urlA);
      const runs = async () =>
        (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM asset_enumeration_runs WHERE enumeration_id = $1',
            [id],
          )
        ).rows[0]!.n;

      // A week of three-hour slots missed: one run.
      await db.query(
        `UPDATE enumeration_schedules SET schedule_next_run = now() - interval '7 days' WHERE enumeration_id = $1`,
        [id],
      );
      await finishedRun(1);
      // Two passes of both loops after it finished: the enumeration step of the first has ended by then.
      await loopPasses(lab, probe, [a, b]);
      await loopPasses(lab, probe, [a, b]);
      expect((await state(urlA)).rescan_count).toBe(1);
      expect(await runs()).toBe(2);
      const sched = (await (await api(urlA, '/v1/enumeration/schedule')).json()).schedules[0];
      expect(new Date(sched.schedule_next_run).getTime()).toBeGreaterThan(Date.now());
      expect(new Date(sched.schedule_next_run).getTime()).toBeLessThanOrEqual(Date.now() + 3 * 3_600_000);

      // The next slot: one more run.
      await db.query(`UPDATE enumeration_schedules SET schedule_next_run = now() WHERE enumeration_id = $1`, [id]);
      await finishedRun(2);
      await loopPasses(lab, probe, [a, b]);
      await loopPasses(lab, probe, [a, b]);
      expect((await state(urlB)).rescan_count).toBe(2);
      expect(await runs()).toBe(3);
      const history = await (await api(urlA, `/v1/asset/enumerate/${id}/history`)).json();
      expect(history.data?.map((h: { status: string }) => h.status)).toEqual(['finished', 'finished', 'finished']);
      expect(probes).toBeGreaterThanOrEqual(3);
    } finally {
      await web.close();
    }
  }, 300_000);
});
