import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue, type ImportProgress } from '../../../src/platform/templates/catalogue.ts';
import { digestOf } from '../../../src/platform/templates/record.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

interface Row {
  uri: string;
  id: string;
  template_id: string;
  name: string;
  author: string[];
  tags: string[];
  severity: string;
  type: string;
  dir: string | null;
  vendor: string | null;
  product: string | null;
  classification: Record<string, unknown> | null;
  digest: string;
  raw: string;
  filename: string;
  is_new: boolean;
  is_early: boolean;
  template_type: string;
  release_tag: string | null;
  ref: string | null;
  created_at: Date;
  updated_at: Date;
}

describe.each(dbKinds())('catalogue import on %s', (kind) => {
  let t: TestDb;
  let cat: Catalogue;
  const rows = async () => (await t.db.query<Row>('SELECT * FROM templates WHERE team_id IS NULL ORDER BY uri')).rows;

  // One database per kind (starting PGlite is slow); each test starts from an empty catalogue.
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => t.drop());
  beforeEach(async () => {
    await t.db.query('DELETE FROM templates');
    cat = makeCatalogue(SMALL);
  });
  afterEach(() => cat.cleanup());

  it('derives every record field from the template files', async () => {
    cat.write('profiles/default.yml', 'tags:\n  - cve\n'); // a scan profile, not a template
    const progress: ImportProgress[] = [];
    const s = await importCatalogue(t.db, cat.dir, { onProgress: (p) => progress.push(p), progressEvery: 3 });
    expect(s).toMatchObject({
      files: 11,
      templates: 10,
      added: 10,
      updated: 0,
      unchanged: 0,
      removed: 0,
      skipped: 0,
      profiles: 1, // profiles/default.yml: a scan profile, kept beside the catalogue
      failed: [],
    });
    expect(progress.filter((p) => p.phase === 'read').map((p) => p.done)).toEqual([3, 6, 9, 11]);
    expect(progress.at(-1)).toEqual({ phase: 'write', done: 10, total: 10 });

    const all = await rows();
    expect(all.map((r) => r.uri)).toEqual(Object.keys(SMALL).sort());
    const log4j = all.find((r) => r.id === 'CVE-2021-44228')!;
    const file = 'http/cves/2021/CVE-2021-44228.yaml';
    expect(log4j).toMatchObject({
      template_id: 'CVE-2021-44228',
      uri: file,
      name: SMALL[file]!.name,
      author: ['bob', 'alice'],
      tags: ['cve', 'cve2021', 'rce', 'log4j', 'oast'],
      severity: 'critical',
      type: 'http',
      dir: 'http',
      vendor: 'apache',
      product: 'log4j',
      filename: 'CVE-2021-44228.yaml',
      template_type: 'public',
      is_new: true,
      is_early: false,
      release_tag: null,
      ref: null,
    });
    expect(log4j.classification).toMatchObject({ 'cve-id': ['CVE-2021-44228'], 'cwe-id': ['CWE-79'] });
    expect(log4j.raw).toBe(templateText(SMALL[file]!));
    expect(log4j.digest).toBe(digestOf(log4j.raw));
    const types = Object.fromEntries(all.map((r) => [r.id, r.type]));
    expect(types).toMatchObject({
      'caa-fingerprint': 'dns',
      'redis-unauth': 'tcp',
      'weak-cipher-suites': 'ssl',
      'wordpress-workflow': 'workflow',
    });
    expect(all.find((r) => r.id === 'wordpress-workflow')!.severity).toBe('unknown');
  });

  it('re-imports incrementally: unchanged files untouched, changed ones updated, gone ones removed, is_new = added now', async () => {
    await importCatalogue(t.db, cat.dir);
    const before = new Map((await rows()).map((r) => [r.uri, r]));

    const same = await importCatalogue(t.db, cat.dir);
    expect(same).toMatchObject({ templates: 10, added: 0, updated: 0, unchanged: 10, removed: 0 });
    expect((await rows()).every((r) => !r.is_new)).toBe(true);

    cat.write('http/misc/dos-check.yaml', { ...SMALL['http/misc/dos-check.yaml']!, severity: 'medium' });
    cat.remove('ssl/weak-cipher.yaml');
    cat.write('http/new/fresh.yaml', { id: 'fresh-one', severity: 'low', tags: ['new'] });
    const next = await importCatalogue(t.db, cat.dir);
    expect(next).toMatchObject({ templates: 10, added: 1, updated: 1, unchanged: 8, removed: 1 });

    const after = new Map((await rows()).map((r) => [r.uri, r]));
    expect(after.has('ssl/weak-cipher.yaml')).toBe(false);
    expect(after.get('http/new/fresh.yaml')!.is_new).toBe(true);
    expect([...after.values()].filter((r) => r.is_new).map((r) => r.uri)).toEqual(['http/new/fresh.yaml']);
    const dos = after.get('http/misc/dos-check.yaml')!;
    expect(dos.severity).toBe('medium');
    expect(dos.digest).not.toBe(before.get('http/misc/dos-check.yaml')!.digest);
    // First appearance is kept; the content change moves updated_at.
    expect(dos.created_at.getTime()).toBe(before.get('http/misc/dos-check.yaml')!.created_at.getTime());
    expect(dos.updated_at.getTime()).toBeGreaterThan(before.get('http/misc/dos-check.yaml')!.updated_at.getTime());
    const untouched = after.get('dns/caa-fingerprint.yaml')!;
    expect(untouched.updated_at.getTime()).toBe(before.get('dns/caa-fingerprint.yaml')!.updated_at.getTime());
  });

  it('reports invalid templates with the validator message and does not store them', async () => {
    cat.write(
      'http/broken.yaml',
      'id: broken-one\ninfo:\n  name: Broken\n  author: x\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}"]\n    matchers:\n      - type: nonsense\n',
    );
    cat.write('http/not-yaml.yaml', 'id: [unclosed\n');
    const s = await importCatalogue(t.db, cat.dir);
    expect(s.templates).toBe(10);
    expect(s.failed.map((f) => f.file).sort()).toEqual(['http/broken.yaml', 'http/not-yaml.yaml']);
    expect(s.failed.find((f) => f.file === 'http/broken.yaml')!.message).toMatch(/matchers\[0\]\.type/);
    expect((await rows()).some((r) => r.id === 'broken-one')).toBe(false);
  });

  it('keeps early templates apart: --early marks them, a normal import neither removes nor duplicates them', async () => {
    await importCatalogue(t.db, cat.dir);
    const early = makeCatalogue({
      'http/cves/2025/CVE-2025-0001.yaml': { id: 'CVE-2025-0001', severity: 'high', tags: ['cve'] },
      'http/cves/2021/CVE-2021-44228.yaml': SMALL['http/cves/2021/CVE-2021-44228.yaml']!,
    });
    try {
      const s = await importCatalogue(t.db, early.dir, { early: true });
      expect(s).toMatchObject({ added: 1, skipped: 1 }); // the already public one is not taken over
      let all = await rows();
      expect(all.filter((r) => r.is_early).map((r) => r.id)).toEqual(['CVE-2025-0001']);
      expect(all).toHaveLength(11);

      const again = await importCatalogue(t.db, cat.dir);
      expect(again).toMatchObject({ removed: 0, unchanged: 10 });
      all = await rows();
      expect(all.filter((r) => r.is_early).map((r) => r.id)).toEqual(['CVE-2025-0001']);

      // The next early release no longer has it: removed. Promotion to the public catalogue clears is_early.
      early.remove('http/cves/2025/CVE-2025-0001.yaml');
      expect((await importCatalogue(t.db, early.dir, { early: true })).removed).toBe(1);
      expect((await rows()).some((r) => r.is_early)).toBe(false);
    } finally {
      early.cleanup();
    }
  });

  it('takes release_tag and ref from a git checkout; release_tag stays the first one seen', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', cat.dir, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'pipe' })
        .toString()
        .trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    git('tag', 'v10.0.1');
    const first = git('rev-parse', 'HEAD');
    const s = await importCatalogue(t.db, cat.dir);
    expect(s).toMatchObject({ release_tag: 'v10.0.1', ref: first });
    expect((await rows()).every((r) => r.release_tag === 'v10.0.1' && r.ref === first)).toBe(true);

    cat.write('http/misc/dos-check.yaml', { ...SMALL['http/misc/dos-check.yaml']!, name: 'Renamed' });
    cat.write('http/new/fresh.yaml', { id: 'fresh-one' });
    git('add', '.');
    git('commit', '-q', '-m', 'two');
    git('tag', 'v10.0.2');
    const second = git('rev-parse', 'HEAD');
    await importCatalogue(t.db, cat.dir);
    const all = new Map((await rows()).map((r) => [r.uri, r]));
    expect(all.get('http/new/fresh.yaml')).toMatchObject({ release_tag: 'v10.0.2', ref: second });
    expect(all.get('http/misc/dos-check.yaml')).toMatchObject({ release_tag: 'v10.0.1', ref: second });
    expect(all.get('dns/caa-fingerprint.yaml')).toMatchObject({ release_tag: 'v10.0.1', ref: first });
  });

  it('fails clearly on a missing folder', async () => {
    await expect(importCatalogue(t.db, `${cat.dir}/nope`)).rejects.toThrow(/template folder not found/);
  });
});
