// Search pages send each template's stored Template record text (template_records, record-json.ts) instead
// of building the record from its columns. The answer must be the same bytes as the route's serializer
// makes from the columns (VIGIL_TEMPLATE_RECORDS=off), for every kind of query, and the stored texts must
// follow every write: imports (new, changed, removed, is_new cleared), private templates (create, update,
// delete), signature rechecks, plain SQL from another connection, TRUNCATE.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../../src/db/connection.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { fillRecordJson, recordText } from '../../../src/platform/templates/record-json.ts';
import { recordRowsWithout, writeRecordJson, writeSignatures } from '../../../src/platform/templates/store.ts';
import { recheckSignatures } from '../../../src/platform/templates/signature-recheck.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

/** Texts that stress the serializer and the spans: HTML, quotes, escapes, surrogate pairs, look-alike keys. */
const TRICKY: Record<string, string> = {
  'http/misc/tricky-html.yaml': `id: tricky-html

info:
  name: 'WordPress <script>alert("x")</script> & "quoted" \\ back'
  author: eve,"mallory"
  severity: high
  description: "WordPress plugin: <b>bold</b> & 'single' \\"double\\" back\\\\slash tab\\there \\u0001 ctl, emoji \\U0001F600 and \\u2028 sep, marks \\ue000 \\ue001 kept out"
  impact: 'Line one\n\n  line two'
  remediation: Update WordPress.
  reference:
    - https://example.com/a?b=1&c=2
    - "https://example.com/\\"quoted\\""
  classification:
    cvss-metrics: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H
    cvss-score: 9.8
    cve-id: CVE-2099-0001
    cwe-id: CWE-79,CWE-89
    epss-score: 0.0001
    cpe: cpe:2.3:a:wordpress:wordpress:*:*:*:*:*:*:*:*
  metadata:
    vendor: WordPress
    product: wordpress
    "10": ten
    "2": two
    name: '"name":"not this"'
    description: ',"description":"nor this"'
    max-request: 2
    ratio: 1.50
    flag: true
    nothing: null
    nested:
      list: [1, "two", {three: 3}]
  tags: wordpress,xss,"html"

http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        words:
          - '"name":"<em>"'
`,
  'http/misc/no-description.yaml': `id: no-description

info:
  name: ',"description":"fake" wordpress'
  author: bob
  severity: info
  tags: wordpress

http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: status
        status:
          - 200
`,
  'http/misc/digest-line.yaml': `${templateText({ id: 'digest-line', name: 'Signed-looking check', severity: 'info' })}# digest: 4a0a00473045022100aa:00bb\n`,
  'http/misc/unicode.yaml': `id: unicode-check

info:
  name: Ünïcödé 日本語 WordPress 😀 check
  author: zoë
  severity: low
  description: |
    Multi-line description with SQL injection words,
    日本語, "quotes" and a trailing newline.
  classification:
    cvss-score: "7.5"
  tags: sqli,unicode

http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: status
        status:
          - 200
`,
};

/** Searches of every shape: words, filters, sorting, paging, fields, highlight with and without words, scopes. */
const QUERIES: Record<string, string | number | boolean>[] = [
  {},
  { q: 'wordpress' },
  { q: 'wordpress', highlight: true },
  { q: 'log4j rce', highlight: true, sort_desc: 'severity' },
  { q: 'severity:critical' },
  { q: 'severity:critical', highlight: true },
  { q: 'severity:critical,high tags:cve', sort_desc: 'created_at' },
  { q: 'apache severity:high', highlight: true },
  { q: 'tags:panel -tags:tech', sort_asc: 'name' },
  { q: 'type:dns' },
  { q: 'cve:CVE-2021-44228' },
  { q: '44228' },
  { q: 'vendor:apache', facet_size: 20 },
  { q: 'sql injection', highlight: true, limit: 100 },
  { q: 'author:pdteam', sort_asc: 'id' },
  { q: 'dir:http is_new:true', offset: 3 },
  { q: 'jenkins', fields: 'id,name,severity' },
  { q: 'wordpress', fields: 'name,description,raw', highlight: true },
  { sort_desc: 'severity', facet_size: 10 },
  { q: 'xss', highlight: true, sort_desc: 'severity' },
  { q: 'exposure config', scope: 'public' },
  { q: 'microsoft exchange', scope: 'public_private', highlight: true },
  { q: 'script alert', highlight: true },
  { q: 'html', highlight: true },
  { q: 'description fake', highlight: true },
  { q: '日本語', highlight: true },
  { q: 'internal', scope: 'private', highlight: true },
  { scope: 'private' },
  { q: 'wordpress', limit: 0 },
  { q: 'wordpress', offset: 2, limit: 3, sort_asc: 'uri' },
  { highlight: true, limit: 20 },
  { q: 'nothing-matches-this' },
  // tsquery syntax in the words: only letters and digits reach the tsqueries (the highlight ones included).
  { q: "wordpress|!(x&y)') -- \\ *:A &:*", highlight: true },
  { q: '1:*C&b', highlight: true, limit: 5 },
];

