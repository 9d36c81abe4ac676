// Loading from folders: walking, skipping non-templates, filters, issues per file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplateFile, loadTemplates } from '../../../src/engine/template/index.ts';

let dir: string;

function template(
  id: string,
  severity: string,
  tags: string,
  author = 'alice',
  body = 'http:\n  - path: ["{{BaseURL}}"]\n',
): string {
  return `id: ${id}\ninfo:\n  name: ${id}\n  author: ${author}\n  severity: ${severity}\n  tags: ${tags}\n${body}`;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-load-'));
  mkdirSync(path.join(dir, 'http', 'cves'), { recursive: true });
  mkdirSync(path.join(dir, 'dns'), { recursive: true });
  mkdirSync(path.join(dir, 'profiles'), { recursive: true });
  writeFileSync(path.join(dir, 'http', 'cves', 'cve-a.yaml'), template('cve-a', 'critical', 'cve,rce'));
  writeFileSync(path.join(dir, 'http', 'panel.yml'), template('panel', 'info', 'panel,tech', 'bob'));
  writeFileSync(
    path.join(dir, 'dns', 'dns-x.yaml'),
    template('dns-x', 'low', 'dns', 'alice', 'dns:\n  - name: "{{FQDN}}"\n    type: A\n'),
  );
  writeFileSync(
    path.join(dir, 'http', 'broken.yaml'),
    template('broken', 'high', 'x', 'a', 'http:\n  - path: ["{{BaseURL}}"]\n    methd: GET\n'),
  );
  writeFileSync(path.join(dir, 'profiles', 'all.yml'), 'tags: [cve]\nseverity: [high]\n');
  writeFileSync(path.join(dir, '.pre-commit-config.yml'), 'repos: []\n');
  writeFileSync(path.join(dir, 'README.md'), '# not yaml\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadTemplates', () => {
  it('walks folders, counts valid, invalid and skipped files', async () => {
    const r = await loadTemplates([dir]);
    expect(r.files).toBe(6);
    expect(r.valid).toBe(3);
    expect(r.invalid).toBe(1);
    expect(r.skipped.map((f) => path.relative(dir, f)).sort()).toEqual([
      '.pre-commit-config.yml',
      path.join('profiles', 'all.yml'),
    ]);
    expect(r.templates.map((t) => t.id).sort()).toEqual(['cve-a', 'dns-x', 'panel']);
    expect(r.issues).toEqual([
      {
        file: path.join(dir, 'http', 'broken.yaml'),
        field: 'http[0].methd',
        reason: 'unknown field (did you mean "method"?)',
      },
    ]);
  });

  it('loads single files and reports unreadable paths', async () => {
    const r = await loadTemplates([path.join(dir, 'http', 'panel.yml'), path.join(dir, 'missing.yaml')]);
    expect(r.templates.map((t) => t.id)).toEqual(['panel']);
    expect(r.invalid).toBe(1);
    expect(r.issues[0]).toMatchObject({ file: path.join(dir, 'missing.yaml'), reason: 'cannot read: ENOENT' });
  });

  it('filters by tags, severities, ids, authors, types and exclusions', async () => {
    const ids = async (filter: Parameters<typeof loadTemplates>[1]) =>
      (await loadTemplates([dir], filter)).templates.map((t) => t.id).sort();
    expect(await ids({ tags: ['RCE'] })).toEqual(['cve-a']);
    expect(await ids({ severities: ['info', 'low'] })).toEqual(['dns-x', 'panel']);
    expect(await ids({ ids: ['panel', 'cve-a'] })).toEqual(['cve-a', 'panel']);
    expect(await ids({ authors: ['bob'] })).toEqual(['panel']);
    expect(await ids({ types: ['dns'] })).toEqual(['dns-x']);
    expect(await ids({ excludeTags: ['cve'] })).toEqual(['dns-x', 'panel']);
    expect(await ids({ excludeIds: ['panel'], severities: ['info', 'critical'] })).toEqual(['cve-a']);
    const r = await loadTemplates([dir], { tags: ['dns'] });
    expect(r.filtered).toBe(2);
  });

  it('gives the same order with any batch size', async () => {
    const a = (await loadTemplates([dir], {}, { batchSize: 1 })).templates.map((t) => t.id);
    const b = (await loadTemplates([dir], {}, { batchSize: 1000 })).templates.map((t) => t.id);
    expect(a).toEqual(b);
  });

  it('gives the same results on worker threads', async () => {
    const main = await loadTemplates([dir], {}, { workers: 0 });
    const threaded = await loadTemplates([dir], {}, { workers: 2 });
    const strip = (r: typeof main) => ({ ...r, templates: r.templates.map((t) => ({ ...t, raw: '' })) });
    expect(strip(threaded)).toEqual(strip(main));
    expect(threaded.templates.length).toBe(3);
  });

  it('warns about duplicate ids', async () => {
    const r = await loadTemplates([path.join(dir, 'http', 'panel.yml'), path.join(dir, 'http', 'panel.yml')]);
    expect(r.warnings.map((w) => w.reason)).toEqual([expect.stringContaining('duplicate id "panel"')]);
  });
});

describe('loadTemplateFile', () => {
  it('parses one file', async () => {
    const r = await loadTemplateFile(path.join(dir, 'dns', 'dns-x.yaml'));
    expect(r.template?.type).toBe('dns');
    expect(r.template?.path).toBe(path.join(dir, 'dns', 'dns-x.yaml'));
  });
});
