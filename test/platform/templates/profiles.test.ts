// The catalogue's scan profiles over the API, on a real subset of the corpus: every profile file of
// nuclei-templates and the template folders several of them select. Expected selections are worked out
// here from the files themselves (read with the `yaml` package, not the engine's parser), one rule per profile.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';
import { importCatalogue, type ImportSummary } from '../../../src/platform/templates/catalogue.ts';

const corpus = path.join(sharedDir, 'corpus/nuclei-templates');
/** The subset copied into a temporary catalogue (paths relative to the corpus). */
const SUBSET = [
  'profiles',
  'http/cves/2021',
  'http/takeovers',
  'http/cves/2019/CVE-2019-15043.yaml', // tagged dos: pentest excludes it
  'dns/azure-takeover-detection.yaml',
  'dns/elasticbeanstalk-takeover.yaml',
  'network/cves/2021',
  'code/privilege-escalation',
];
const TYPE_KEYS: [string[], string][] = [
  [['dns'], 'dns'],
  [['file'], 'file'],
  [['http', 'requests'], 'http'],
  [['headless'], 'headless'],
  [['tcp', 'network'], 'tcp'],
  [['workflows'], 'workflow'],
  [['ssl'], 'ssl'],
  [['code'], 'code'],
  [['javascript'], 'javascript'],
];

interface File {
  uri: string;
  id: string;
  tags: string[];
  severity: string;
  type: string;
}

function templateFiles(root: string): File[] {
  const out: File[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else if (/\.ya?ml$/.test(e.name) && !child.startsWith('profiles/')) {
        const doc = YAML.parse(readFileSync(path.join(root, child), 'utf8')) as Record<string, unknown>;
        const info = doc.info as Record<string, unknown>;
        const tags = String(info.tags ?? '')
          .split(',')
          .map((x) => x.trim().toLowerCase())
          .filter(Boolean);
        const severity = typeof info.severity === 'string' ? info.severity.toLowerCase() : 'unknown';
        const type = TYPE_KEYS.find(([keys]) => keys.some((k) => doc[k] != null))?.[1] ?? '';
        out.push({ uri: child, id: String(doc.id), tags, severity, type });
      }
    }
  };
  walk('');
  return out.sort((a, b) => (a.uri < b.uri ? -1 : 1));
}

const profileDoc = (name: string) =>
  YAML.parse(readFileSync(path.join(corpus, 'profiles', `${name}.yml`), 'utf8')) as Record<string, string[]>;

