// Scans end to end through the API: real target servers on 127.0.0.1, a real queue and the in-process
// worker running the real engine.
import net from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useSecretFiles, setWorkerSecrets } from '../../../src/platform/scans/worker-secrets.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';
import { parseRole } from '../../../src/platform/auth/permissions.ts';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/queue.ts';
import { createScanApp, HEADER_TEMPLATE, MARKER_TEMPLATE, type ScanTestApp } from './fixtures.ts';
import { SCAN_CHUNK_JOB } from '../../../src/platform/scans/dispatch.ts';

/** A port with nothing listening: attempts on it end with a connection error. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A user who owns a second team of their own, with a key. */
async function otherTeamUser(t: ScanTestApp, email: string): Promise<{ key: string; teamId: string }> {
  const teamId = 'team-b-' + Math.random().toString(36).slice(2, 8);
  await authStore.insertTeam(t.ctx.db, teamId, 'Team B');
  const user = await authStore.insertUser(t.ctx.db, email, teamId);
  await authStore.insertMember(t.ctx.db, teamId, user.id, parseRole('owner')!, true);
  return { key: await issueKey(t.ctx.db, user.id), teamId };
}

describe.each(dbKinds())('scans API on %s', (kind) => {
  let t: ScanTestApp;
  let vulnA: TestServer;
  let vulnB: TestServer;
  let clean: TestServer;
  let deadUrl: string;
  let bFixed = false;

  const marker = (fixed: () => boolean) =>
    startHttpServer((req, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      if (req.url === '/vuln' && !fixed()) res.end('<html>VULNERABLE-MARKER</html>');
      else res.end('<html>hello</html>');
    });

  beforeAll(async () => {
    t = await createScanApp(kind);
    vulnA = await marker(() => false);
    vulnB = await marker(() => bFixed);
    clean = await startHttpServer((_req, res) => res.end('nothing here'));
    deadUrl = `http://127.0.0.1:${await closedPort()}`;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([vulnA, vulnB, clean].map((s) => s?.close()));
  });

  const templates = [
    { name: 'marker.yaml', contents: MARKER_TEMPLATE },
    { name: 'powered-by.yaml', contents: HEADER_TEMPLATE },
  ];
  let scanId = '';

  const download = async (url: string) => {
    const u = new URL(url);
    return t.request({ method: 'GET', url: u.pathname + u.search, key: null });
  };
  const exportLog = async (query: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const file = await download(res.json().url);
    expect(file.statusCode, file.body).toBe(200);
    return file;
  };

  it('creates a scan that runs on the worker to finished, with totals and severity counts', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        name: 'first scan',
        targets: [vulnA.url, vulnB.url, clean.url, deadUrl],
        private_templates: templates,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ message: expect.any(String), id: expect.any(String), 'truncated-scan-targets': 0 });
    scanId = body.id;
    const scan = await t.waitStatus(scanId, ['finished', 'failed']);
    expect(scan).toMatchObject({
      scan_id: scanId,
      name: 'first scan',
      status: 'finished',
      progress: 100,
      failure_reason: '',
      total_target: 4,
      total_template: 2,
      total_scan: 8,
      rescan_count: 0,
      is_rescan: false,
    });
    // marker on A and B (high), powered-by on A, B and clean? clean sends no header: A and B only (info).
    expect(scan.total_result).toBe(4);
    expect(scan.severity).toMatchObject({ high: 2, info: 2, critical: 0 });
    expect(scan.completed_at).not.toBe('');
    expect(scan.scan_time_elapsed).toMatch(/^(\d+h)?(\d+m)?\d+s$/);
  });

  it('lists scans with the envelope, filters and sorting; 400 on an unknown status or sort field', async () => {
    const list = await t.request({ method: 'GET', url: '/v1/scans?status=finished&search=first&limit=10' });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({
      current_page: 1,
      result_count: 1,
      total_results: 1,
      total_pages: 1,
      message: expect.any(String),
    });
    expect(body.data[0]).toMatchObject({ scan_id: scanId, total_result: 4, total_scan: 8, is_internal: true });
    expect((await t.request({ method: 'GET', url: '/v1/scans?is_internal=false' })).json().total_results).toBe(0);
    const doc = (await t.request({ method: 'GET', url: '/openapi.json', key: null })).json();
    for (const p of [
      '/v1/scans',
      '/v1/scans/{scan_id}',
      '/v1/scans/results',
      '/v1/scans/{scan_id}/scan_log/export',
      '/v1/scans/vulns/history',
      '/v1/export/{export_id}',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect((await t.request({ method: 'GET', url: '/v1/scans?status=running' })).json().total_results).toBe(0);
    expect((await t.request({ method: 'GET', url: '/v1/scans?search=nomatch' })).json().data).toEqual([]);
    const bad = await t.request({ method: 'GET', url: '/v1/scans?status=sleeping' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().param).toBe('status');
    const badSort = await t.request({ method: 'GET', url: '/v1/scans?sort_desc=password' });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().param).toBe('sort_desc');
  });

  it('returns findings with template info, request and response, filtered by severity, host, port, tags and template', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${scanId}&severity=high` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total_results).toBe(2);
    const hosts = body.data.map((f: any) => f.event[0]['matched-at']).sort();
    expect(hosts).toEqual([`${vulnA.url}/vuln`, `${vulnB.url}/vuln`].sort());
    const f = body.data[0];
    expect(f).toMatchObject({
      scan_id: scanId,
      template_id: 'test-marker',
      severity: 'high',
      tags: ['test', 'marker'],
      vuln_hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      template_name: 'Marker page',
      matcher_status: true,
    });
    expect(f.event).toHaveLength(1);
    expect(f.event[0].request).toContain('GET /vuln');
    expect(f.event[0].response).toContain('VULNERABLE-MARKER');
    expect(f.event[0].info.name).toBe('Marker page');
    expect(f.event[0]['matcher-name']).toBe('marker');

    const byPort = (await t.request({ method: 'GET', url: `/v1/scans/results?port=${vulnA.port}` })).json();
    expect(byPort.data.map((x: any) => x.port)).toEqual([vulnA.port, vulnA.port]);
    const byTag = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${scanId}&tags=tech` })).json();
    expect(byTag.total_results).toBe(2);
    expect(byTag.data.every((x: any) => x.template_id === 'test-powered-by')).toBe(true);
    expect(byTag.data[0].event[0]['extracted-results']).toEqual(['PHP/7.4.3']);
    const byTemplate = (
      await t.request({ method: 'GET', url: `/v1/scans/results?templates=test-marker&host=${vulnB.url}` })
    ).json();
    expect(byTemplate.total_results).toBe(1);
    const byDomain = (await t.request({ method: 'GET', url: `/v1/scans/results?domain=127.0.0.1&limit=1` })).json();
    expect(byDomain).toMatchObject({ total_results: 4, result_count: 1, total_pages: 4 });
    const sorted = (await t.request({ method: 'GET', url: `/v1/scans/results?sort_desc=severity` })).json();
    expect(sorted.data.map((x: any) => x.severity)).toEqual(['high', 'high', 'info', 'info']);
    expect((await t.request({ method: 'GET', url: `/v1/scans/results?severity=severe` })).statusCode).toBe(400);
  });

  it('exports the scan log as json, csv and raw with the filters applied', async () => {
    const json = JSON.parse((await exportLog('format=json')).body);
    expect(json).toHaveLength(8);
    for (const r of json) {
      expect(Object.keys(r).sort()).toEqual([
        'error',
        'event',
        'matched',
        'severity',
        'target',
        'template_id',
        'timestamp',
        'vuln_hash',
      ]);
    }
    const matched = json.filter((r: any) => r.matched);
    expect(matched).toHaveLength(4);
    expect(
      matched.every(
        (r: any) => /^[0-9a-f]{40}$/.test(r.vuln_hash) && JSON.parse(r.event)['template-id'] === r.template_id,
      ),
    ).toBe(true);
    const errors = json.filter((r: any) => r.error);
    expect(errors.map((r: any) => r.target)).toEqual([deadUrl, deadUrl]);

    const onlyErrors = JSON.parse((await exportLog('format=json&severity=error')).body);
    expect(onlyErrors).toHaveLength(2);
    const info = JSON.parse((await exportLog('format=json&severity=info&matched=false')).body);
    expect(info.map((r: any) => r.target).sort()).toEqual([clean.url, clean.url].sort());
    const byHost = JSON.parse(
      (await exportLog(`format=json&host=${encodeURIComponent(vulnA.url)}&template=marker`)).body,
    );
    expect(byHost).toMatchObject([{ target: vulnA.url, template_id: 'test-marker', matched: true }]);

    const csv = await exportLog('format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('timestamp,target,template_id,matched,severity,error,vuln_hash,event');
    expect(lines).toHaveLength(9);

    const raw = await exportLog('format=raw&search=test-marker');
    const rawLines = raw.body.trim().split('\n');
    expect(rawLines).toHaveLength(4);
    expect(rawLines.filter((l) => l.includes(' matched vuln_hash='))).toHaveLength(2);
    expect(raw.headers['content-disposition']).toContain(`scan-log-${scanId}.log`);
  });

  it('refuses unknown and expired download links', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/v1/export/download/' + 'x'.repeat(43), key: null })).statusCode,
    ).toBe(404);
    const res = await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=json` });
    const token = new URL(res.json().url).pathname.split('/').pop()!;
    await t.ctx.db.query(`UPDATE scan_exports SET expires_at = now() - interval '1 second' WHERE scan_id = $1`, [
      scanId,
    ]);
    const gone = await t.request({ method: 'GET', url: `/v1/export/download/${token}`, key: null });
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toContain('expired');
  });

  it('builds an async export in a job and serves it once ready', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/${scanId}/scan_log/export?format=csv&async=true` });
    expect(res.statusCode, res.body).toBe(201);
    const exportId = res.json().export_id;
    const ready = await waitFor(async () => {
      const s = (await t.request({ method: 'GET', url: `/v1/export/${exportId}` })).json();
      return s.status === 'ready' && s;
    });
    expect(ready).toMatchObject({
      export_id: exportId,
      scan_id: scanId,
      format: 'csv',
      row_count: 8,
      url: expect.stringContaining('/v1/export/download/'),
    });
    // Polling again answers the same link: a link someone already holds keeps working.
    const again = (await t.request({ method: 'GET', url: `/v1/export/${exportId}` })).json();
    expect(again.url).toBe(ready.url);
    expect(again.expires_at).toBe(ready.expires_at);
    const file = await download(ready.url);
    expect(file.statusCode).toBe(200);
    const sync = await exportLog('format=csv');
    expect(file.body).toBe(sync.body);
    expect((await t.request({ method: 'GET', url: '/v1/export/nope' })).statusCode).toBe(404);
  });

  it('rescans: rescan_count + 1, logs kept per run, and finding history across runs newest first', async () => {
    const before = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${scanId}&severity=high` })).json()
      .data;
    const hashOf = (url: string) => before.find((f: any) => f.event[0]['matched-at'] === `${url}/vuln`).vuln_hash;
    const hashA = hashOf(vulnA.url);
    const hashB = hashOf(vulnB.url);
    bFixed = true;
    const res = await t.request({ method: 'POST', url: `/v1/scans/${scanId}/rescan` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: scanId, 'truncated-scan-targets': 0 });
    const scan = await t.waitStatus(scanId, ['finished', 'failed']);
    expect(scan).toMatchObject({ status: 'finished', rescan_count: 1, is_rescan: true, progress: 100 });
    // Findings are stored once: the rescan found A's again (same row) and none new.
    expect(scan.total_result).toBe(4);

    const hist = await t.request({
      method: 'GET',
      url: `/v1/scans/vulns/history?vuln_hash=${hashA}&vuln_hash=${hashB}`,
    });
    expect(hist.statusCode, hist.body).toBe(200);
    const h = hist.json();
    expect(h[hashA].history_count).toBe(2);
    expect(h[hashA].history.map((e: any) => e.matched)).toEqual([true, true]);
    expect(h[hashB].history_count).toBe(2);
    expect(h[hashB].history.map((e: any) => e.matched)).toEqual([false, true]);
    expect(h[hashB].history[0]).toMatchObject({ target: vulnB.url, template_id: 'test-marker', severity: 'high' });
    expect(Date.parse(h[hashB].history[0].timestamp)).toBeGreaterThanOrEqual(Date.parse(h[hashB].history[1].timestamp));
    const limited = (
      await t.request({ method: 'GET', url: `/v1/scans/vulns/history?vuln_hash=${hashA}&history_limit=1` })
    ).json();
    expect(limited[hashA]).toMatchObject({ history_count: 2, history: [expect.objectContaining({ matched: true })] });
    expect((await t.request({ method: 'GET', url: '/v1/scans/vulns/history' })).statusCode).toBe(400);

    const run0 = JSON.parse((await exportLog('format=json&rescan_count=0')).body);
    const run1 = JSON.parse((await exportLog('format=json&rescan_count=1')).body);
    expect(run0).toHaveLength(8);
    expect(run1).toHaveLength(8);
    expect(run1.filter((r: any) => r.matched && r.template_id === 'test-marker').map((r: any) => r.target)).toEqual([
      vulnA.url,
    ]);
  });

  it('shows the scan configuration record', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/${scanId}/config` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      targets: [vulnA.url, vulnB.url, clean.url, deadUrl],
      template_ids: ['test-marker', 'test-powered-by'],
      template_urls: ['marker.yaml', 'powered-by.yaml'],
      scan_config_ids: [],
      agent_behavior: 'distribute',
      scan_all_assets: false,
    });
  });

  it('stops a running scan: it ends failed with reason "stopped" and runs no more chunks', async () => {
    let hits = 0;
    let answered = 0;
    const slow = await startHttpServer(async (_req, res) => {
      hits++;
      await new Promise((r) => setTimeout(r, 1000));
      res.end('slow');
      answered++;
    });
    try {
      const targets = Array.from({ length: 40 }, (_, i) => `${slow.url}/p${i}`);
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { targets, private_templates: templates.slice(0, 1) },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().id;
      await t.waitStatus(id, ['running']);
      const stop = await t.request({ method: 'POST', url: `/v1/scans/${id}/stop` });
      expect(stop.statusCode, stop.body).toBe(200);
      const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      expect(scan).toMatchObject({ status: 'failed', failure_reason: 'stopped' });
      expect(scan.progress).toBeLessThan(100);
      // Running chunks notice the stop and end; requests already sent finish. Then no chunk job is left
      // queued or running, so nothing can send another request.
      await waitFor(
        async () =>
          t.worker.running === 0 &&
          answered === hits &&
          (await t.boss.getQueueSize(SCAN_CHUNK_JOB, { before: 'completed' })) === 0,
        20_000,
        50,
      );
      const settled = hits;
      expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json().status).toBe('failed');
      expect(t.worker.running).toBe(0);
      expect(hits).toBe(settled);
      expect(hits).toBeLessThan(40);
      expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json().status).toBe('failed');
      // Stopping a stopped scan is refused.
      expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/stop` })).statusCode).toBe(400);
    } finally {
      await slow.close();
    }
  });

  it('starts a scheduled scan with rescan, once even when asked twice at the same moment', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [clean.url], private_templates: templates, schedule_only: true },
    });
    const id = res.json().id;
    const both = await Promise.all([1, 2].map(() => t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const scan = await t.waitStatus(id, ['finished', 'failed']);
    // The first run of a scheduled scan is run 0.
    expect(scan).toMatchObject({ status: 'finished', rescan_count: 0, total_scan: 2 });
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(409);
    expect(await t.waitStatus(id, ['finished'])).toMatchObject({ rescan_count: 1 });
  });

  it('deletes a scan with its results', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [vulnA.url], private_templates: templates },
    });
    const id = res.json().id;
    await t.waitStatus(id, ['finished']);
    const before = (await t.request({ method: 'GET', url: '/v1/scans?status=finished' })).json().total_results;
    const del = await t.request({ method: 'DELETE', url: `/v1/scans/${id}` });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ ok: true });
    expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json().total_results).toBe(0);
    expect((await t.request({ method: 'DELETE', url: `/v1/scans/${id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/v1/scans?status=finished' })).json().total_results).toBe(
      before - 1,
    );
    // The kept counts agree with counting the rows, for every status filter.
    for (const q of [
      '',
      '?status=finished',
      '?status=failed,queued',
      '?is_internal=false',
      '?status=running&is_internal=true',
    ]) {
      const body = (await t.request({ method: 'GET', url: `/v1/scans${q}` })).json();
      const p = new URLSearchParams(q.slice(1));
      const { rows } = await t.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM scans WHERE team_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[])) AND ($3::boolean IS NULL OR is_internal = $3)`,
        [
          t.owner.teamId,
          p.get('status')?.split(',') ?? null,
          p.has('is_internal') ? p.get('is_internal') === 'true' : null,
        ],
      );
      expect(body.total_results, q).toBe(rows[0]!.n);
    }
  });

  it('lets members view but only admins and the owner create, stop, rescan or delete', async () => {
    const member = await t.addUser(`member-${kind}@x.test`, 'member');
    const admin = await t.addUser(`admin-${kind}@x.test`, 'admin');
    const viewer = await t.addUser(`viewer-${kind}@x.test`, 'viewer');
    for (const key of [member.key, viewer.key]) {
      expect((await t.request({ method: 'GET', url: '/v1/scans', key })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: `/v1/scans/${scanId}`, key })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/v1/scans/results', key })).statusCode).toBe(200);
      const denied = [
        { method: 'POST' as const, url: '/v1/scans', payload: { targets: [vulnA.url], private_templates: templates } },
        { method: 'POST' as const, url: `/v1/scans/${scanId}/stop` },
        { method: 'POST' as const, url: `/v1/scans/${scanId}/rescan` },
        { method: 'DELETE' as const, url: `/v1/scans/${scanId}` },
        {
          method: 'POST' as const,
          url: '/v1/scans/import',
          payload: '{}',
          headers: { 'content-type': 'application/octet-stream' },
        },
      ];
      for (const d of denied) {
        const res = await t.request({ ...d, key });
        expect(res.statusCode, `${d.method} ${d.url}`).toBe(403);
      }
    }
    const created = await t.request({
      method: 'POST',
      url: '/v1/scans',
      key: admin.key,
      payload: { targets: [clean.url], private_templates: templates, schedule_only: true },
    });
    expect(created.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/scans', key: null })).statusCode).toBe(401);
  });

  it('rejects bad create requests with the field named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ private_templates: templates }, 'targets'],
      [{ targets: [vulnA.url] }, 'templates'],
      [{ targets: [vulnA.url, 'not a target'], private_templates: templates }, 'targets[1]'],
      [
        { targets: [vulnA.url], private_templates: [{ name: 'bad.yaml', contents: 'id: bad\ninfo: {}\nhttp: 3' }] },
        'private_templates[0].contents',
      ],
      [{ targets: [vulnA.url], private_templates: templates, assets: ['asset-1'] }, 'assets[0]'],
      [
        { targets: [vulnA.url], private_templates: templates, enumeration_ids: [{ id: 'enum-9' }] },
        'enumeration_ids[0].id',
      ],
      [{ targets: [vulnA.url], private_templates: templates, exclusions: ['127.0.0.1'] }, 'targets'],
      [{ targets: [vulnA.url], private_templates: templates, socks5_proxy: 'http://x' }, 'socks5_proxy'],
      [{ targets: [vulnA.url], private_templates: templates, bogus: 1 }, 'bogus'],
      [{ targets: [vulnA.url], templates: ['no/such/template.yaml'] }, 'templates'],
    ];
    for (const [payload, param] of cases) {
      const res = await t.request({ method: 'POST', url: '/v1/scans', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ param, status: 400, message: expect.any(String) });
    }
  });

  it('cuts targets beyond the maximum and reports how many; schedule_only stores without running', async () => {
    const max = t.ctx.config.maxScanTargets;
    t.ctx.config.maxScanTargets = 3;
    try {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets: ['10.9.0.0/29'],
          exclusions: ['10.9.0.1'],
          private_templates: templates,
          schedule_only: true,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()['truncated-scan-targets']).toBe(4); // 8 addresses, 1 excluded, 3 kept
      const id = res.json().id;
      const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      expect(scan).toMatchObject({ status: 'scheduled', total_target: 3, total_scan: 6, progress: 0 });
      const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${id}/config` })).json();
      expect(cfg.targets).toEqual(['10.9.0.0', '10.9.0.2', '10.9.0.3']);
      // Stored to run later: no chunk written and no job queued, so no worker can start it.
      const chunks = await t.ctx.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM scan_chunks WHERE scan_id = $1',
        [id],
      );
      expect(chunks.rows[0]!.n).toBe(0);
      expect(await t.boss.getQueueSize(SCAN_CHUNK_JOB, { before: 'completed' })).toBe(0);
      expect((await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json().status).toBe('scheduled');
    } finally {
      t.ctx.config.maxScanTargets = max;
    }
  });

  it('imports a nuclei JSON-lines file as an uploaded scan', async () => {
    const ev = (host: string, sev: string) =>
      JSON.stringify({
        'template-id': 'imported-check',
        info: { name: 'Imported', severity: sev, tags: ['cve'] },
        type: 'http',
        host,
        'matched-at': `${host}/x`,
        timestamp: '2024-01-02T03:04:05Z',
        'matcher-status': true,
      });
    const file = [
      ev('https://a.example.com', 'critical'),
      ev('https://b.example.com', 'low'),
      ev('https://a.example.com', 'critical'),
      '',
    ].join('\n');
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=nightly',
      payload: file,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(scan).toMatchObject({
      name: 'nightly',
      status: 'uploaded',
      total_result: 2,
      is_oss: true,
      severity: { critical: 1, low: 1 },
    });
    const results = (
      await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}&domain=example.com` })
    ).json();
    expect(results.total_results).toBe(2);
    const bad = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      payload: '{"template-id":"x"}\nnot json',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('line 2');
    expect((await t.request({ method: 'POST', url: `/v1/scans/${id}/rescan` })).statusCode).toBe(400);
  });

  it("applies the worker's local secret file to its scans and never stores the secret", async () => {
    const token = 'tok-' + 'S3cr3tValue'.repeat(2);
    const guarded = await startHttpServer((req, res) => {
      if (req.headers.authorization === `Bearer ${token}` && req.url === '/vuln') res.end('VULNERABLE-MARKER');
      else res.end('login required');
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-secrets-'));
    try {
      const file = path.join(dir, 'secrets.yaml');
      writeFileSync(
        file,
        `static:\n  - type: bearertoken\n    domains: ["127.0.0.1:${guarded.port}"]\n    token: ${token}\n`,
      );
      await expect(useSecretFiles([file], [])).rejects.toThrow(/--secret-team/);
      await useSecretFiles([file], [t.owner.teamId]);
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { targets: [guarded.url], private_templates: templates.slice(0, 1) },
      });
      const id = res.json().id;
      const scan = await t.waitStatus(id, ['finished', 'failed']);
      expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
      const results = await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` });
      expect(results.body).not.toContain(token);
      expect(results.json().data[0].event[0].request).toContain('[REDACTED]');
      const stored = await t.ctx.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM scan_results WHERE event::text LIKE '%' || $1 || '%')
              + (SELECT count(*) FROM scan_log_records WHERE event LIKE '%' || $1 || '%')
              + (SELECT count(*) FROM scans WHERE request::text LIKE '%' || $1 || '%') AS n`,
        [token],
      );
      expect(Number(stored.rows[0]!.n)).toBe(0);

      // Another team's chunk on the same worker never gets the secret: its scan finds nothing.
      const other = await otherTeamUser(t, 'stranger@example.com');
      const authBefore = guarded.requests.filter((r) => r.headers.authorization).length;
      const res2 = await t.request({
        method: 'POST',
        url: '/v1/scans',
        key: other.key,
        payload: { targets: [guarded.url], private_templates: templates.slice(0, 1) },
      });
      expect(res2.statusCode, res2.body).toBe(200);
      const scan2 = await waitFor(
        async () => {
          const body = (await t.request({ method: 'GET', url: `/v1/scans/${res2.json().id}`, key: other.key })).json();
          return ['finished', 'failed'].includes(body.status) && body;
        },
        20_000,
        150,
      );
      expect(scan2.status).toBe('finished');
      expect(scan2.total_result ?? 0).toBe(0);
      expect(guarded.requests.filter((r) => r.headers.authorization).length).toBe(authBefore);

      // A scan with its own proxy runs without the worker's secrets, and its log says so.
      const res3 = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets: [guarded.url],
          private_templates: templates.slice(0, 1),
          socks5_proxy: `socks5://127.0.0.1:${await closedPort()}`,
        },
      });
      expect(res3.statusCode, res3.body).toBe(200);
      const before = guarded.requests.filter((r) => r.headers.authorization).length;
      await t.waitStatus(res3.json().id, ['finished', 'failed']);
      expect(guarded.requests.filter((r) => r.headers.authorization).length).toBe(before);
      const link = await t.request({ method: 'GET', url: `/v1/scans/${res3.json().id}/scan_log/export?format=json` });
      expect((await download(link.json().url)).body).toContain('worker secrets not applied');
    } finally {
      setWorkerSecrets(undefined);
      rmSync(dir, { recursive: true, force: true });
      await guarded.close();
    }
  });
});
