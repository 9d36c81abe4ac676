// Attacks on the catalogue's scan profiles: a profile file is data, never a path or code. Paths in
// `templates:` that climb out of the catalogue or point at the server's files select nothing and read nothing;
// a YAML alias bomb, a mapping where a list belongs or a non-mapping file is not a profile or is bounded; a file
// outside profiles/ (or in a folder under it) is no profile; names in the URL cannot reach other files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { importCatalogue, type ImportSummary } from '../../src/platform/templates/catalogue.ts';
import { makeCatalogue, SMALL, type Catalogue } from '../platform/templates/fixtures.ts';

const BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'tags: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]',
].join('\n');

describe('scan profile attacks', () => {
  let t: TestApp;
  let cat: Catalogue;
  let summary: ImportSummary;
  const get = (url: string) => t.request({ method: 'GET', url });

  beforeAll(async () => {
    cat = makeCatalogue(SMALL);
    cat.write('profiles/escape.yml', 'templates:\n  - ../../../../etc/\n  - /etc/passwd\n  - ../http/\n');
    cat.write('profiles/bomb.yml', BOMB);
    cat.write('profiles/shape.yml', 'tags:\n  cve: true\nseverity: 12\ncode: "yes"\n');
    cat.write('profiles/scalar.yml', 'just a string\n');
    cat.write('profiles/nested/inner.yml', 'tags:\n  - cve\n');
    cat.write('other/profiles/outer.yml', 'tags:\n  - cve\n');
    t = await createTestApp('pglite');
    summary = await importCatalogue(t.ctx.db, cat.dir);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    cat?.cleanup();
  });

  it('keeps only profiles/NAME.yml mappings; the bomb is refused by the YAML reader, not expanded', async () => {
    const res = await get('/v1/template/profiles');
    expect(res.statusCode).toBe(200);
    const names = (res.json() as { results: { name: string }[] }).results.map((p) => p.name);
    expect(names).toEqual(['escape', 'shape']);
    expect(summary.profiles).toBe(2);
  });

  it('paths climbing out of the catalogue select nothing', async () => {
    const res = await get('/v1/template/profiles/escape');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ templates: [], template_ids: [], profile: { template_count: 0 } });
  });

  it('a mapping where a list belongs is read as its text, never as code', async () => {
    const res = await get('/v1/template/profiles/shape');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { profile: { selectors: Record<string, unknown> }; templates: string[] };
    expect(body.profile.selectors).toMatchObject({ tags: ['[object object]'], severity: ['12'], code: false });
    expect(body.templates).toEqual([]);
  });

  it('names that are paths or hold control characters are refused before any lookup', async () => {
    for (const name of ['..', '..%2F..%2Fetc%2Fpasswd', 'nested%2Finner', '%00', 'a%0Ab', '.hidden']) {
      const res = await get(`/v1/template/profiles/${name}`);
      expect([400, 404], name).toContain(res.statusCode);
      expect(res.json(), name).toHaveProperty('message');
    }
    expect((await get('/v1/template/profiles/nested')).statusCode).toBe(404);
  });

  it('needs a key', async () => {
    expect((await t.request({ method: 'GET', url: '/v1/template/profiles', key: null })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/template/profiles/escape', key: null })).statusCode).toBe(401);
  });
});
