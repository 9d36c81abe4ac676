// Scan schedules through the API and the scheduler step: validation (a 400 naming the field), the list
// item's schedule, due schedules starting a rescan once, catch-up once after downtime, schedule_only scans.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, MARKER_TEMPLATE, type ScanTestApp } from '../scans/fixtures.ts';
import { runDueSchedules } from '../../../src/platform/monitor/schedules.ts';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';

describe.each(dbKinds())('scan schedules on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  const templates = [{ name: 'm.yaml', contents: MARKER_TEMPLATE }];

  beforeAll(async () => {
    t = await createScanApp(kind);
    target = await startHttpServer((req, res) => res.end(req.url === '/vuln' ? 'VULNERABLE-MARKER' : 'hi'));
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
  });

  const newScan = async (extra: Record<string, unknown> = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates, schedule_only: true, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const setSchedule = (payload: Record<string, unknown>, key?: string) =>
    t.request({ method: 'POST', url: '/v1/scans/schedule', payload, key });

  it('refuses each bad field with a 400 naming it, storing nothing', async () => {
    const id = await newScan();
    const cases: [Record<string, unknown>, string][] = [
      [{ scan_id: id, scan_frequency: 'yearly' }, 'scan_frequency'],
      [{ scan_id: id }, 'scan_frequency'],
      [{ scan_frequency: 'daily' }, 'scan_id'],
      [{ scan_id: 'nope', scan_frequency: 'daily' }, 'scan_id'],
      [{ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 0 }, 'hourly_frequency'],
      [{ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 25 }, 'hourly_frequency'],
      [{ scan_id: id, scan_frequency: 'daily', hourly_frequency: 2 }, 'hourly_frequency'],
      [{ scan_id: id, scan_frequency: 'daily', custom_weekdays: [1] }, 'custom_weekdays'],
      [{ scan_id: id, scan_frequency: 'custom' }, 'custom_weekdays'],
      [{ scan_id: id, scan_frequency: 'custom', custom_weekdays: [] }, 'custom_weekdays'],
      [{ scan_id: id, scan_frequency: 'custom', custom_weekdays: [1, 7] }, 'custom_weekdays[1]'],
      [{ scan_id: id, scan_frequency: 'custom', custom_weekdays: [-1] }, 'custom_weekdays[0]'],
      [{ scan_id: id, scan_frequency: 'daily', start_time: '25:00' }, 'start_time'],
      [{ scan_id: id, scan_frequency: 'daily', start_time: '10:00+02:00' }, 'start_time'],
      [{ scan_id: id, scan_frequency: 'daily', extra: 1 }, 'extra'],
    ];
    for (const [payload, param] of cases) {
      const res = await setSchedule(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ param, status: 400 });
      expect(typeof res.json().message).toBe('string');
    }
    const list = await t.request({ method: 'GET', url: '/v1/scans/schedule' });
    expect(list.json().schedules.filter((s: { scan_id: string }) => s.scan_id === id)).toEqual([]);
  });

  it('checks a schedule before its scan exists: the same 400s, its first run when good, nothing stored', async () => {
    const check = (payload: Record<string, unknown>, key?: string) =>
      t.request({ method: 'POST', url: '/v1/scans/schedule/check', payload, key });
    const before = (await t.request({ method: 'GET', url: '/v1/scans/schedule' })).json().schedules.length;
    for (const [payload, param] of [
      [{ scan_frequency: 'daily', start_time: '25:99' }, 'start_time'],
      [{ scan_frequency: 'yearly' }, 'scan_frequency'],
      [{ scan_frequency: 'custom', custom_weekdays: [9] }, 'custom_weekdays[0]'],
      [{ scan_frequency: 'daily', scan_id: 'x' }, 'scan_id'],
    ] as const) {
      const res = await check(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ param, status: 400 });
    }
    const ok = await check({ scan_frequency: 'daily', start_time: '06:30' });
    expect(ok.statusCode, ok.body).toBe(200);
    const next = new Date(ok.json().schedule_next_run);
    expect(ok.json().start_time).toBe('06:30:00');
    expect(next.toISOString().slice(11, 16)).toBe('06:30');
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    const member = await t.addUser(`checker-${kind}@localhost`, 'member');
    expect((await check({ scan_frequency: 'daily' }, member.key)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/v1/scans/schedule' })).json().schedules.length).toBe(before);
  });

  it('a member cannot set a schedule; another team cannot see or schedule the scan', async () => {
    const id = await newScan();
    const member = await t.addUser(`member-${kind}@localhost`, 'member');
    expect((await setSchedule({ scan_id: id, scan_frequency: 'daily' }, member.key)).statusCode).toBe(403);
    const teamId = `other-${kind}`;
    await authStore.insertTeam(t.ctx.db, teamId, 'Other');
    const u = await authStore.insertUser(t.ctx.db, `other-${kind}@localhost`, teamId);
    await authStore.insertMember(t.ctx.db, teamId, u.id, 'OWNER', true);
    const otherKey = await issueKey(t.ctx.db, u.id);
    const res = await setSchedule({ scan_id: id, scan_frequency: 'daily' }, otherKey);
    expect(res.statusCode).toBe(400);
    expect(res.json().param).toBe('scan_id');
  });

  it('sets, lists, shows in the scan item and deletes a schedule', async () => {
    const id = await newScan();
    const res = await setSchedule({
      scan_id: id,
      scan_frequency: 'custom',
      start_time: '06:30',
      custom_weekdays: [5, 1, 1],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/schedule/);
    const list = (await t.request({ method: 'GET', url: '/v1/scans/schedule' })).json();
    const s = list.schedules.find((x: { scan_id: string }) => x.scan_id === id);
    expect(s).toMatchObject({
      scan_id: id,
      scan_frequency: 'custom',
      start_time: '06:30:00',
      custom_weekdays: [1, 5],
      schedule_last_run: '',
    });
    const nextRun = new Date(s.schedule_next_run);
    expect(nextRun.getTime()).toBeGreaterThan(Date.now());
    expect([1, 5]).toContain(nextRun.getUTCDay());
    expect(nextRun.toISOString().slice(11, 19)).toBe('06:30:00');

    const item = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(item.schedule).toEqual(s);
    const page = (await t.request({ method: 'GET', url: `/v1/scans?search=${id}` })).json();
    expect(page.data[0].schedule).toEqual(s);

    // Setting it again replaces it.
    expect((await setSchedule({ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 6 })).statusCode).toBe(200);
    const item2 = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(item2.schedule).toMatchObject({ scan_frequency: 'hourly', hourly_frequency: 6 });
    expect(item2.schedule.custom_weekdays).toBeUndefined();

    expect((await t.request({ method: 'DELETE', url: `/v1/scans/schedule?scan_id=${id}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json().schedule).toBeUndefined();
    const again = await t.request({ method: 'DELETE', url: `/v1/scans/schedule?scan_id=${id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().param).toBe('scan_id');
  });

  it('a schedule_only scan runs only from its schedule; a due slot runs once, catching up once', async () => {
    const id = await newScan();
    expect((await setSchedule({ scan_id: id, scan_frequency: 'hourly', hourly_frequency: 1 })).statusCode).toBe(200);
    // Not due yet: nothing runs.
    expect(await runDueSchedules(t.ctx)).not.toContain(id);
    expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json().status).toBe('scheduled');

    // Three days of downtime: many slots missed, one run.
    await t.ctx.db.query(`UPDATE scan_schedules SET schedule_next_run = now() - interval '3 days' WHERE scan_id = $1`, [
      id,
    ]);
    const [a, b] = await Promise.all([runDueSchedules(t.ctx), runDueSchedules(t.ctx)]);
    expect([...a, ...b].filter((x) => x === id)).toHaveLength(1);
    expect(await runDueSchedules(t.ctx)).not.toContain(id);
    const done = await t.waitStatus(id, ['finished', 'failed']);
    expect(done).toMatchObject({ status: 'finished', total_result: 1, rescan_count: 0 });
    expect(new Date(done.schedule.schedule_next_run).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(done.schedule.schedule_next_run).getTime()).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(done.schedule.schedule_last_run).not.toBe('');

    // The next due slot is a rescan.
    await t.ctx.db.query(
      `UPDATE scan_schedules SET schedule_next_run = now() - interval '1 second' WHERE scan_id = $1`,
      [id],
    );
    expect(await runDueSchedules(t.ctx)).toEqual([id]);
    const second = await t.waitStatus(id, ['finished', 'failed']).then(async () => t.waitStatus(id, ['finished']));
    expect(second).toMatchObject({ rescan_count: 1, is_rescan: true });
  }, 60_000);

  it('a slot that comes while the scan runs is skipped, not queued twice', async () => {
    const slow = await startHttpServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1500));
      res.end('x');
    });
    try {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { targets: [slow.url], private_templates: templates },
      });
      const id = res.json().id as string;
      expect((await setSchedule({ scan_id: id, scan_frequency: 'daily' })).statusCode).toBe(200);
      await t.ctx.db.query(
        `UPDATE scan_schedules SET schedule_next_run = now() - interval '1 minute' WHERE scan_id = $1`,
        [id],
      );
      expect(await runDueSchedules(t.ctx)).toEqual([]);
      const done = await t.waitStatus(id, ['finished', 'failed']);
      expect(done.rescan_count).toBe(0);
      expect(new Date(done.schedule.schedule_next_run).getTime()).toBeGreaterThan(Date.now());
    } finally {
      await slow.close();
    }
  }, 30_000);
});
