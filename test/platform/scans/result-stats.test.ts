// GET /v1/scans/results/stats: the overview's figures, counted by the database. A finding seen by two scans
// counts once; fixed findings leave the default (open) figures but show in "fixed per day"; another team
// sees none of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';

const line = (template: string, severity: string, host: string) =>
  JSON.stringify({
    'template-id': template,
    info: { name: `Name of ${template}`, severity, tags: ['t'] },
    type: 'http',
    host,
    'matched-at': `${host}/x`,
    timestamp: '2024-01-02T03:04:05Z',
    'matcher-status': true,
  });
const octet = { 'content-type': 'application/octet-stream' };
const LINES = [
  line('tpl-high', 'high', 'https://a.example.com'),
  line('tpl-high', 'high', 'https://b.example.com'),
  line('tpl-info', 'info', 'https://a.example.com'),
  line('tpl-low', 'low', 'https://a.example.com'),
].join('\n');

describe.each(dbKinds())('finding stats on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'POST', url: '/v1/scans/import', payload: LINES, headers: octet });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  const stats = async (query = '', key?: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/results/stats${query}`, key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('counts each finding once, by severity, per day, by host and by template', async () => {
    const s = await stats('?days=7');
    expect(s.total).toBe(4);
    expect(s.severity).toEqual({ high: 2, info: 1, low: 1 });
    expect(s.per_day).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(s.per_day.at(-1)).toEqual({ day: today, new: 4, fixed: 0 });
    expect(s.per_day.slice(0, 6).every((d: { new: number }) => d.new === 0)).toBe(true);
    expect(s.top_hosts).toEqual([
      { host: 'https://a.example.com', count: 3 },
      { host: 'https://b.example.com', count: 1 },
    ]);
    expect(s.top_templates[0]).toEqual({
      template_id: 'tpl-high',
      name: 'Name of tpl-high',
      severity: 'high',
      count: 2,
    });
  });

  it('leaves fixed findings out of the open figures and counts them as fixed today', async () => {
    // The monitor marks a finding fixed when a later run no longer sees it.
    await t.ctx.db.query(
      `UPDATE scan_results SET vuln_status = 'fixed', updated_at = now() WHERE template_id = 'tpl-low'`,
    );
    const open = await stats();
    expect(open.total).toBe(3);
    expect(open.severity.low).toBeUndefined();
    expect(open.per_day).toHaveLength(30);
    expect(open.per_day.at(-1).fixed).toBe(1);
    const all = await stats('?status=all');
    expect(all.total).toBe(4);
    expect(all.severity.low).toBe(1);
  });

  it('refuses bad parameters and shows another team nothing', async () => {
    for (const q of ['?status=closed', '?days=0', '?days=367', '?days=x']) {
      const res = await t.request({ method: 'GET', url: `/v1/scans/results/stats${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().status).toBe(400);
    }
    const teamId = `stats-other-${kind}`;
    await authStore.insertTeam(t.ctx.db, teamId, 'Other');
    const u = await authStore.insertUser(t.ctx.db, `stats-other-${kind}@localhost`, teamId);
    await authStore.insertMember(t.ctx.db, teamId, u.id, 'OWNER', true);
    const other = await stats('?status=all', await issueKey(t.ctx.db, u.id));
    expect(other).toMatchObject({ total: 0, severity: {}, top_hosts: [], top_templates: [] });
    // A Member reads the figures (results:view).
    const member = await t.addUser(`stats-member-${kind}@localhost`, 'member');
    expect((await stats('', member.key)).total).toBe(3);
  });
});
