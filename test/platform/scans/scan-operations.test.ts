// Scan operations and the team's scan settings on real scans against a local HTTP server: exclusions cut
// targets and templates when a scan plans its run, severity overrides change stored and new findings and
// come back off, the run history lists each run, and rename / config change / bulk delete / scan_ips /
// verify answer with the hosted platform's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { createScanApp, HEADER_TEMPLATE, MARKER_TEMPLATE, type ScanTestApp } from './fixtures.ts';

// The operations of this change are held to the hosted platform's schemas (others have their own tests).
const OWN = [
  /^PATCH \/v1\/scans\/[^/]+$/,
  /^DELETE \/v1\/scans$/,
  /^PATCH \/v1\/scans\/[^/]+\/config/,
  /^GET \/v1\/scans\/scan_ips/,
  /^GET \/v1\/scans\/(history|[^/]+\/history)/,
  /^\w+ \/v1\/scans\/config\/(exclude|severity|verify|\d+\/severity)/,
];
const check = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi() && OWN.some((re) => re.test(`${method} ${url}`))) assertPdcpAnswer(method, url, status, body);
};

describe.each(dbKinds())('scan operations and settings on %s', (kind) => {
  let t: ScanTestApp;
  let target: TestServer;
  let scanId: string;

  beforeAll(async () => {
    t = await createScanApp(kind);
    target = await startHttpServer(async (req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
  });

  const req = async (method: string, url: string, payload?: object, key?: string) => {
    const res = await t.request({ method: method as 'GET', url, payload, key });
    if (res.headers['content-type']?.toString().includes('json')) check(method, url, res.statusCode, res.json());
    return res;
  };
  const port = () => new URL(target.url).port;

  it('team exclusions cut targets and templates from a new scan; its finding gets the override', async () => {
    let res = await req('POST', '/v1/scans/config/exclude', { values: ['localhost'], exclude_type: 'scan_target' });
    expect(res.statusCode, res.body).toBe(200);
    res = await req('POST', '/v1/scans/config/exclude', { values: ['test-powered-by'], exclude_type: 'template' });
    expect(res.statusCode).toBe(200);
    const list = (await req('GET', '/v1/scans/config/exclude')).json();
    expect(list.data.map((r: any) => [r.exclude_type, r.value])).toEqual([
      ['scan_target', 'localhost'],
      ['template', 'test-powered-by'],
    ]);

    res = await req('POST', '/v1/scans', {
      targets: [`http://127.0.0.1:${port()}`, `http://localhost:${port()}`],
      private_templates: [
        { name: 'm.yaml', contents: MARKER_TEMPLATE },
        { name: 'h.yaml', contents: HEADER_TEMPLATE },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    scanId = res.json().id;
    const config = (await req('GET', `/v1/scans/${scanId}/config`)).json();
    expect(config.targets).toEqual([`http://127.0.0.1:${port()}`]);
    expect(config.template_ids).toEqual(['test-marker']);
    await t.waitStatus(scanId, ['finished']);
    const results = (await req('GET', `/v1/scans/results?scan_id=${scanId}`)).json();
    expect(results.data.map((r: any) => [r.template_id, r.severity])).toEqual([['test-marker', 'high']]);

    // Everything excluded: a 400 naming the reason.
    res = await req('POST', '/v1/scans', {
      targets: [`http://localhost:${port()}`],
      private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/team's exclusions/);
  });

  it('severity overrides apply to stored findings, to new ones, and come off when deleted', async () => {
    let res = await req('POST', '/v1/scans/config/severity', { template_id: 'test-marker', custom_severity: 'low' });
    expect(res.statusCode, res.body).toBe(200);
    const mappingId = res.json().id;
    const sev = async () => (await req('GET', `/v1/scans/results?scan_id=${scanId}`)).json().data[0].severity;
    expect(await sev()).toBe('low');
    expect((await req('GET', `/v1/scans/${scanId}`)).json().severity).toMatchObject({ high: 0, low: 1 });
    const listed = (await req('GET', '/v1/scans/config/severity')).json().custom_severity_mappings;
    expect(listed).toMatchObject([
      { id: mappingId, template_id: 'test-marker', original_severity: 'high', custom_severity: 'low' },
    ]);

    // A new scan's finding of the template is written with the override.
    res = await req('POST', '/v1/scans', {
      targets: [`http://127.0.0.1:${port()}/other`],
      private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
    });
    const second = res.json().id;
    await t.waitStatus(second, ['finished']);
    const fresh = (await req('GET', `/v1/scans/results?scan_id=${second}`)).json().data;
    expect(fresh.map((r: any) => r.severity)).toEqual(['low']);

    res = await req('PATCH', `/v1/scans/config/${mappingId}/severity`, {
      template_id: 'test-marker',
      custom_severity: 'critical',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sev()).toBe('critical');

    res = await req('DELETE', '/v1/scans/config/severity', { ids: [mappingId] });
    expect(res.statusCode).toBe(200);
    expect(await sev()).toBe('high');
    expect((await req('GET', `/v1/scans/results?scan_id=${second}`)).json().data[0].severity).toBe('high');

    for (const [body, param] of [
      [{ template_id: 'test-marker', custom_severity: 'urgent' }, 'custom_severity'],
      [{ template_id: 'no-such-template', custom_severity: 'low' }, 'template_id'],
      [{ template_id: 'test-marker', custom_severity: 'low', vuln_id: '999999' }, 'vuln_id'],
    ] as const) {
      const bad = await req('POST', '/v1/scans/config/severity', body);
      expect(bad.statusCode).toBeGreaterThanOrEqual(400);
      expect(bad.json().param).toBe(param);
    }
    expect((await req('DELETE', '/v1/scans/config/severity', { ids: [mappingId] })).statusCode).toBe(404);
  });

  it('the run history lists each run of a scan, newest first', async () => {
    const res = await req('POST', `/v1/scans/${scanId}/rescan`);
    expect(res.statusCode, res.body).toBe(200);
    await t.waitStatus(scanId, ['finished']);
    const one = await req('GET', `/v1/scans/${scanId}/history`);
    expect(one.statusCode, one.body).toBe(200);
    const h = one.json();
    expect(h.data.map((r: any) => r.rescan_count)).toEqual([1, 0]);
    for (const run of h.data) {
      expect(run).toMatchObject({ scan_id: scanId, status: 'finished', total_target: 1, total_templates: 1 });
      expect(run.total_result).toBe(1);
      expect(run.severity.high).toBe(1);
      expect(run.completed_request).toBeGreaterThanOrEqual(1);
    }
    expect(h.total_scan_run).toBe(2);
    const all = (await req('GET', '/v1/scans/history?time_range=current_month&limit=100')).json();
    expect(all.total_unique_scan_run).toBe(2);
    expect(all.total_scan_run).toBe(3);
    const past = (await req('GET', '/v1/scans/history?end_date=2001-01-01')).json();
    expect(past.data).toEqual([]);
    expect((await req('GET', '/v1/scans/history?start_date=yesterday')).statusCode).toBe(400);
    expect((await req('GET', '/v1/scans/nosuch/history')).statusCode).toBe(404);
  });

  it('renames a scan and changes its settings for the next run (append, replace, refused changes)', async () => {
    let res = await req('PATCH', `/v1/scans/${scanId}`, { name: 'renamed scan' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await req('GET', `/v1/scans/${scanId}`)).json().name).toBe('renamed scan');

    res = await req('PATCH', `/v1/scans/${scanId}/config`, { targets: [`http://127.0.0.1:${port()}/more`] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    await req('POST', `/v1/scans/${scanId}/rescan`);
    await t.waitStatus(scanId, ['finished']);
    expect((await req('GET', `/v1/scans/${scanId}/config`)).json().targets).toEqual([
      `http://127.0.0.1:${port()}`,
      `http://127.0.0.1:${port()}/more`,
    ]);

    res = await req('PATCH', `/v1/scans/${scanId}/config?update_type=replace`, {
      targets: [`http://127.0.0.1:${port()}/only`],
    });
    expect(res.statusCode).toBe(200);
    // Replaced by excluded targets only, or a bad proxy: refused, nothing stored.
    res = await req('PATCH', `/v1/scans/${scanId}/config?update_type=replace`, { targets: ['http://localhost/'] });
    expect(res.statusCode).toBe(400);
    res = await req('PATCH', `/v1/scans/${scanId}/config`, { socks5_proxy: 'not a proxy' });
    expect(res.json().param).toBe('socks5_proxy');
    res = await req('PATCH', `/v1/scans/${scanId}/config`, { scan_config_ids: ['nope'] });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    await req('POST', `/v1/scans/${scanId}/rescan`);
    await t.waitStatus(scanId, ['finished']);
    expect((await req('GET', `/v1/scans/${scanId}/config`)).json().targets).toEqual([
      `http://127.0.0.1:${port()}/only`,
    ]);
  });

  it('scan_ips, config verify, and exclusion deletes', async () => {
    const before = process.env.VIGIL_SCAN_IPS;
    process.env.VIGIL_SCAN_IPS = '203.0.113.7, 2001:db8::7';
    try {
      const res = await req('GET', '/v1/scans/scan_ips');
      expect(res.json()).toEqual({ ips: [{ ip: '203.0.113.7' }, { ip: '2001:db8::7' }] });
    } finally {
      if (before === undefined) delete process.env.VIGIL_SCAN_IPS;
      else process.env.VIGIL_SCAN_IPS = before;
    }
    let res = await req('POST', '/v1/scans/config/verify', { config: 'rate-limit: 10\nseverity: [high]\n' });
    expect(res.json()).toEqual({ is_verified: true, response: 'valid scan config' });
    res = await req('POST', '/v1/scans/config/verify', { config: 'rate-limit: many\n' });
    expect(res.json().is_verified).toBe(false);
    expect(res.json().response).toMatch(/rate-limit/);
    res = await req('POST', '/v1/scans/config/verify', { config: 'x: 1', config_type: 'nonsense' });
    expect(res.statusCode).toBe(400);

    const ids = (await req('GET', '/v1/scans/config/exclude')).json().data.map((r: any) => r.id);
    expect((await req('DELETE', '/v1/scans/config/exclude', { ids: [...ids, 999999] })).statusCode).toBe(404);
    expect((await req('GET', '/v1/scans/config/exclude')).json().data).toHaveLength(2);
    res = await req('DELETE', '/v1/scans/config/exclude', { ids });
    expect(res.statusCode).toBe(200);
    expect((await req('GET', '/v1/scans/config/exclude')).json().data).toEqual([]);
  });

  it('bulk delete: all of the ids, or none when one is not the team’s', async () => {
    const list = (await req('GET', '/v1/scans')).json().data.map((s: any) => s.scan_id);
    expect(list.length).toBeGreaterThanOrEqual(2);
    let res = await req('DELETE', '/v1/scans', { scan_ids: [...list, 'not-a-scan'] });
    expect(res.statusCode).toBe(404);
    expect(res.json().param).toBe('scan_ids');
    expect((await req('GET', '/v1/scans')).json().data).toHaveLength(list.length);
    res = await req('DELETE', '/v1/scans', { scan_ids: list });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
    expect((await req('GET', '/v1/scans')).json().data).toEqual([]);
  });
});