describe.each(dbKinds())('stored Template records on %s', (kind) => {
  let t: TestApp;
  let cat: Catalogue;
  let other: Db; // another connection on PostgreSQL (as another process); PGlite has one
  let privateId: string;

  const search = (query: Record<string, string | number | boolean>) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return t.request({ method: 'GET', url: `/v2/template/search?${qs}` });
  };
  /** The answer with the stored records and the one built from the columns, as the bytes sent. */
  const both = async (query: Record<string, string | number | boolean>) => {
    process.env.VIGIL_TEMPLATE_RECORDS = 'off';
    const columns = await search(query);
    delete process.env.VIGIL_TEMPLATE_RECORDS;
    const stored = await search(query);
    expect(columns.statusCode, columns.body).toBe(200);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.headers['content-type']).toBe(columns.headers['content-type']);
    return { columns: columns.body, stored: stored.body };
  };
  const expectSameAnswers = async () => {
    for (const q of QUERIES) {
      const { columns, stored } = await both(q);
      expect(stored, JSON.stringify(q)).toBe(columns);
    }
  };
  /** Every template has its record, and each record is what its columns give now. */
  const expectRecordsCurrent = async () => {
    const { rows } = await t.ctx.db.query<Record<string, unknown>>(
      `SELECT t.*, r.record_json AS stored_json, r.record_spans AS stored_spans
       FROM templates t LEFT JOIN template_records r ON r.template_pk = t.pk ORDER BY t.pk`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const want = recordText(row);
      expect(row.stored_json, String(row.uri)).toBe(want.json);
      expect(row.stored_spans, String(row.uri)).toEqual(want.spans);
    }
    const orphans = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM template_records r WHERE NOT EXISTS (SELECT 1 FROM templates t WHERE t.pk = r.template_pk)',
    );
    expect(orphans.rows[0]!.n).toBe(0);
  };
  const storedCount = async () =>
    (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM template_records')).rows[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(kind);
    cat = makeCatalogue({ ...SMALL, ...TRICKY });
    // A slice of the real corpus when ../shared is there (copied into the temporary catalogue): real metadata and sources,
    // the 1.25 MB wordpress-theme-detect.yaml among them.
    if (hasShared('corpus/nuclei-templates')) {
      const corpus = path.join(sharedDir, 'corpus/nuclei-templates');
      const picks = [
        'http/technologies/wordpress/themes/wordpress-theme-detect.yaml',
        ...readdirSync(path.join(corpus, 'http/cves/2021'))
          .filter((f) => f.endsWith('.yaml'))
          .sort()
          .slice(0, 150)
          .map((f) => `http/cves/2021/${f}`),
        ...readdirSync(path.join(corpus, 'http/exposed-panels'))
          .filter((f) => f.endsWith('.yaml'))
          .sort()
          .slice(0, 100)
          .map((f) => `http/exposed-panels/${f}`),
      ];
      for (const rel of picks) {
        mkdirSync(path.join(cat.dir, 'corpus', path.dirname(rel)), { recursive: true });
        copyFileSync(path.join(corpus, rel), path.join(cat.dir, 'corpus', rel));
      }
    }
    const imported = await importCatalogue(t.ctx.db, cat.dir);
    expect(imported.failed.filter((f) => !f.file.startsWith('corpus/'))).toEqual([]);
    const created = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: {
        template: templateText({
          id: 'team-secret-check',
          name: 'Internal <Admin> Panel',
          severity: 'high',
          tags: ['internal', 'panel'],
          author: 'owner',
          description: 'An internal panel & "friends"',
        }),
        prompt: 'find the "internal" panel',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    privateId = created.json().template.template_id;
    other =
      kind === 'postgres'
        ? await connect({ databaseUrl: t.testDb.url!, schema: t.testDb.schema!, poolSize: 1 })
        : t.ctx.db;
  }, 120_000);
  afterAll(async () => {
    delete process.env.VIGIL_TEMPLATE_RECORDS;
    delete process.env.VIGIL_FACET_CACHE;
    cat?.cleanup();
    if (other && other !== t.ctx.db) await other.close();
    await t?.close();
  });
  afterEach(() => {
    delete process.env.VIGIL_FACET_CACHE;
  });

  it('stores every record at import and at creation, as the columns give it', async () => {
    await expectRecordsCurrent();
  });

  it('answers every query with the same bytes as the record built from the columns, cached or not', async () => {
    process.env.VIGIL_FACET_CACHE = 'off';
    await expectSameAnswers();
    process.env.VIGIL_FACET_CACHE = 'on';
    await expectSameAnswers();
    await expectSameAnswers(); // from the page cache
  }, 120_000);

  it('sends the stored text itself (not the columns) when every row of the page has one', async () => {
    process.env.VIGIL_FACET_CACHE = 'off';
    await t.ctx.db.query(`UPDATE template_records SET record_json = '{"uri":"stored-' || template_pk || '"}'`);
    const { columns, stored } = await both({ q: 'severity:critical' });
    const uris = JSON.parse(stored).results.map((r: { uri: string }) => r.uri);
    expect(uris.length).toBeGreaterThan(1);
    for (const uri of uris) expect(uri).toMatch(/^stored-\d+$/);
    expect(JSON.parse(columns).results.length).toBe(uris.length);
    await t.ctx.db.query('DELETE FROM template_records');
    expect(await fillRecordJson(t.ctx.db)).toBeGreaterThan(10);
    await expectRecordsCurrent();
  });

  it('keeps the records current through updates and deletes of private templates', async () => {
    const updated = await t.request({
      method: 'PATCH',
      url: '/v1/template',
      payload: {
        template_id: privateId,
        template: templateText({ id: 'team-secret-check', name: 'Renamed "internal" check', severity: 'low' }),
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    await expectRecordsCurrent();
    const found = JSON.parse((await both({ q: 'renamed', scope: 'private', highlight: true })).stored);
    expect(found.results[0].name).toBe('<em>Renamed</em> &quot;internal&quot; check');
    await expectSameAnswers();
    const before = await storedCount();
    const deleted = await t.request({ method: 'DELETE', url: `/v1/template/${privateId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await storedCount()).toBe(before - 1);
    await expectRecordsCurrent();
  });

  it('keeps the records current through re-imports: changed, removed, added (is_new cleared elsewhere)', async () => {
    cat.write('http/misc/no-description.yaml', {
      id: 'no-description',
      name: 'Now described wordpress',
      description: 'Now it has one',
      severity: 'medium',
    });
    cat.remove('http/misc/unicode.yaml');
    cat.write('http/misc/brand-new.yaml', { id: 'brand-new', name: 'Brand new wordpress check', severity: 'low' });
    await importCatalogue(t.ctx.db, cat.dir);
    await expectRecordsCurrent();
    const answer = JSON.parse((await both({ q: 'brand-new' })).stored);
    expect(answer.results[0].is_new).toBe(true);
    await expectSameAnswers();
  }, 120_000);

  it('drops the record of a row changed by plain SQL on another connection; search reads its columns until filled', async () => {
    process.env.VIGIL_FACET_CACHE = 'off';
    const before = await storedCount();
    await other.query(
      `UPDATE templates SET name = 'Changed "by" SQL wordpress', is_early = NOT is_early WHERE id = 'tricky-html'`,
    );
    expect(await storedCount()).toBe(before - 1);
    const { columns, stored } = await both({ q: 'wordpress', highlight: true });
    expect(stored).toBe(columns);
    expect(JSON.parse(stored).results.map((r: { name: string }) => r.name)).toContain(
      'Changed &quot;by&quot; SQL <em>wordpress</em>',
    );
    expect(await fillRecordJson(t.ctx.db)).toBe(1);
    await expectRecordsCurrent();
    await expectSameAnswers();
  }, 120_000);

  it('keeps the records current through a signature recheck', async () => {
    // As if the trusted certificates had changed since these rows were checked (plain SQL: records dropped, filled).
    await t.ctx.db.query(
      `UPDATE templates SET signature_keys = 'other keys', signed_by = 'someone' WHERE strpos(raw, '# digest: ') > 0`,
    );
    await fillRecordJson(t.ctx.db);
    expect(JSON.parse((await both({ q: 'digest-line' })).stored).results[0].signed_by).toBe('someone');
    await recheckSignatures(t.ctx.db);
    await expectRecordsCurrent();
    const after = JSON.parse((await both({ q: 'digest-line' })).stored).results[0];
    expect([after.is_signed, after.signed_by]).toEqual([false, undefined]);
    // writeSignatures on its own drops the records it changes.
    const pk = (await t.ctx.db.query<{ pk: string }>(`SELECT pk FROM templates WHERE id = 'brand-new'`)).rows[0]!.pk;
    await writeSignatures(t.ctx.db, [{ pk: Number(pk), signed_by: 'x' }], 'k');
    expect((await t.ctx.db.query(`SELECT 1 FROM template_records WHERE template_pk = $1`, [pk])).rows).toEqual([]);
    await fillRecordJson(t.ctx.db);
    await expectRecordsCurrent();
  });

  it('does not store a record read before the row changed', async () => {
    const pk = Number(
      (await t.ctx.db.query<{ pk: string }>(`SELECT pk FROM templates WHERE id = 'brand-new'`)).rows[0]!.pk,
    );
    await t.ctx.db.query('DELETE FROM template_records WHERE template_pk = $1', [pk]);
    const [row] = await recordRowsWithout(t.ctx.db, pk - 1, 1, 't.*', [pk]);
    await other.query(`UPDATE templates SET name = 'changed after the read' WHERE pk = $1`, [pk]);
    const text = { pk, version: row!.row_version, ...recordText(row!) };
    expect(await writeRecordJson(t.ctx.db, [text])).toBe(0);
    expect(await fillRecordJson(t.ctx.db)).toBe(1);
    await expectRecordsCurrent();
  });

  it.runIf(kind === 'postgres')('skips a row another transaction is writing instead of waiting for it', async () => {
    const pk = Number(
      (await t.ctx.db.query<{ pk: string }>(`SELECT pk FROM templates WHERE id = 'brand-new'`)).rows[0]!.pk,
    );
    const missing = await t.ctx.db.query<{ pk: string }>(`SELECT pk FROM templates WHERE id = 'digest-line'`);
    await t.ctx.db.query('DELETE FROM template_records WHERE template_pk = ANY($1::bigint[])', [
      [pk, Number(missing.rows[0]!.pk)],
    ]);
    await other.transaction(async (tx) => {
      await tx.query(`UPDATE templates SET name = 'being written' WHERE pk = $1`, [pk]);
      // Resolves while the update holds its row (waiting for it would never end: the update waits for this).
      expect(await fillRecordJson(t.ctx.db)).toBe(1);
    });
    expect((await t.ctx.db.query('SELECT 1 FROM template_records WHERE template_pk = $1', [pk])).rows).toEqual([]);
    expect(await fillRecordJson(t.ctx.db)).toBe(1);
    await expectRecordsCurrent();
  });

  it('empties the records with the table', async () => {
    await t.ctx.db.query('TRUNCATE templates');
    expect(await storedCount()).toBe(0);
  });
});
