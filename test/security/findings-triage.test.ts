// Attacks on working findings and the audit log: roles (Members and Viewers read, only Admins and Owners
// change), another team's findings (by id and through filters), bad input (4xx with the error body, nothing
// changed), an append-only audit log (the database refuses UPDATE, DELETE, TRUNCATE) that never holds a
// secret, and one team never seeing another's audit entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../helpers/pdcp-openapi.ts';
import * as authStore from '../../src/platform/auth/store.ts';
import { issueKey } from '../../src/platform/auth/service.ts';

const line = (id: string, host: string) =>
  JSON.stringify({ 'template-id': id, info: { name: id, severity: 'high' }, host, 'matched-at': `${host}/x` });

describe.each(dbKinds())('findings triage and audit log attacks on %s', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let viewer: TestUser;
  let bKey = '';
  let ours: string[] = [];
  let theirs: string[] = [];
  let bScan = '';

  const importScan = async (key: string, body: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      headers: { 'content-type': 'application/octet-stream' },
      payload: body,
      key,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    const list = await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}`, key });
    // In template order: [0] is a-1 in both teams.
    const rows = list.json().data as { vuln_id: string; template_id: string }[];
    rows.sort((x, y) => x.template_id.localeCompare(y.template_id));
    return { id, vulns: rows.map((r) => r.vuln_id) };
  };
  const statusOf = async (id: string, key?: string) =>
    (await t.request({ method: 'GET', url: `/v1/scans/vuln/${id}`, key })).json();
  /** A 4xx with the spec's error body (and the hosted platform's error schema where it has the operation). */
  const refused = async (opts: Parameters<TestApp['request']>[0], status: number, param?: string) => {
    const res = await t.request(opts);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json();
    expect(body.message).toEqual(expect.any(String));
    if (param) expect(body.param).toBe(param);
    if (hasPdcpOpenApi() && status !== 403 && status !== 404)
      assertPdcpAnswer(opts.method!, String(opts.url), status, body);
    return body;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    member = await t.addUser('member@localhost', 'member');
    viewer = await t.addUser('viewer@localhost', 'viewer');
    const bTeam = 'team-b-' + kind;
    await authStore.insertTeam(t.ctx.db, bTeam, 'Team B');
    const user = await authStore.insertUser(t.ctx.db, 'b-owner@example.com', bTeam);
    await authStore.insertMember(t.ctx.db, bTeam, user.id, 'OWNER', true);
    bKey = await issueKey(t.ctx.db, user.id);
    ours = (
      await importScan(
        t.owner.key,
        [line('a-1', 'https://a.example.com'), line('a-2', 'https://a.example.com')].join('\n'),
      )
    ).vulns;
    const b = await importScan(
      bKey,
      [line('a-1', 'https://a.example.com'), line('b-2', 'https://b.example.com')].join('\n'),
    );
    bScan = b.id;
    theirs = b.vulns;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('Members and Viewers read findings and changelogs but change nothing; each try is in the audit log', async () => {
    for (const who of [member, viewer]) {
      expect((await t.request({ method: 'GET', url: `/v1/scans/vuln/${ours[0]}`, key: who.key })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/v1/scans/vuln/changelogs', key: who.key })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/v1/team/audit_log', key: who.key })).statusCode).toBe(200);
      await refused(
        { method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: ours, vuln_status: 'fixed' }, key: who.key },
        403,
      );
      await refused(
        { method: 'PATCH', url: '/v1/scans/vulns/labels', payload: { ids: ours, labels: ['x'] }, key: who.key },
        403,
      );
      await refused({ method: 'DELETE', url: '/v1/scans/vulns', payload: { ids: ours }, key: who.key }, 403);
      await refused({ method: 'POST', url: `/v1/scans/${ours[0]}/retest`, payload: {}, key: who.key }, 403);
    }
    for (const id of ours) expect(await statusOf(id)).toMatchObject({ vuln_status: 'open', labels: [] });
    const denied = (await t.request({ method: 'GET', url: '/v1/team/audit_log/search?q=403' })).json().data;
    expect(denied.map((e: { email: string }) => e.email).sort()).toEqual([
      ...Array(4).fill('member@localhost'),
      ...Array(4).fill('viewer@localhost'),
    ]);
  });

  it("another team's findings are out of reach by id and by filter", async () => {
    const other = theirs[0]!;
    await refused({ method: 'GET', url: `/v1/scans/vuln/${other}` }, 404, 'vuln_id');
    await refused({ method: 'GET', url: `/v1/scans/vuln/${other}/changelogs` }, 404, 'vuln_id');
    await refused({ method: 'GET', url: `/v1/retest/${other}` }, 404, 'vuln_id');
    await refused({ method: 'POST', url: `/v1/scans/${other}/retest`, payload: {} }, 404, 'vuln_id');
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns/labels', payload: { ids: [ours[0], other], labels: ['x'] } },
      404,
      'ids',
    );
    // Status by ids and by filter (B's scan id, a search that matches B's findings too): ours only, if any.
    const patched = await t.request({
      method: 'PATCH',
      url: '/v1/scans/vulns',
      payload: { vuln_ids: theirs, vuln_status: 'false_positive' },
    });
    expect(patched.json().message).toMatch(/^0 findings/);
    await t.request({ method: 'PATCH', url: '/v1/scans/vulns', payload: { scan_id: bScan, vuln_status: 'fixed' } });
    await t.request({ method: 'DELETE', url: '/v1/scans/vulns', payload: { ids: theirs } });
    await t.request({ method: 'DELETE', url: '/v1/scans/vulns', payload: { scan_id: bScan } });
    for (const id of theirs) expect(await statusOf(id, bKey)).toMatchObject({ vuln_status: 'open', labels: [] });
    expect((await t.request({ method: 'GET', url: '/v1/scans/vuln/changelogs', key: bKey })).json().data).toEqual([]);
    // A search across both teams changes only ours.
    await t.request({ method: 'PATCH', url: '/v1/scans/vulns', payload: { search: 'a-1', vuln_status: 'triaged' } });
    expect((await statusOf(ours[0]!)).vuln_status).toBe('triaged');
    expect((await statusOf(theirs[0]!, bKey)).vuln_status).toBe('open');
    // The status filter (its ids and its count come from scan_result_statuses, 032) lists and counts only
    // the caller's findings: B's open findings are not in our list of open ones, nor ours in B's.
    const openOf = async (key?: string) =>
      (await t.request({ method: 'GET', url: '/v1/scans/results?vuln_status=open&limit=1000', key })).json() as {
        total_results: number;
        data: { vuln_id: string }[];
      };
    const ourOpen = await openOf();
    expect(ourOpen.data.some((r) => theirs.includes(r.vuln_id))).toBe(false);
    expect(ourOpen.total_results).toBe(ourOpen.data.length);
    const theirOpen = await openOf(bKey);
    expect(theirOpen.data.map((r) => r.vuln_id).sort()).toEqual([...theirs].sort());
    expect(theirOpen.total_results).toBe(theirs.length);
    // B's audit log shows none of our team's entries, and ours none of B's.
    const bAudit = (await t.request({ method: 'GET', url: '/v1/team/audit_log', key: bKey })).json().data;
    expect(bAudit.every((e: { email: string }) => e.email === 'b-owner@example.com')).toBe(true);
    const aAudit = (await t.request({ method: 'GET', url: '/v1/team/audit_log?limit=1000' })).json().data;
    expect(aAudit.some((e: { email: string }) => e.email === 'b-owner@example.com')).toBe(false);
  });

  it("a new finding takes its own team's triage of the same finding, never another team's", async () => {
    // Same finding (same hash) in both teams: ours is triaged and labelled, B's copies are untouched.
    await t.request({
      method: 'PATCH',
      url: '/v1/scans/vulns',
      payload: { vuln_ids: [ours[0]], vuln_status: 'accepted_risk' },
    });
    await t.request({
      method: 'PATCH',
      url: '/v1/scans/vulns/labels',
      payload: { ids: [ours[0]], labels: ['ours-only'] },
    });
    const again = line('a-1', 'https://a.example.com');
    const b = await importScan(bKey, again);
    expect(await statusOf(b.vulns[0]!, bKey)).toMatchObject({ vuln_status: 'open', labels: [] });
    // The same import in our team takes our triage: the look-up works, and is confined to the team.
    const a = await importScan(t.owner.key, again);
    expect(await statusOf(a.vulns[0]!)).toMatchObject({ vuln_status: 'accepted_risk', labels: ['ours-only'] });
    // B triaging its copy does not reach our next copy either.
    await t.request({
      method: 'PATCH',
      url: '/v1/scans/vulns',
      payload: { vuln_ids: [b.vulns[0]], vuln_status: 'false_positive' },
      key: bKey,
    });
    const a2 = await importScan(t.owner.key, again);
    expect(await statusOf(a2.vulns[0]!)).toMatchObject({ vuln_status: 'accepted_risk', labels: ['ours-only'] });
  });

  it('bad input is a 400 naming the field, and changes nothing', async () => {
    const before = await statusOf(ours[1]!);
    await refused({ method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: ours, vuln_status: 'gone' } }, 400);
    await refused({ method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_status: 'fixed' } }, 400, 'vuln_ids');
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: [], vuln_status: 'fixed' } },
      400,
      'vuln_ids',
    );
    await refused(
      {
        method: 'PATCH',
        url: '/v1/scans/vulns',
        payload: { vuln_ids: ["1'; DROP TABLE scan_results; --"], vuln_status: 'fixed' },
      },
      400,
      'vuln_ids',
    );
    await refused(
      {
        method: 'PATCH',
        url: '/v1/scans/vulns',
        payload: { vuln_ids: ['99999999999999999999999'], vuln_status: 'fixed' },
      },
      400,
      'vuln_ids',
    );
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns', payload: { severity: ['huge'], vuln_status: 'fixed' } },
      400,
      'severity',
    );
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: ours, vuln_status: 'fixed', sql: 'x' } },
      400,
    );
    await refused({ method: 'PATCH', url: '/v1/scans/vulns/labels', payload: { labels: ['x'] } }, 400);
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns/labels', payload: { ids: ['abc'], labels: ['x'] } },
      400,
      'ids',
    );
    await refused(
      { method: 'PATCH', url: '/v1/scans/vulns/labels', payload: { ids: ours, labels: ['x'.repeat(101)] } },
      400,
    );
    await refused({ method: 'DELETE', url: '/v1/scans/vulns', payload: {} }, 400, 'ids');
    await refused({ method: 'DELETE', url: '/v1/scans/vulns', payload: { vuln_status: ['nope'] } }, 400, 'vuln_status');
    await refused({ method: 'GET', url: '/v1/scans/vuln/changelogs?time=forever' }, 400, 'time');
    await refused({ method: 'GET', url: '/v1/scans/vuln/changelogs?event_type=drop' }, 400, 'event_type');
    await refused({ method: 'GET', url: '/v1/scans/vuln/changelogs?sort_desc=severity' }, 400, 'sort_desc');
    await refused({ method: 'GET', url: '/v1/scans/vuln/changelogs?limit=-1' }, 400);
    await refused({ method: 'GET', url: '/v1/scans/vuln/abc' }, 404, 'vuln_id');
    await refused({ method: 'GET', url: `/v1/scans/vuln/${'9'.repeat(30)}` }, 404, 'vuln_id');
    await refused({ method: 'POST', url: `/v1/scans/${ours[1]}/retest`, payload: { agent_tags: 'x' } }, 400);
    // An imported finding's template is not in the catalogue: nothing to run.
    await refused({ method: 'POST', url: `/v1/scans/${ours[1]}/retest`, payload: {} }, 400, 'vuln_id');
    await refused({ method: 'GET', url: `/v1/retest/${ours[1]}` }, 404, 'vuln_id');
    await refused({ method: 'GET', url: '/v1/team/audit_log?source=robot' }, 400, 'source');
    await refused({ method: 'GET', url: '/v1/team/audit_log?time_range=always' }, 400, 'time_range');
    await refused({ method: 'GET', url: '/v1/team/audit_log?start_date=yesterday' }, 400);
    await refused({ method: 'GET', url: '/v1/team/audit_log/search' }, 400);
    await refused({ method: 'GET', url: `/v1/team/audit_log/search?q=${'x'.repeat(201)}` }, 400);
    await refused({ method: 'GET', url: '/v1/team/audit_log/search?q=%20' }, 400, 'q');
    await refused({ method: 'GET', url: '/v1/team/audit_log/search?q=a&limit=101' }, 400);
    expect(await statusOf(ours[1]!)).toEqual(before);
    // Odd but harmless search text is just text.
    for (const q of ["' OR 1=1 --", '%', '_', '\\', '10.0.', '::1'])
      expect(
        (await t.request({ method: 'GET', url: `/v1/team/audit_log/search?q=${encodeURIComponent(q)}` })).statusCode,
      ).toBe(200);
  });

  it('the audit log is append-only: the database refuses to change or remove its rows', async () => {
    const db = t.ctx.db;
    const count = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM team_audit_log')).rows[0]!.n;
    const n = await count();
    expect(n).toBeGreaterThan(0);
    await expect(db.query(`UPDATE team_audit_log SET email = 'someone-else'`)).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM team_audit_log')).rejects.toThrow(/append-only/);
    await expect(db.query('TRUNCATE team_audit_log')).rejects.toThrow(/append-only/);
    expect(await count()).toBe(n);
  });

  it('never holds a secret: keys, tokens, passwords, query strings and bodies stay out', async () => {
    const secrets: string[] = [t.owner.key];
    // A rotated key (in the answer), a configuration with a secret, a password, a query-string secret.
    const rotated = await t.request({ method: 'POST', url: '/v1/user/apikey/rotate' });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newKey = JSON.stringify(rotated.json()).match(/"([A-Za-z0-9_-]{20,})"/)?.[1];
    expect(newKey).toBeTruthy();
    secrets.push(newKey!);
    await t.request({
      method: 'POST',
      url: '/v1/scans/config?api_key=QUERY-SECRET-123',
      key: newKey,
      payload: {
        name: 'with secret',
        config_type: 'alerting',
        config: 'slack:\n  webhook: https://hooks.example/BODY-SECRET-456\n',
      },
    });
    secrets.push('QUERY-SECRET-123', 'BODY-SECRET-456');
    await t.request({
      method: 'PUT',
      url: '/v1/user/password',
      key: newKey,
      payload: { password: 'Sup3r-Secret-Passw0rd!', current_password: 'Other-Secret-Passw0rd!' },
    });
    secrets.push('Sup3r-Secret-Passw0rd!', 'Other-Secret-Passw0rd!');
    // A path whose segment is a credential.
    await t.request({ method: 'POST', url: '/v1/user/invite/accept', payload: { token: 'INVITE-SECRET-789' } });
    secrets.push('INVITE-SECRET-789');

    const { rows } = await t.ctx.db.query('SELECT * FROM team_audit_log');
    const text = JSON.stringify(rows);
    for (const s of secrets) expect(text).not.toContain(s);
    // The changes were recorded, without their secrets.
    expect(text).toContain('POST /v1/user/apikey/rotate');
    expect(text).toContain('POST /v1/scans/config');
    const answer = await t.request({ method: 'GET', url: '/v1/team/audit_log?limit=1000', key: newKey });
    for (const s of secrets) expect(answer.body).not.toContain(s);
    if (hasPdcpOpenApi()) assertPdcpAnswer('GET', '/v1/team/audit_log', 200, answer.json());
  });
});
