// Working findings through their whole cycle on a real target whose behaviour the test toggles: a scan finds
// a bug; an Admin marks it accepted_risk and labels it; a rescan keeps both; another finding is marked
// false_positive; the target is fixed and a retest moves the first to fixed; the target breaks again and
// the next run reopens it as a regression; the changelogs and the audit log show each step with its actor.
// Every answer is checked against the hosted platform's OpenAPI schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/queue.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import type { TestUser } from '../../helpers/app.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from './fixtures.ts';
import { processEvents } from '../../../src/platform/monitor/events.ts';

const CHECKED = /^\/v1\/(scans\/vulns?\b|scans\/[^/]+\/retest|retest\/|team\/audit_log)/;

describe.each(dbKinds())('the whole cycle of a finding on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  let admin: TestUser;
  let vulnerable = true;
  const templates = [
    { name: 'm.yaml', contents: MARKER_TEMPLATE },
    { name: 'h.yaml', contents: HEADER_TEMPLATE },
  ];

  beforeAll(async () => {
    t = await createScanApp(kind);
    admin = await t.addUser('admin@localhost', 'admin');
    target = await startHttpServer((req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(req.url === '/vuln' && vulnerable ? 'VULNERABLE-MARKER' : 'hello');
    });
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
  });

  /**
   * A request whose answer must match the hosted platform's schema for its path and status (the operations
   * of this work; others, such as the results list, are not checked here).
   */
  const call = async (opts: { method: string; url: string; payload?: unknown; key?: string }, status = 200) => {
    const res = await t.request(opts as Parameters<typeof t.request>[0]);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.body ? res.json() : undefined;
    if (hasPdcpOpenApi() && CHECKED.test(opts.url)) assertPdcpAnswer(opts.method, opts.url, status, body);
    return body;
  };
  const runTo = async (id: string, run: number) => {
    await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      return s.rescan_count === run && s.status === 'finished' && s;
    }, 30_000);
    while (await processEvents(t.ctx)) {
      /* drain: finished runs mark findings fixed and regressions */
    }
  };
  const findings = async (scanId: string) => {
    const data = (await call({ method: 'GET', url: `/v1/scans/results?scan_id=${scanId}` })).data as Record<
      string,
      any
    >[];
    return Object.fromEntries(data.map((r) => [r.template_id, r])) as Record<string, Record<string, any>>;
  };

  it('scan, triage, rescan, retest, regression; changelogs and the audit log tell it', async () => {
    const created = await call({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates },
    });
    const scanId = created.id as string;
    await runTo(scanId, 0);
    let f = await findings(scanId);
    const bug = f['test-marker']!.vuln_id as string;
    const header = f['test-powered-by']!.vuln_id as string;
    expect(f['test-marker']).toMatchObject({ vuln_status: 'open', labels: [], is_regression: false });

    // The Admin accepts the risk and labels it.
    expect(
      (
        await call({
          method: 'PATCH',
          url: '/v1/scans/vulns',
          payload: { vuln_ids: [bug], vuln_status: 'accepted_risk' },
          key: admin.key,
        })
      ).message,
    ).toMatch(/1 finding set to accepted_risk/);
    await call({
      method: 'PATCH',
      url: '/v1/scans/vulns/labels',
      payload: { ids: [bug], labels: ['payments', 'q3'] },
      key: admin.key,
    });

    // A rescan (the bug still there) keeps both.
    await call({ method: 'POST', url: `/v1/scans/${scanId}/rescan` });
    await runTo(scanId, 1);
    let one = await call({ method: 'GET', url: `/v1/scans/vuln/${bug}` });
    expect(one).toMatchObject({ vuln_status: 'accepted_risk', labels: ['payments', 'q3'], scan_id: scanId });

    // The owner marks the header finding a false positive, through a filter (template and scan).
    await call({
      method: 'PATCH',
      url: '/v1/scans/vulns',
      payload: { scan_id: scanId, template: ['test-powered-by'], vuln_status: 'false_positive' },
    });
    expect((await call({ method: 'GET', url: `/v1/scans/vuln/${header}` })).vuln_status).toBe('false_positive');

    // The target is fixed; a retest of the bug moves it to fixed.
    vulnerable = false;
    const started = await call({ method: 'POST', url: `/v1/scans/${bug}/retest`, payload: {}, key: admin.key });
    expect(started.results.vuln_id).toBe(bug);
    const settled = (await waitFor(async () => {
      const res = await t.request({ method: 'GET', url: `/v1/retest/${bug}` });
      return res.statusCode === 200 && res.json().retest_status !== 'running' && res.json();
    }, 30_000)) as Record<string, any>;
    if (hasPdcpOpenApi()) assertPdcpAnswer('GET', `/v1/retest/${bug}`, 200, settled);
    expect(settled).toMatchObject({ retest_status: 'not_matched', requested_by: 'admin@localhost' });
    expect(settled.results.vuln_status).toBe('fixed');

    // A rescan while fixed: the false positive still matches and stays a false positive.
    await call({ method: 'POST', url: `/v1/scans/${scanId}/rescan` });
    await runTo(scanId, 2);
    f = await findings(scanId);
    expect(f['test-marker']!.vuln_status).toBe('fixed');
    expect(f['test-powered-by']!.vuln_status).toBe('false_positive');

    // The target breaks again: the next run reopens the bug as a regression, labels kept.
    vulnerable = true;
    await call({ method: 'POST', url: `/v1/scans/${scanId}/rescan` });
    await runTo(scanId, 3);
    one = await call({ method: 'GET', url: `/v1/scans/vuln/${bug}` });
    expect(one).toMatchObject({ vuln_status: 'open', is_regression: true, labels: ['payments', 'q3'] });
    expect((await call({ method: 'GET', url: `/v1/scans/vuln/${header}` })).vuln_status).toBe('false_positive');
    const regressions = await call({ method: 'GET', url: `/v1/scans/results?is_regression=true` });
    expect(regressions.data.map((r: { vuln_id: string }) => r.vuln_id)).toEqual([bug]);

    // The bug's changelog, oldest first: each step with its actor.
    const log = await call({ method: 'GET', url: `/v1/scans/vuln/${bug}/changelogs?sort_asc=created_at` });
    const steps = log.data.map((c: any) => [
      c.changed_by,
      c.source,
      c.change_event.map((e: any) => `${e.name}:${e.to}`),
    ]);
    expect(steps).toEqual([
      ['admin@localhost', 'api', ['vuln_status:accepted_risk']],
      ['admin@localhost', 'api', ['labels:payments,q3']],
      ['admin@localhost', 'retest', ['retest:not_matched', 'vuln_status:fixed']],
      ['system', 'scan', ['vuln_status:open', 'is_regression:true']],
    ]);
    expect(log.data[0].change_event[0]).toEqual({ name: 'vuln_status', from: 'open', to: 'accepted_risk' });
    // All the team's changelogs, filtered by event type: the two status changes of the false positive too.
    const all = await call({ method: 'GET', url: '/v1/scans/vuln/changelogs?event_type=vuln_status' });
    const byFinding = all.data.map((c: any) => `${c.vuln_id}:${c.change_event[0].to}:${c.changed_by}`);
    expect(byFinding).toContain(`${header}:false_positive:owner@localhost`);
    expect(byFinding).toContain(`${bug}:open:system`);
    expect(byFinding.some((s: string) => s.includes(':payments'))).toBe(false);

    // The audit log: who did what, through which door, newest first.
    const audit = await call({ method: 'GET', url: '/v1/team/audit_log' });
    const entries = audit.data.map((e: any) => `${e.email} ${e.action} ${e.status} ${e.source}`).reverse();
    expect(entries).toEqual([
      'owner@localhost POST /v1/scans 200 api',
      'admin@localhost PATCH /v1/scans/vulns 200 api',
      'admin@localhost PATCH /v1/scans/vulns/labels 200 api',
      'owner@localhost POST /v1/scans/:scan_id/rescan 200 api',
      'owner@localhost PATCH /v1/scans/vulns 200 api',
      'admin@localhost POST /v1/scans/:vuln_id/retest 200 api',
      'owner@localhost POST /v1/scans/:scan_id/rescan 200 api',
      'owner@localhost POST /v1/scans/:scan_id/rescan 200 api',
    ]);
    expect(audit.data[2].path).toBe(`/v1/scans/${bug}/retest`);
    expect(audit.data[0].ip).toBe('127.0.0.1');
    const byAdmin = await call({ method: 'GET', url: '/v1/team/audit_log?email=admin@localhost' });
    expect(byAdmin.data).toHaveLength(3);
    const searched = await call({ method: 'GET', url: '/v1/team/audit_log/search?q=labels' });
    expect(searched.data.map((e: any) => e.action)).toEqual(['PATCH /v1/scans/vulns/labels']);
    // Runs marking findings fixed, retests and regressions kept the status filter's table (032) equal to
    // the findings' own status.
    const { rows: apart } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scan_results r FULL JOIN scan_result_statuses s ON s.result_id = r.id
        WHERE r.id IS NULL OR s.result_id IS NULL OR s.vuln_status <> r.vuln_status`,
    );
    expect(apart[0]!.n).toBe(0);
    const openNow = await call({ method: 'GET', url: `/v1/scans/results?scan_id=${scanId}&vuln_status=open` });
    expect(openNow.data.map((r: any) => r.vuln_id)).toContain(bug);
  }, 180_000);

  it('a new scan of the same target takes the triage of the same finding (same hash)', async () => {
    const created = await call({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates },
    });
    await runTo(created.id, 0);
    const f = await findings(created.id);
    expect(f['test-powered-by']!.vuln_status).toBe('false_positive');
    // The bug is open (a regression, not a triage) in the earlier scan: new here, open, labels carried.
    expect(f['test-marker']).toMatchObject({ vuln_status: 'open', labels: ['payments', 'q3'] });
    // Filters on status and labels.
    const fp = await call({ method: 'GET', url: `/v1/scans/results?vuln_status=false_positive` });
    expect(fp.data.every((r: { template_id: string }) => r.template_id === 'test-powered-by')).toBe(true);
    expect(fp.data).toHaveLength(2);
    const labelled = await call({ method: 'GET', url: `/v1/scans/results?labels=q3` });
    expect(labelled.data).toHaveLength(2);

    // Deleting by a filter: the new scan's findings go, its counts follow.
    await call({ method: 'DELETE', url: '/v1/scans/vulns', payload: { scan_id: created.id } });
    expect(await findings(created.id)).toEqual({});
    expect((await call({ method: 'GET', url: `/v1/scans/${created.id}` })).total_result).toBe(0);
  }, 60_000);

  it('a retest that still matches keeps the status a person set, and reopens a fixed finding as a regression', async () => {
    vulnerable = true;
    const created = await call({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: [templates[0]] },
    });
    await runTo(created.id, 0);
    const bug = (await findings(created.id))['test-marker']!.vuln_id as string;
    const retestOnce = async (payload: Record<string, unknown> = {}) => {
      await call({ method: 'POST', url: `/v1/scans/${bug}/retest`, payload });
      return waitFor(async () => {
        const body = (await t.request({ method: 'GET', url: `/v1/retest/${bug}` })).json();
        return body.retest_status !== 'running' && body;
      }, 30_000);
    };
    await call({ method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: [bug], vuln_status: 'accepted_risk' } });
    let r = await retestOnce();
    expect(r).toMatchObject({
      retest_status: 'matched',
      results: { vuln_status: 'accepted_risk', is_regression: false },
    });
    await call({ method: 'PATCH', url: '/v1/scans/vulns', payload: { vuln_ids: [bug], vuln_status: 'fixed' } });
    r = await retestOnce();
    expect(r).toMatchObject({ retest_status: 'matched', results: { vuln_status: 'open', is_regression: true } });
    // The retest ran as a scan of that one template against that one target.
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${r.retest_scan_id}` })).json();
    expect(scan).toMatchObject({ status: 'finished', total_target: 1, total_template: 1, total_result: 1 });
    const { rows } = await t.ctx.db.query<{ request: Record<string, unknown> }>(
      'SELECT request FROM scans WHERE id = $1',
      [r.retest_scan_id],
    );
    expect(rows[0]!.request).toMatchObject({ targets: [target.url], templates: ['test-marker'] });
    const changes = await call({ method: 'GET', url: `/v1/scans/vuln/${bug}/changelogs?event_type=retest` });
    expect(changes.data.map((c: any) => c.change_event.map((e: any) => `${e.name}:${e.to}`))).toEqual([
      ['retest:matched', 'vuln_status:open', 'is_regression:true'],
      ['retest:matched'],
    ]);
    // A retest keeps the agent fields it is given: addressed to agents tagged "lab", of which there are none,
    // its scan fails saying so, and the finding keeps its status.
    const routed = await retestOnce({ agent_tags: ['lab'] });
    expect(routed).toMatchObject({ retest_status: 'failed', results: { vuln_status: 'open' } });
    const agentScan = (await t.request({ method: 'GET', url: `/v1/scans/${routed.retest_scan_id}` })).json();
    expect(agentScan.failure_reason).toMatch(/agent/);
    const stored = await t.ctx.db.query<{ request: Record<string, unknown> }>(
      'SELECT request FROM scans WHERE id = $1',
      [routed.retest_scan_id],
    );
    expect(stored.rows[0]!.request).toMatchObject({ agent_tags: ['lab'] });
  }, 90_000);
});
