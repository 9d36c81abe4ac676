// Imports the whole public corpus and checks the stored counts against an independent count of the files
// (read here with the `yaml` package, not the engine's parser).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue, type ImportSummary } from '../../../src/platform/templates/catalogue.ts';
import { searchTemplates } from '../../../src/platform/templates/search.ts';
import { hasShared } from '../../helpers/shared.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/nuclei-templates');

// nuclei reports one type per template: the first present key in this order.
const TYPE_KEYS: [string[], string][] = [
  [['dns'], 'dns'],
  [['file'], 'file'],
  [['http', 'requests'], 'http'],
  [['headless'], 'headless'],
  [['tcp', 'network'], 'tcp'],
  [['workflows'], 'workflow'],
  [['ssl'], 'ssl'],
  [['websocket'], 'websocket'],
  [['whois'], 'whois'],
  [['code'], 'code'],
  [['javascript'], 'javascript'],
];

interface Counted {
  severity: string;
  type: string;
  dir: string;
}

/** Every template file of the corpus (a YAML map with id and info) -> its severity, type and folder. */
function countCorpus(): Map<string, Counted> {
  const out = new Map<string, Counted>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(corpus, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (/\.ya?ml$/.test(e.name)) {
        let doc: Record<string, unknown>;
        try {
          doc = YAML.parse(readFileSync(path.join(corpus, child), 'utf8'));
        } catch {
          continue;
        }
        if (!doc || typeof doc !== 'object' || !('id' in doc) || !('info' in doc)) continue;
        const info = doc.info as Record<string, unknown>;
        const severity = typeof info?.severity === 'string' ? info.severity.trim().toLowerCase() : 'unknown';
        const type = TYPE_KEYS.find(([keys]) => keys.some((k) => doc[k] != null))?.[1] ?? 'none';
        out.set(child, { severity, type, dir: child.split('/')[0]! });
      }
    }
  };
  walk('');
  return out;
}

const tally = (values: string[]) => {
  const m: Record<string, number> = {};
  for (const v of values) m[v] = (m[v] ?? 0) + 1;
  return m;
};

describe.skipIf(!hasShared('corpus/nuclei-templates')).each(dbKinds())('whole corpus import on %s', (kind) => {
  let t: TestDb;
  let summary: ImportSummary;
  let files: Map<string, Counted>;

  beforeAll(async () => {
    files = countCorpus();
    t = await freshDb(kind);
    summary = await importCatalogue(t.db, corpus);
  }, 600_000);
  afterAll(async () => t?.drop());

  it('stores every template the validator accepts; the few it rejects are reported by file', () => {
    expect(files.size).toBeGreaterThan(10_000);
    expect(summary.templates + summary.failed.length).toBe(files.size);
    expect(summary.failed.length).toBeLessThan(files.size / 100);
    for (const f of summary.failed) expect(files.has(f.file), f.file).toBe(true);
  });

  it('matches the independent counts by severity, type and folder', async () => {
    const stored = [...files].filter(([file]) => !summary.failed.some((f) => f.file === file)).map(([, c]) => c);
    const q = async (col: string) =>
      Object.fromEntries(
        (
          await t.db.query<{ k: string; n: number }>(`SELECT ${col} AS k, count(*)::int AS n FROM templates GROUP BY 1`)
        ).rows.map((r) => [r.k, r.n]),
      );
    expect(await q('severity')).toEqual(tally(stored.map((c) => c.severity)));
    expect(await q('type')).toEqual(tally(stored.map((c) => c.type)));
    expect(await q('dir')).toEqual(tally(stored.map((c) => c.dir)));
  });

  it('search facets over the whole catalogue agree with those counts', async () => {
    const stored = [...files].filter(([file]) => !summary.failed.some((f) => f.file === file)).map(([, c]) => c);
    const res = await searchTemplates(t.db, 'no-team', { scope: 'public', limit: 1, facet_size: 20 });
    expect(res.total).toBe(stored.length);
    expect(res.facets.severity.buckets).toEqual(tally(stored.map((c) => c.severity)));
    expect(res.facets.type.buckets).toEqual(tally(stored.map((c) => c.type)));
    const crit = await searchTemplates(t.db, 'no-team', {
      scope: 'public',
      q: 'severity:critical type:http',
      limit: 0,
    });
    expect(crit.total).toBe(stored.filter((c) => c.severity === 'critical' && c.type === 'http').length);
  });

  it('re-imports the unchanged corpus without rewriting anything', async () => {
    const again = await importCatalogue(t.db, corpus);
    expect(again).toMatchObject({
      templates: summary.templates,
      unchanged: summary.templates,
      added: 0,
      updated: 0,
      removed: 0,
    });
  }, 600_000);
});
