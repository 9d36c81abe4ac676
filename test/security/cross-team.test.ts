// Two teams on one platform: every resource made in team A (scans, imported scans, private templates,
// log exports and their downloads, results) is out of reach from team B: each read, change, delete,
// export and download fails with 403/404 and changes nothing. Asking for team A by id with a key of B is
// refused too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startTestQueue } from '../helpers/queue.ts';
import { dbKinds } from '../helpers/db.ts';
import * as authStore from '../../src/platform/auth/store.ts';
import { issueKey } from '../../src/platform/auth/service.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';
import '../../src/platform/assets/jobs.ts';
import { ensureQueues, getJobHandler } from '../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB } from '../../src/platform/assets/jobs-names.ts';

const PRIVATE = MARKER_TEMPLATE.replace('id: test-marker', 'id: team-a-private');

describe.each(dbKinds())('cross-team isolation on %s', (kind) => {
  let t: TestApp;
  let boss: PgBoss;
  let bKey = '';
  let bTeam = '';
  const a = { scan: '', imported: '', template: '', exportId: '', link: '', enumeration: '', policy: '' };
  beforeAll(async () => {
    t = await createTestApp(kind);
    boss = await startTestQueue(t.testDb);
    t.ctx.queue = boss;
    await ensureQueues(boss, [getJobHandler(ENUMERATE_JOB)!]);
    bTeam = 'team-b-' + kind;
    await authStore.insertTeam(t.ctx.db, bTeam, 'Team B');
    const user = await authStore.insertUser(t.ctx.db, 'b-owner@example.com', bTeam);
    await authStore.insertMember(t.ctx.db, bTeam, user.id, 'OWNER', true);
    bKey = await issueKey(t.ctx.db, user.id);

    // Team A's resources, made by its owner.
    a.scan = (
      await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          name: 'a-scan',
          targets: ['http://127.0.0.1:9'],
          private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
          schedule_only: true,
        },
      })
    ).json().id;
    a.imported = (
      await t.request({
        method: 'POST',
        url: '/v1/scans/import?name=a-import',
        headers: { 'content-type': 'application/octet-stream' },
        payload: JSON.stringify({
          'template-id': 'a-finding',
          info: { severity: 'high' },
          host: 'https://a.example.com',
          'matched-at': 'https://a.example.com/x',
        }),
      })
    ).json().id;
    const tpl = await t.request({ method: 'POST', url: '/v1/template', payload: { template: PRIVATE } });
    expect(tpl.statusCode, tpl.body).toBe(200);
    a.template = tpl.json().template_id ?? 'team-a-private';
    const exp = await t.request({
      method: 'GET',
      url: `/v1/scans/${a.imported}/scan_log/export?format=json&async=true`,
    });
    a.exportId = exp.json().export_id;
    a.link = (
      await t.request({ method: 'GET', url: `/v1/scans/${a.imported}/scan_log/export?format=json` })
    ).json().url;
    a.enumeration = (
      await t.request({
        method: 'POST',
        url: '/v1/asset/enumerate',
        payload: { name: 'a-enum', root_domains: ['a.example.com'] },
      })
    ).json().id;
    expect(a.enumeration).toBeTruthy();
    a.policy = (
      await t.request({
        method: 'POST',
        url: '/v1/asset/policy',
        payload: { name: 'a-policy', policy_type: 'set_label', policies: { port: '443' }, labels: ['a'] },
      })
    ).json().id;
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true }).catch(() => {});
    await t?.close();
  });

  it("team B cannot read, change, delete, export or download team A's resources", async () => {
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/scans/${a.scan}`],
      ['GET', `/v1/scans/${a.scan}/config`],
      ['DELETE', `/v1/scans/${a.scan}`],
      ['POST', `/v1/scans/${a.scan}/stop`],
      ['POST', `/v1/scans/${a.scan}/rescan`],
      ['GET', `/v1/scans/${a.scan}/scan_log/export?format=json`],
      ['GET', `/v1/scans/${a.imported}`],
      ['DELETE', `/v1/scans/${a.imported}`],
      ['GET', `/v1/scans/${a.imported}/scan_log/export?format=csv&async=true`],
      ['PATCH', `/v1/scans/${a.imported}/import`, 'raw'],
      ['GET', `/v1/export/${a.exportId}`],
      ['GET', `/v1/template/${a.template}`],
      ['DELETE', `/v1/template/${a.template}`],
      ['PATCH', '/v1/template', { template_id: a.template, template: PRIVATE.replace('Marker page', 'changed by B') }],
      ['GET', `/v1/asset/enumerate/${a.enumeration}`],
      ['GET', `/v1/asset/enumerate/${a.enumeration}/contents`],
      ['PATCH', `/v1/asset/enumerate/${a.enumeration}`, { name: 'b-was-here' }],
      ['POST', `/v1/asset/enumerate/${a.enumeration}/rescan`],
      ['DELETE', `/v1/asset/enumerate/${a.enumeration}`],
      ['GET', `/v1/asset/policy/${a.policy}`],
      ['GET', `/v1/asset/policy/${a.policy}/events`],
      ['PATCH', `/v1/asset/policy/${a.policy}`, { name: 'b-was-here' }],
      ['DELETE', `/v1/asset/policy/${a.policy}`],
    ];
    // Naming A's enumeration in B's own policy or scan is an unknown id (400 naming it), as any typo.
    const named = [
      await t.request({
        method: 'POST',
        url: '/v1/asset/policy',
        key: bKey,
        payload: { policy_type: 'delete', policies: { port: '443' }, enumeration_ids: [a.enumeration] },
      }),
      await t.request({
        method: 'POST',
        url: '/v1/scans',
        key: bKey,
        payload: {
          enumeration_ids: [{ id: a.enumeration }],
          private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        },
      }),
    ];
    expect(named.map((r) => [r.statusCode, r.json().param])).toEqual([
      [400, 'enumeration_ids[0]'],
      [400, 'enumeration_ids[0].id'],
    ]);
    const leaks: string[] = [];
    for (const [method, url, body] of attempts) {
      const res =
        body === 'raw'
          ? await t.request({
              method: 'PATCH',
              url,
              key: bKey,
              headers: { 'content-type': 'application/octet-stream' },
              payload: JSON.stringify({ 'template-id': 'b-was-here', host: 'https://b.example.com' }),
            })
          : await t.request({ method: method as 'GET', url, key: bKey, payload: body as object });
      if (res.statusCode !== 404 && res.statusCode !== 403) leaks.push(`${method} ${url} -> ${res.statusCode}`);
    }
    // Lists and searches of team B show nothing of A's.
    const lists = await Promise.all(
      [
        '/v1/scans',
        `/v1/scans/results?scan_id=${a.imported}`,
        '/v1/template',
        '/v1/scans/results',
        '/v1/asset/enumerate',
        '/v1/asset/enumerate/contents',
        '/v1/asset/policy',
      ].map((u) => t.request({ method: 'GET', url: u, key: bKey })),
    );
    for (const l of lists) {
      if (l.statusCode === 200 && /a-scan|a-import|a-finding|team-a-private|a-enum|a-policy/.test(l.body))
        leaks.push(`list ${l.body.slice(0, 120)}`);
    }
    // Naming team A with B's key is refused.
    const asA = await t.request({
      method: 'GET',
      url: '/v1/scans',
      key: bKey,
      headers: { 'x-team-id': t.owner.teamId },
    });
    if (asA.statusCode !== 403) leaks.push(`X-Team-Id of A with B's key -> ${asA.statusCode}`);
    console.log(`cross-team: ${attempts.length + lists.length + 1} attempts from team B, ${leaks.length} leaks`);
    expect(leaks).toEqual([]);

    // Nothing of A's changed.
    expect((await t.request({ method: 'GET', url: `/v1/scans/${a.scan}` })).json()).toMatchObject({
      name: 'a-scan',
      status: 'scheduled',
    });
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/${a.enumeration}` })).json().data).toMatchObject(
      { name: 'a-enum', rescan_count: 0 },
    );
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${a.policy}` })).json().data).toMatchObject({
      name: 'a-policy',
    });
    expect((await t.request({ method: 'GET', url: `/v1/scans/${a.imported}` })).json()).toMatchObject({
      name: 'a-import',
      total_result: 1,
    });
    const tpl = await t.request({ method: 'GET', url: `/v1/template/${a.template}` });
    expect(tpl.statusCode).toBe(200);
    expect(tpl.body).not.toContain('changed by B');
    // A's download link still works for whoever holds it (it is the credential), unchanged by B's tries.
    const u = new URL(a.link);
    expect((await t.request({ method: 'GET', url: u.pathname, key: null })).statusCode).toBe(200);
  });
});
