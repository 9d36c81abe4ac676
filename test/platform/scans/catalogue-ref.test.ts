// Scans of catalogue templates reference the template store (row and digest) instead of copying each
// template's text into the scan: `all: true` stores no template text, and the chunk still runs them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { makeCatalogue, type Catalogue } from '../templates/fixtures.ts';
import { createScanApp, MARKER_TEMPLATE, HEADER_TEMPLATE, type ScanTestApp } from './fixtures.ts';

// A protocol this engine does not run (file reads the scanner's own disk).
const FILE_TEMPLATE = `id: page-title
info:
  name: Files with a title
  author: vigil
  severity: info
file:
  - extensions: [all]
    matchers:
      - type: word
        words: [title]
`;

const PAYLOAD_TEMPLATE = `id: user-enum
info:
  name: User enumeration
  author: vigil
  severity: low
http:
  - method: GET
    path:
      - "{{BaseURL}}/users/{{user}}"
    payloads:
      user: helpers/wordlists/users.txt
    matchers:
      - type: word
        words: [USER-EXISTS]
`;

describe('catalogue templates in scans', () => {
  let t: ScanTestApp;
  let cat: Catalogue;
  let target: TestServer;
  beforeAll(async () => {
    t = await createScanApp('pglite');
    cat = makeCatalogue({
      'http/misc/marker.yaml': MARKER_TEMPLATE,
      'http/misc/powered-by.yaml': HEADER_TEMPLATE,
      'http/misc/users.yaml': PAYLOAD_TEMPLATE,
      'helpers/wordlists/users.txt': 'alpha\nsecret-user\n',
      'file/title.yaml': FILE_TEMPLATE,
    });
    await importCatalogue(t.ctx.db, cat.dir);
    target = await startHttpServer((q, res) => {
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(q.url === '/vuln' ? 'VULNERABLE-MARKER' : q.url === '/users/secret-user' ? 'USER-EXISTS' : 'hello');
    });
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
    cat?.cleanup();
  });

  it('catalogue selections store references, not texts, run every template, and log the ones they cannot run', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], templates: ['http', 'file'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const stored = await t.ctx.db.query<{ raw: string; ref_pk: string | null; digest: string | null }>(
      'SELECT raw, ref_pk, digest FROM scan_templates WHERE scan_id = $1',
      [id],
    );
    expect(stored.rows).toHaveLength(4);
    for (const r of stored.rows) {
      expect(r.raw).toBe('');
      expect(r.ref_pk).not.toBeNull();
      expect(r.digest).toMatch(/^[0-9a-f]{64}$/);
    }
    const scan = await t.waitStatus(id, ['finished', 'failed']);
    expect(scan).toMatchObject({ status: 'finished', total_result: 3 });
    // Four selected, three runnable: the totals and the progress count only what runs.
    expect(scan).toMatchObject({ total_template: 3, total_target: 1, total_scan: 3, progress: 100 });
    // The template this engine cannot run is not dropped silently: the scan log says so, with the reason.
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const log = JSON.parse((await t.request({ method: 'GET', url: new URL(link).pathname, key: null })).body);
    const skipped = log.filter((r: { error?: string }) => r.error?.startsWith('template not run'));
    expect(skipped).toHaveLength(1);
    expect(JSON.stringify(skipped[0])).toContain('page-title');
    expect(JSON.stringify(skipped[0])).toContain('file protocol');
  });

  it('runs catalogue templates with payload files on workers from the values stored at import', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], templates: ['http/misc/users.yaml'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const scan = await t.waitStatus(res.json().id, ['finished', 'failed']);
    expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
    expect(target.requests.some((r) => r.url === '/users/alpha')).toBe(true);
  });
});
