// Inputs that used to reach the database or a recursive parser unchecked and came back as a 500: each is
// a 400 with the error body naming the field now. Run on PGlite and, with TEST_DATABASE_URL, PostgreSQL
// (the two differ in where a too-deep expression or an out-of-range value fails).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';

const octet = { 'content-type': 'application/octet-stream' };
const finding = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    'template-id': 'check-1',
    info: { name: 'Imported', severity: 'high' },
    type: 'http',
    host: 'https://h.example.com',
    'matched-at': 'https://h.example.com/p',
    timestamp: '2024-01-02T03:04:05Z',
    ...extra,
  });

describe.each(dbKinds())('input limits on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  const expect400 = (
    res: {
      statusCode: number;
      body: string;
      json(): { param?: string; message: string; code?: string; status?: number };
    },
    param: string,
    message?: RegExp,
  ) => {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', status: 400, param });
    if (message) expect(res.json().message).toMatch(message);
  };
  const scanCount = async () =>
    Number((await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scans')).rows[0]!.n);

  it('an import line nested 100,000 levels deep', async () => {
    const before = await scanCount();
    const deep = '{"template-id":"x","info":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}';
    for (const payload of [deep, `${finding()}\n${deep}\n`, '['.repeat(100_000) + ']'.repeat(100_000)]) {
      const res = await t.request({ method: 'POST', url: '/v1/scans/import', payload, headers: octet });
      expect400(res, 'body', /line \d+ is nested more than 64 levels/);
    }
    expect(await scanCount()).toBe(before);
  });

  it('a 1 MB template-id (and host) in an import line', async () => {
    const big = 'a'.repeat(1024 * 1024);
    const id = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      payload: finding({ 'template-id': big }),
      headers: octet,
    });
    expect400(id, 'template-id', /line 1: template-id is longer than/);
    const host = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      payload: finding({ host: `https://${big}` }),
      headers: octet,
    });
    expect400(host, 'host', /line 1: host is longer than/);
    // The longest accepted values are stored and read back.
    const ok = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      headers: octet,
      payload: finding({ 'template-id': 'i'.repeat(255), host: `https://${'h'.repeat(2040)}` }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a private template whose id is longer than 255 characters (uploaded or in a scan)', async () => {
    const tpl = (n: number) =>
      `id: ${'a'.repeat(n)}\ninfo:\n  name: x\n  author: x\n  severity: low\nhttp:\n  - path: ["{{BaseURL}}"]\n    matchers: [{type: status, status: [200]}]\n`;
    for (const n of [256, 300_000]) {
      const upload = await t.request({ method: 'POST', url: '/v1/template', payload: { template: tpl(n) } });
      expect(upload.statusCode, upload.body.slice(0, 300)).toBe(400);
      expect(upload.json().message).toMatch(/id: is longer than 255 characters/);
      const scan = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets: ['http://127.0.0.1:9'],
          private_templates: [{ name: 'x.yaml', contents: tpl(n) }],
          schedule_only: true,
        },
      });
      expect(scan.statusCode, scan.body.slice(0, 300)).toBe(400);
      expect(scan.json().message).toMatch(/id: is longer than 255 characters/);
    }
    expect((await t.request({ method: 'POST', url: '/v1/template', payload: { template: tpl(255) } })).statusCode).toBe(
      200,
    );
  });

  it('a vulnerability search of NOT NOT NOT ... (2,400 characters), and other deep or long queries', async () => {
    const search = (q: string) =>
      t.request({ method: 'GET', url: `/v2/vulnerability/search?q=${encodeURIComponent(q)}` });
    expect400(await search('NOT '.repeat(600) + 'x'), 'q', /nested/);
    expect400(await search('('.repeat(1000) + 'x' + ')'.repeat(1000)), 'q', /nested/);
    expect400(await search('! '.repeat(1500) + 'x'), 'q', /nested/);
    expect400(await search(Array.from({ length: 500 }, (_, i) => `t${i}`).join(' ')), 'q', /terms/);
    // Ordinary depth still works.
    const fine = await search('NOT NOT (is_kev:true || (cvss_score:>7 && NOT vendor:apache))');
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('NUL bytes and over-long values in a path parameter, a query value or a query field name', async () => {
    const get = (url: string) => t.request({ method: 'GET', url });
    expect400(await get('/v2/vulnerability/CVE-2021%00-44228'), 'id', /^id contains a NUL character/);
    expect400(await get('/v2/vulnerability/CVE-2021-44228?fields=cve_id%00'), 'fields', /^fields contains a NUL/);
    expect400(await get(`/v2/vulnerability/CVE-2021-44228?fields=${'a'.repeat(5000)}`), 'fields', /longer than 4096/);
    // A field name is checked before any value, so of two problems the name's is answered.
    for (const url of [
      '/v2/vulnerability/CVE-2021-44228?a%00b=1',
      '/v2/vulnerability/CVE-2021-44228?fields=%00&a%00b=1',
    ]) {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_request', status: 400 });
      expect(res.json().message).toMatch(/^a field name contains a NUL character/);
    }
    // Of two values, the one that comes last in the query is answered (as before the checks' fast path).
    expect400(await get('/v1/scans?search=%00&sort=%00'), 'sort', /NUL/);
  });

  it('not_seen_for_days=2147483648 on the inventory, and integers past SQL integer anywhere in a query', async () => {
    expect400(
      await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents?not_seen_for_days=2147483648' }),
      'not_seen_for_days',
    );
    expect400(
      await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents?not_seen_for_days=2147483647' }),
      'not_seen_for_days',
    );
    const ok = await t.request({ method: 'GET', url: '/v1/asset/enumerate/contents?not_seen_for_days=3650' });
    expect(ok.statusCode, ok.body).toBe(200);
    // The same count in a scan's asset filters (found by the fuzz one level down).
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { name: 'a', scan_all_assets: true, asset_filters: { not_seen_for_days: 2147483647 } },
    });
    expect400(scan, 'asset_filters.not_seen_for_days');
    // Any integer of a request without bounds of its own stops at SQL's integer.
    expect400(await t.request({ method: 'GET', url: '/v1/scans?offset=2147483648' }), 'offset');
  });

  it('a schedule start_time outside years 1970-9999', async () => {
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        name: 's',
        targets: ['http://127.0.0.1:9'],
        private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }],
        schedule_only: true,
      },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    const id = scan.json().id as string;
    for (const start of ['0001-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '1969-12-31T23:59:59Z']) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans/schedule',
        payload: { scan_id: id, scan_frequency: 'daily', start_time: start },
      });
      expect400(res, 'start_time', /1970/);
    }
    const ok = await t.request({
      method: 'POST',
      url: '/v1/scans/schedule',
      payload: { scan_id: id, scan_frequency: 'daily', start_time: '2030-01-02T03:04:05Z' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const got = (await t.request({ method: 'GET', url: `/v1/scans/schedule?scan_id=${id}` })).json();
    expect(JSON.stringify(got)).toContain('2030-01-02T03:04:05Z');
  });
});
