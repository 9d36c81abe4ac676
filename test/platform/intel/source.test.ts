// Import inputs: zip archives made here are read entry by entry, from a file and from a download that
// arrives in parts (a document comes out before the rest of the archive has been sent), then imported.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb } from '../../helpers/db.ts';
import { readSources, SourceError } from '../../../src/platform/intel/feeds/source.ts';
import { importIntel } from '../../../src/platform/intel/importer.ts';
import { detectFormat } from '../../../src/platform/intel/feeds/detect.ts';
import type { Doc } from '../../../src/platform/intel/feeds/types.ts';
import { hasShared } from '../../helpers/shared.ts';

const VULN = path.resolve(import.meta.dirname, '../../../../shared/data/vuln');
// Without ../shared the inputs are empty and the tests below are skipped (hasShared says so once).
const HAVE = hasShared('data/vuln');
const manifest: { cve: string; path: string }[] = HAVE
  ? JSON.parse(readFileSync(path.join(VULN, 'cve5/MANIFEST.json'), 'utf8'))
  : Array.from({ length: 101 }, () => ({ cve: '', path: '' }));
const picked = manifest.slice(0, 40);
const cveText = (m: { path: string }) => (HAVE ? readFileSync(path.join(VULN, 'cve5', m.path), 'utf8') : '');
const kevText = HAVE ? readFileSync(path.join(VULN, 'kev/known_exploited_vulnerabilities.json'), 'utf8') : '';

// Members: CVE records (deflated), the KEV catalog stored uncompressed, a gzip member, a file that is not
// data (skipped), and a gzip member that is broken (reported, not fatal).
const members: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
for (const m of picked) members[`cvelist/cves/${m.path}`] = [strToU8(cveText(m)), { level: 6 }];
Object.assign(members, {
  'cvelist/README.md': [strToU8('not data'), { level: 6 }],
  'cvelist/kev.json': [strToU8(kevText), { level: 0 }],
  'cvelist/extra/one.json.gz': [gzipSync(cveText(manifest[100]!)), { level: 0 }],
  'cvelist/broken.json.gz': [strToU8('this is not gzip'), { level: 0 }],
});
const zip = zipSync(members);

async function collect(inputs: string[]): Promise<Doc[]> {
  const out: Doc[] = [];
  for await (const d of readSources(inputs)) out.push(d);
  return out;
}

let dir: string;
let server: Server;
let base: string;
let firstDocSeen: () => void = () => {};
let sentBeforeFirstDoc = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-intel-zip-'));
  writeFileSync(path.join(dir, 'cvelist.zip'), zip);
  writeFileSync(path.join(dir, 'garbage.zip'), 'this is not a zip archive at all');
  // /slow.zip sends the first quarter, then the rest only once the reader has produced a document (or
  // after 5 s, so a reader that waits for the whole download fails the test instead of hanging).
  server = createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip' });
    if (req.url === '/slow.zip') {
      const cut = Math.floor(zip.length / 4);
      res.write(zip.subarray(0, cut));
      sentBeforeFirstDoc = cut;
      await Promise.race([new Promise<void>((r) => (firstDocSeen = r)), new Promise((r) => setTimeout(r, 5000))]);
      res.end(zip.subarray(cut));
      sentBeforeFirstDoc = -1; // everything sent
    } else res.end(zip);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
});

describe.skipIf(!HAVE)('zip inputs', () => {
  it('yields every data member of a zip file with its text, skips other files, reports broken members', async () => {
    const docs = await collect([path.join(dir, 'cvelist.zip')]);
    const byName = new Map(docs.map((d) => [d.name.split('!')[1], d]));
    for (const m of picked) expect(byName.get(`cvelist/cves/${m.path}`)?.text).toBe(cveText(m));
    expect(byName.get('cvelist/kev.json')?.text).toBe(kevText);
    expect(byName.get('cvelist/extra/one.json')?.text).toBe(cveText(manifest[100]!));
    expect(byName.has('cvelist/README.md')).toBe(false);
    expect(byName.get('cvelist/broken.json.gz')?.error).toMatch(/gzip/);
    expect(docs.length).toBe(picked.length + 3);
  });

  it('streams a download: the first document comes before the archive has been fully sent', async () => {
    let sentWhenFirst: number | undefined;
    const names: string[] = [];
    for await (const d of readSources([`${base}/slow.zip`])) {
      if (sentWhenFirst === undefined) {
        sentWhenFirst = sentBeforeFirstDoc;
        firstDocSeen();
      }
      names.push(d.name);
    }
    expect(sentWhenFirst).toBeGreaterThan(0); // not -1: the rest had not been sent yet
    expect(sentWhenFirst).toBeLessThan(zip.length);
    expect(names.length).toBe(picked.length + 3);
  });

  it('names an input that is not a zip archive', async () => {
    await expect(collect([path.join(dir, 'garbage.zip')])).rejects.toThrow(SourceError);
    await expect(collect([path.join(dir, 'garbage.zip')])).rejects.toThrow(/garbage\.zip: not a readable zip archive/);
  });
});

describe('folder inputs', () => {
  it("skips a folder's manifest and JSON schema files quietly; a file named by itself is still read", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'vigil-intel-folder-'));
    writeFileSync(path.join(folder, 'MANIFEST.json'), '[{"cve":"CVE-2024-0001","path":"x.json"}]');
    writeFileSync(path.join(folder, 'feed_schema.json'), '{"$schema":"http://json-schema.org/draft-07/schema#"}');
    writeFileSync(path.join(folder, 'feed.schema.json'), '{"$schema":"http://json-schema.org/draft-07/schema#"}');
    writeFileSync(path.join(folder, 'kev.json'), '{"catalogVersion":"1","vulnerabilities":[]}');
    expect((await collect([folder])).map((d) => path.basename(d.name))).toEqual(['kev.json']);
    expect((await collect([path.join(folder, 'MANIFEST.json')])).map((d) => path.basename(d.name))).toEqual([
      'MANIFEST.json',
    ]);
  });

  it.skipIf(!HAVE)(
    'every document of ../shared/data/vuln is a known feed format (no warning about its MANIFEST.json or schema)',
    async () => {
      const unknown = (await collect([VULN])).filter((d) => !d.error && !detectFormat(d)).map((d) => d.name);
      expect(unknown).toEqual([]);
    },
  );
});

describe.skipIf(!HAVE).each(dbKinds())('zip import on %s', (kind) => {
  it('imports the records of a downloaded zip and reports the broken member', async () => {
    const t = await freshDb(kind);
    try {
      const report = await importIntel(t.db, [`${base}/cvelist.zip`]);
      const cve5 = report.feeds.find((f) => f.feed === 'cve5')!;
      expect(cve5.read).toBe(picked.length + 1);
      expect(report.records_total).toBe(picked.length + 1);
      expect(report.unreadable).toEqual([
        { ref: `${base}/cvelist.zip!cvelist/broken.json.gz`, reason: expect.stringMatching(/gzip/) },
      ]);
      const kev = report.feeds.find((f) => f.feed === 'kev')!;
      expect(kev.read).toBeGreaterThan(1000);
      const ids = (await t.db.query<{ cve_id: string }>('SELECT cve_id FROM intel_vulns ORDER BY cve_id')).rows.map(
        (r) => r.cve_id,
      );
      expect(ids).toEqual([...picked.map((m) => m.cve), manifest[100]!.cve].sort());
    } finally {
      await t.drop();
    }
  }, 120_000);
});
