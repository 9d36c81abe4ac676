// Attacks on the findings exports, scan operations, scan settings and vulnerability timeline (issue 26):
// team B naming team A's scans, findings, exclusions and severity mappings gets 404s and changes nothing;
// bad and hostile input is a 4xx naming the field (SQL in filters is only ever data); a spreadsheet opening
// a CSV export runs no formula; raw requests and responses (which can carry credentials) are in no export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import * as authStore from '../../src/platform/auth/store.ts';
import { issueKey } from '../../src/platform/auth/service.ts';

const SECRET = 'sekret-bearer-7f3a9c';

const finding = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    'template-id': `a-check-${i}`,
    info: { name: `A finding ${i}`, severity: 'high', tags: ['a'] },
    type: 'http',
    host: `https://a${i}.example.com`,
    'matched-at': `https://a${i}.example.com/x`,
    'matcher-status': true,
    request: `GET /x HTTP/1.1\r\nAuthorization: Bearer ${SECRET}\r\n\r\n`,
    response: `HTTP/1.1 200 OK\r\nSet-Cookie: sid=${SECRET}\r\n\r\n`,
    'curl-command': `curl -H 'Authorization: Bearer ${SECRET}' https://a${i}.example.com/x`,
    ...extra,
  });

describe.each(dbKinds())('findings exports and scan settings under attack on %s', (kind) => {
  let t: TestApp;
  let bKey = '';
  const a = { scan: '', vuln: '', exclude: 0, mapping: 0 };

  beforeAll(async () => {
    t = await createTestApp(kind);
    const bTeam = 'team-b-exp-' + kind;
    await authStore.insertTeam(t.ctx.db, bTeam, 'Team B');
    const user = await authStore.insertUser(t.ctx.db, 'b-exp@example.com', bTeam);
    await authStore.insertMember(t.ctx.db, bTeam, user.id, 'OWNER', true);
    bKey = await issueKey(t.ctx.db, user.id);

    const lines = [
      finding(1),
      finding(2, {
        info: { name: '=cmd|" /C calc"!A0', severity: 'critical', tags: ['a'], description: '+SUM(1,2)' },
        'matcher-name': '@import',
        'extracted-results': ['-1+1', '\t=1+1', '\r=2', '＝HYPERLINK("x")'],
      }),
    ];
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import?name=a',
      headers: { 'content-type': 'application/octet-stream' },
      payload: lines.join('\n') + '\n',
    });
    a.scan = res.json().id;
    a.vuln = (await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${a.scan}` })).json().data[0].vuln_id;
    await t.request({
      method: 'POST',
      url: '/v1/scans/config/exclude',
      payload: { values: ['a-only.example.com'], exclude_type: 'scan_target' },
    });
    a.exclude = (await t.request({ method: 'GET', url: '/v1/scans/config/exclude' })).json().data[0].id;
    a.mapping = (
      await t.request({
        method: 'POST',
        url: '/v1/scans/config/severity',
        payload: { template_id: 'a-check-1', custom_severity: 'low' },
      })
    ).json().id;
  });
  afterAll(() => t?.close());

  const asB = (method: string, url: string, payload?: object) =>
    t.request({ method: method as 'GET', url, payload, key: bKey });

  it("team B cannot export, change, delete or read the history of team A's scans and findings", async () => {
    for (const [method, url, body] of [
      ['GET', `/v1/scans/${a.scan}/export`],
      ['POST', `/v1/scans/${a.scan}/export`, {}],
      ['GET', `/v1/scans/${a.scan}/export?async=true`],
      ['GET', `/v1/scans/vuln/${a.vuln}/export`],
      ['PATCH', `/v1/scans/${a.scan}`, { name: 'pwned' }],
      ['PATCH', `/v1/scans/${a.scan}/config`, { targets: ['https://b.example.com'] }],
      ['DELETE', '/v1/scans', { scan_ids: [a.scan] }],
      ['GET', `/v1/scans/${a.scan}/history`],
      ['DELETE', '/v1/scans/config/exclude', { ids: [a.exclude] }],
      ['DELETE', '/v1/scans/config/severity', { ids: [a.mapping] }],
      ['PATCH', `/v1/scans/config/${a.mapping}/severity`, { template_id: 'a-check-1', custom_severity: 'info' }],
      ['POST', '/v1/scans/config/severity', { template_id: 'a-check-1', custom_severity: 'info', vuln_id: a.vuln }],
      [
        'POST',
        '/v1/scans/config/exclude',
        { values: ['x.example.com'], exclude_type: 'scan_target', scan_ids: [a.scan] },
      ],
      ['GET', '/v2/vulnerability/a-check-1/timeline'],
    ] as [string, string, object?][]) {
      const res = await asB(method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.body).not.toContain('A finding');
    }
    // Filters naming A's scan or findings export nothing of A.
    for (const body of [{ scan_ids: [a.scan] }, { ids: [a.vuln] }, { search: 'A finding' }]) {
      const res = await asB('POST', '/v1/scans/results/export', body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
    // B's lists hold nothing of A.
    expect((await asB('GET', '/v1/scans/config/exclude')).json().data).toEqual([]);
    expect((await asB('GET', '/v1/scans/config/severity')).json().custom_severity_mappings).toEqual([]);
    expect((await asB('GET', '/v1/scans/history')).json().data).toEqual([]);
    // Nothing of A changed.
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${a.scan}` })).json();
    expect(scan.name).toBe('a');
    expect((await t.request({ method: 'GET', url: '/v1/scans/config/exclude' })).json().data).toHaveLength(1);
    const mappings = (await t.request({ method: 'GET', url: '/v1/scans/config/severity' })).json();
    expect(mappings.custom_severity_mappings[0].custom_severity).toBe('low');
  });

  it('bad and hostile input is a 4xx naming the problem; SQL in filters is data', async () => {
    for (const [method, url, body, param] of [
      ['GET', `/v1/scans/${a.scan}/export?type=exe`, undefined, undefined],
      ['POST', `/v1/scans/${a.scan}/export`, { ids: ['1 OR 1=1'] }, 'ids'],
      ['POST', `/v1/scans/${a.scan}/export`, { port: [70000] }, undefined],
      ['POST', `/v1/scans/${a.scan}/export`, { severity: ["high' OR '1'='1"] }, 'severity'],
      ['POST', '/v1/scans/results/export', { time: 'forever' }, undefined],
      ['POST', '/v1/scans/results/export', { start_date: "2024-01-01'; DROP TABLE scans; --" }, undefined],
      ['POST', '/v1/scans/results/export', { ids: Array.from({ length: 10_001 }, (_, i) => String(i + 1)) }, undefined],
      ['GET', '/v1/scans/vuln/1;DROP/export', undefined, 'vuln_id'],
      ['PATCH', `/v1/scans/${a.scan}`, { name: '' }, undefined],
      ['DELETE', '/v1/scans', { scan_ids: [] }, undefined],
      ['PATCH', `/v1/scans/${a.scan}/config?update_type=merge`, {}, undefined],
      ['PATCH', `/v1/scans/${a.scan}/config`, { evil: true }, undefined],
      ['GET', '/v1/scans/history?time_range=always', undefined, undefined],
      ['POST', '/v1/scans/config/exclude', { values: ['not a host at all'], exclude_type: 'scan_target' }, 'values[0]'],
      ['POST', '/v1/scans/config/exclude', { values: ['x'], exclude_type: 'everything' }, undefined],
      ['DELETE', '/v1/scans/config/exclude', { ids: ['1 OR 1=1'] }, undefined],
      ['PATCH', '/v1/scans/config/abc/severity', { template_id: 'a-check-1', custom_severity: 'low' }, 'config_id'],
      ['POST', '/v1/scans/config/verify', { config: 'x', config_type: '../../etc/passwd' }, 'config_type'],
      ['GET', '/v2/vulnerability/x/timeline?event_type=drop', undefined, 'event_type'],
    ] as [string, string, object | undefined, string | undefined][]) {
      const res = await t.request({ method: method as 'GET', url, payload: body });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
      expect(typeof res.json().message).toBe('string');
      if (param) expect(res.json().param, `${method} ${url}`).toBe(param);
    }
    for (const body of [
      { search: "' OR 1=1 --" },
      { domain: ["x' OR '1'='1"] },
      { template: ["'; DROP TABLE scans; --"] },
    ]) {
      const res = await t.request({ method: 'POST', url: '/v1/scans/results/export', payload: body });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
    expect((await t.request({ method: 'GET', url: `/v1/scans/${a.scan}` })).statusCode).toBe(200);
  });

  it('a CSV export runs no formula in a spreadsheet: every cell starting = + - @ tab or CR is quoted', async () => {
    const res = await t.request({ method: 'GET', url: `/v1/scans/${a.scan}/export?type=csv` });
    const rows: string[][] = parse(res.body);
    const cells = rows.flat();
    expect(cells).toContain(`'=cmd|" /C calc"!A0`);
    expect(cells).toContain(`'+SUM(1,2)`);
    expect(cells).toContain(`'@import`);
    for (const c of cells) expect(c).not.toMatch(/^[=+\-@\t\r\uFF1D]/);
  });

  it('no export holds the raw request, response or curl command, nor the credentials in them', async () => {
    for (const type of ['json', 'csv', 'sarif', 'markdown']) {
      for (const res of [
        await t.request({ method: 'GET', url: `/v1/scans/${a.scan}/export?type=${type}` }),
        await t.request({ method: 'POST', url: '/v1/scans/results/export?type=' + type, payload: {} }),
        await t.request({
          method: 'GET',
          url: `/v1/scans/vuln/${a.vuln}/export?type=${type === 'csv' ? 'csv' : 'json'}`,
        }),
      ]) {
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain(SECRET);
        expect(res.body).not.toContain('curl-command');
      }
    }
    // The PDF's text streams are compressed: look at what it was made from instead (the json items).
    const items = (await t.request({ method: 'GET', url: `/v1/scans/${a.scan}/export` })).json();
    for (const i of items) expect(Object.keys(i.event)).not.toContain('request');
  });
});
