// Enumeration rescan schedules through the API (answers held to the hosted platform's schemas), and the
// loop's step: a due slot queues one rescan however often the step runs; a slot while the run is still
// queued is skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { createAssetApp, ENUMERATE_JOB, jobsOf, type AssetTestApp } from '../assets/fixtures.ts';
import { runDueEnumerationSchedules } from '../../../src/platform/monitor/enumeration-schedules.ts';

const pdcp = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, status, body);
};

describe('enumeration schedules', () => {
  let t: AssetTestApp;
  let enumId = '';
  beforeAll(async () => {
    t = await createAssetApp('pglite', { worker: false });
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: ['127.0.0.7'], enumeration_ports: '9', steps: ['port_scan'] },
    });
    enumId = made.json().id;
    // The first run is over (as a worker would have ended it), so a rescan may be queued.
    await t.ctx.db.query(`UPDATE asset_enumerations SET status = 'finished', done_run = 1 WHERE id = $1`, [enumId]);
  });
  afterAll(async () => t?.close());

  it('sets, lists and removes a schedule with the platform schemas', async () => {
    const set = await t.request({
      method: 'POST',
      url: '/v1/enumeration/schedule',
      payload: { enumeration_id: enumId, scan_frequency: 'custom', custom_weekdays: [1, 3], start_time: '06:30' },
    });
    expect(set.statusCode, set.body).toBe(200);
    pdcp('POST', '/v1/enumeration/schedule', 200, set.json());
    const list = await t.request({ method: 'GET', url: '/v1/enumeration/schedule' });
    pdcp('GET', '/v1/enumeration/schedule', 200, list.json());
    const [s] = list.json().schedules;
    expect(s).toMatchObject({
      enumeration_id: enumId,
      scan_frequency: 'custom',
      custom_weekdays: [1, 3],
      start_time: '06:30:00Z',
    });
    expect([1, 3]).toContain(new Date(s.schedule_next_run).getUTCDay());
    expect(s.schedule_next_run.slice(11, 16)).toBe('06:30');

    for (const [payload, param] of [
      [{ enumeration_id: enumId, scan_frequency: 'yearly' }, 'scan_frequency'],
      [{ enumeration_id: enumId, scan_frequency: 'hourly', hourly_frequency: 25 }, 'hourly_frequency'],
      [{ enumeration_id: enumId, scan_frequency: 'custom' }, 'custom_weekdays'],
      [{ enumeration_id: enumId, scan_frequency: 'daily', start_time: '25:00' }, 'start_time'],
      [{ enumeration_id: 'nope', scan_frequency: 'daily' }, 'enumeration_id'],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/v1/enumeration/schedule', payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().param).toBe(param);
      pdcp('POST', '/v1/enumeration/schedule', 400, res.json());
    }
    const del = await t.request({ method: 'DELETE', url: `/v1/enumeration/schedule?enumeration_id=${enumId}` });
    expect(del.statusCode).toBe(200);
    pdcp('DELETE', '/v1/enumeration/schedule', 200, del.json());
    const again = await t.request({ method: 'DELETE', url: `/v1/enumeration/schedule?enumeration_id=${enumId}` });
    expect(again.statusCode).toBe(404);
    pdcp('DELETE', '/v1/enumeration/schedule', 404, again.json());
  });

  it('a due slot queues one rescan, however many passes look at it', async () => {
    await t.request({
      method: 'POST',
      url: '/v1/enumeration/schedule',
      payload: { enumeration_id: enumId, scan_frequency: 'hourly', hourly_frequency: 2 },
    });
    const before = (await jobsOf(t, ENUMERATE_JOB)).length;
    await t.ctx.db.query(
      `UPDATE enumeration_schedules SET schedule_next_run = now() - interval '7 days' WHERE enumeration_id = $1`,
      [enumId],
    );
    const now = new Date();
    const passes = await Promise.all([runDueEnumerationSchedules(t.ctx, now), runDueEnumerationSchedules(t.ctx, now)]);
    expect(passes.flat()).toEqual([enumId]);
    const jobs = (await jobsOf(t, ENUMERATE_JOB)).slice(before);
    expect(jobs.map((j) => j.data)).toEqual([{ enumerationId: enumId, run: 2 }]);
    const s = (await t.request({ method: 'GET', url: '/v1/enumeration/schedule' })).json().schedules[0];
    expect(new Date(s.schedule_next_run).getTime()).toBeGreaterThan(now.getTime());
    expect(new Date(s.schedule_next_run).getTime()).toBeLessThanOrEqual(now.getTime() + 2 * 3_600_000);
    expect(s.schedule_last_run).toBe(now.toISOString());

    // The next slot comes while run 2 is still queued: skipped, no second job.
    await t.ctx.db.query(`UPDATE enumeration_schedules SET schedule_next_run = now() WHERE enumeration_id = $1`, [
      enumId,
    ]);
    expect(await runDueEnumerationSchedules(t.ctx)).toEqual([]);
    expect((await jobsOf(t, ENUMERATE_JOB)).slice(before)).toHaveLength(1);
  });
});