describe.skipIf(!hasShared('corpus/nuclei-templates/profiles')).each(dbKinds())('scan profiles on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let summary: ImportSummary;
  let files: File[];
  const resolve = async (name: string) => {
    const res = await t.request({ method: 'GET', url: `/v1/template/profiles/${name}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { profile: { template_count: number; unsupported: string[] }; templates: string[] };
  };
  const uris = (pick: (f: File) => boolean) => files.filter(pick).map((f) => f.uri);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-profiles-'));
    for (const p of SUBSET) cpSync(path.join(corpus, p), path.join(dir, p), { recursive: true });
    t = await createTestApp(kind);
    summary = await importCatalogue(t.ctx.db, dir);
    const failed = new Set(summary.failed.map((f) => f.file));
    files = templateFiles(dir).filter((f) => !failed.has(f.uri));
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every profile file of the checkout and lists each with what it selects', async () => {
    const names = readdirSync(path.join(corpus, 'profiles'))
      .filter((f) => f.endsWith('.yml'))
      .map((f) => f.replace(/\.yml$/, ''))
      .sort();
    expect(summary.profiles).toBe(names.length);
    const res = await t.request({ method: 'GET', url: '/v1/template/profiles' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      count: number;
      results: { name: string; description: string | null; template_count: number; unsupported: string[] }[];
    };
    expect(body.results.map((p) => p.name)).toEqual(names);
    expect(body.count).toBe(names.length);
    const cves = body.results.find((p) => p.name === 'cves')!;
    expect(cves.description).toMatch(/Common Vulnerabilities and Exposures/);
    expect(cves.template_count).toBe(uris((f) => /^(http|network)\/cves\//.test(f.uri)).length);
    expect(cves.template_count).toBeGreaterThan(400);
    expect(body.results.find((p) => p.name === 'aws-cloud-config')!.unsupported).toEqual(['var']);
    // Each listed count is the size of its resolution.
    for (const p of body.results.filter((x) => ['kev', 'pentest', 'recommended'].includes(x.name)))
      expect((await resolve(p.name)).templates.length).toBe(p.template_count);
  });

  it('selects by paths (cves, subdomain-takeovers)', async () => {
    expect((await resolve('cves')).templates).toEqual(uris((f) => /^(http|network)\/cves\//.test(f.uri)));
    const takeovers = await resolve('subdomain-takeovers');
    expect(takeovers.templates).toEqual(
      uris((f) => f.uri.startsWith('http/takeovers/') || /^dns\/(azure|elasticbeanstalk)-/.test(f.uri)),
    );
    expect(takeovers.templates).toContain('dns/azure-takeover-detection.yaml');
  });

  it('selects by tags, leaving code templates out unless the profile enables code (kev, privilege-escalation)', async () => {
    const kev = (await resolve('kev')).templates;
    expect(kev.length).toBeGreaterThan(10);
    expect(kev).toEqual(uris((f) => f.tags.includes('kev') && f.type !== 'code'));
    const privesc = (await resolve('privilege-escalation')).templates;
    expect(privesc.length).toBeGreaterThan(0);
    expect(privesc).toEqual(uris((f) => f.tags.includes('privesc')));
    expect(privesc.every((u) => u.startsWith('code/'))).toBe(true);
  });

  it('applies severities, protocol types and excluded ids and tags (recommended, pentest)', async () => {
    const rec = profileDoc('recommended');
    const excluded = new Set(rec['exclude-id']!.map((x) => x.toLowerCase()));
    const recommended = (await resolve('recommended')).templates;
    expect(recommended).toEqual(
      uris(
        (f) =>
          rec.severity!.includes(f.severity) &&
          ['dns', 'ssl', 'tcp', 'http', 'javascript'].includes(f.type) &&
          !excluded.has(f.id.toLowerCase()),
      ),
    );
    expect(recommended).not.toContain('http/cves/2021/CVE-2021-45967.yaml'); // in exclude-id
    expect(files.some((f) => f.uri === 'http/cves/2021/CVE-2021-45967.yaml')).toBe(true);

    const pentest = (await resolve('pentest')).templates;
    const blocked = ['dos', 'fuzz', 'osint'];
    expect(pentest).toEqual(
      uris(
        (f) => ['http', 'tcp', 'javascript', 'dns', 'ssl'].includes(f.type) && !f.tags.some((x) => blocked.includes(x)),
      ),
    );
    expect(files.some((f) => f.tags.includes('dos') && f.type === 'http')).toBe(true); // the exclusion was tested
  });

  it('answers 404 for a profile the catalogue does not have and 400 for a malformed name', async () => {
    const missing = await t.request({ method: 'GET', url: '/v1/template/profiles/no-such-profile' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: expect.stringMatching(/no scan profile no-such-profile/) });
    for (const bad of ['..%2Fcves', '%2Fetc%2Fpasswd', 'cves%00', 'cves%20x', '%3Cscript%3E']) {
      const res = await t.request({ method: 'GET', url: `/v1/template/profiles/${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it('a re-import without profiles/ drops them; an early import keeps them', async () => {
    const early = mkdtempSync(path.join(tmpdir(), 'vigil-profiles-early-'));
    try {
      cpSync(path.join(corpus, 'dns/azure-takeover-detection.yaml'), path.join(early, 'dns/x.yaml'));
      const s = await importCatalogue(t.ctx.db, early, { early: true });
      expect(s.profiles).toBeNull();
      const listed = await t.request({ method: 'GET', url: '/v1/template/profiles' });
      expect((listed.json() as { count: number }).count).toBe(summary.profiles);

      rmSync(path.join(dir, 'profiles'), { recursive: true });
      const again = await importCatalogue(t.ctx.db, dir);
      expect(again.profiles).toBe(0);
      const after = await t.request({ method: 'GET', url: '/v1/template/profiles' });
      expect(after.json()).toMatchObject({ count: 0, results: [] });
      expect((await t.request({ method: 'GET', url: '/v1/template/profiles/cves' })).statusCode).toBe(404);
    } finally {
      rmSync(early, { recursive: true, force: true });
    }
  });
});
