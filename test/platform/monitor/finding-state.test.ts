// vuln_score rules change finding severities; remediation retests rescan scans with open findings on their
// interval (claimed once), and finished runs mark findings fixed and regressions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/queue.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from '../scans/fixtures.ts';
import { processEvents } from '../../../src/platform/monitor/events.ts';
import { ruleMatches } from '../../../src/platform/monitor/finding-state.ts';
import { intervalSeconds, runDueRetests } from '../../../src/platform/monitor/remediation.ts';

describe('rule and interval parsing', () => {
  it('matches rules on every field they give', () => {
    const f = {
      template_id: 'CVE-1',
      template_path: 'http/cves/CVE-1.yaml',
      tags: ['cve', 'RCE'],
      host: 'https://app.example.com:8443',
    };
    expect(ruleMatches({ template: 'CVE-1', severity: 'low' }, f)).toBe(true);
    expect(ruleMatches({ template: 'http/cves/CVE-1.yaml', severity: 'low' }, f)).toBe(true);
    expect(ruleMatches({ tag: 'rce', severity: 'low' }, f)).toBe(true);
    expect(ruleMatches({ host: 'app.example.com', severity: 'low' }, f)).toBe(true);
    expect(ruleMatches({ host: 'other.example.com', severity: 'low' }, f)).toBe(false);
    expect(ruleMatches({ template: 'CVE-1', tag: 'xss', severity: 'low' }, f)).toBe(false);
  });
  it('parses retest intervals', () => {
    expect(intervalSeconds('12h')).toBe(43_200);
    expect(intervalSeconds('7d')).toBe(604_800);
    expect(intervalSeconds('0h')).toBeUndefined();
    expect(intervalSeconds('soon')).toBeUndefined();
  });
});

describe.each(dbKinds())('finding severities and states on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  let vulnerable = true;
  const templates = [
    { name: 'm.yaml', contents: MARKER_TEMPLATE },
    { name: 'h.yaml', contents: HEADER_TEMPLATE },
  ];

  beforeAll(async () => {
    t = await createScanApp(kind);
    target = await startHttpServer((req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(req.url === '/vuln' && vulnerable ? 'VULNERABLE-MARKER' : 'hello');
    });
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
  });

  const config = async (name: string, type: string, yaml: string, extra: Record<string, unknown> = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: { name, config_type: type, config: yaml, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const results = async (id: string) => {
    const data = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json().data as Record<
      string,
      any
    >[];
    return Object.fromEntries(data.map((r) => [r.template_id, r])) as Record<string, Record<string, any>>;
  };
  const runTo = async (id: string, run: number) => {
    await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      return s.rescan_count === run && s.status === 'finished' && s;
    }, 30_000);
    while (await processEvents(t.ctx)) {
      /* drain */
    }
  };

  it("vuln_score rules change severities (last match wins); a scan without globals keeps the engine's", async () => {
    const score = await config(
      'score',
      'vuln_score',
      `rules:
  - tag: tech
    severity: medium
  - template: test-marker
    severity: low
  - template: test-marker
    host: 127.0.0.1
    severity: critical
`,
    );
    const global = await config('global score', 'vuln_score', 'rules:\n  - tag: tech\n    severity: high\n', {
      global: true,
    });
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [target.url],
        private_templates: templates,
        scan_config_ids: [score],
        disable_global_scan_config: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;
    await runTo(id, 0);
    const r = await results(id);
    expect(r['test-marker']!.severity).toBe('critical');
    expect(r['test-powered-by']!.severity).toBe('medium');
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(scan.severity).toMatchObject({ critical: 1, medium: 1, high: 0, info: 0 });

    // With globals: the global rule comes first, the scan's own rules after it win.
    const res2 = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates },
    });
    const id2 = res2.json().id as string;
    await runTo(id2, 0);
    const r2 = await results(id2);
    expect(r2['test-powered-by']!.severity).toBe('high');
    expect(r2['test-marker']!.severity).toBe('high'); // no rule: the engine's
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${id2}/config` })).json();
    expect(cfg.scan_config_ids.map((c: { id: string }) => c.id)).toContain(global);
    await t.request({ method: 'PATCH', url: `/v1/scans/config/${global}`, payload: { global: false } });
  }, 60_000);

  it('retests on the interval once, marking fixed findings and regressions', async () => {
    vulnerable = true;
    const remed = await config('retest', 'remediation', 'retest-interval: 1h\nmin-severity: high\n');
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: templates, scan_config_ids: [remed] },
    });
    const id = res.json().id as string;
    await runTo(id, 0);
    expect(Object.values(await results(id)).map((r) => r.vuln_status)).toEqual(['open', 'open']);

    // Not due yet.
    expect(await runDueRetests(t.ctx)).not.toContain(id);
    // An hour later, fixed in the meantime: one retest, however many loops ask at once.
    await t.ctx.db.query(`UPDATE scans SET completed_at = now() - interval '61 minutes' WHERE id = $1`, [id]);
    vulnerable = false;
    const [a, b] = await Promise.all([runDueRetests(t.ctx), runDueRetests(t.ctx)]);
    expect([...a, ...b].filter((x) => x === id)).toHaveLength(1);
    await runTo(id, 1);
    let r = await results(id);
    expect(r['test-marker']!.vuln_status).toBe('fixed');
    expect(r['test-powered-by']!.vuln_status).toBe('open');
    // Only an info finding is open now: below the config's floor, no retest.
    await t.ctx.db.query(`UPDATE scans SET completed_at = now() - interval '3 hours' WHERE id = $1`, [id]);
    await t.ctx.db.query(`UPDATE remediation_runs SET last_retest_at = now() - interval '3 hours' WHERE scan_id = $1`, [
      id,
    ]);
    expect(await runDueRetests(t.ctx)).not.toContain(id);

    // It comes back: a manual rescan sees it again, a regression.
    vulnerable = true;
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(200);
    await runTo(id, 2);
    r = await results(id);
    // Open again, flagged as a regression (the hosted platform's statuses have no 'regression').
    expect(r['test-marker']).toMatchObject({ vuln_status: 'open', is_regression: true });
    expect(r['test-powered-by']!.vuln_status).toBe('open');
    // A regression is open: due again after the interval.
    await t.ctx.db.query(`UPDATE scans SET completed_at = now() - interval '2 hours' WHERE id = $1`, [id]);
    expect(await runDueRetests(t.ctx)).toEqual([id]);
    await runTo(id, 3);
  }, 90_000);
});
