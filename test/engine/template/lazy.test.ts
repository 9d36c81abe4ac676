// Lazy loading ({ lazy: true }): metadata at load, the rest compiled on first use. A lazy template must
// end up equal to the same file parsed in full; problems outside id/info surface when it is compiled;
// the signature gate decides before anything is compiled; odd files are parsed in full at load.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTemplate, loadTemplates } from '../../../src/engine/template/index.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { runScan } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import { hasShared } from '../../helpers/shared.ts';

let dir: string;
let server: Server;
let base: string;

const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);
const head = (id: string, extra = '') =>
  `id: ${id}\n# a comment between keys\ninfo:\n  name: ${id} name\n  author: alice,bob\n  severity: HIGH\n  tags: a,B\n  description: |\n    two\n    lines\n${extra}`;

/** Every field of a template as plain data (getters read, so a lazy one is compiled). */
const plain = (t: Template) => JSON.parse(JSON.stringify({ ...t })) as Record<string, unknown>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-lazy-'));
  write(
    'http.yaml',
    `${head('http-one')}variables:\n  v: "{{BaseURL}}"\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/admin"]\n    matchers:\n      - type: word\n        words: [secret-admin]\n`,
  );
  write('dns.yaml', `${head('dns-one')}dns:\n  - name: "{{FQDN}}"\n    type: a\n`);
  write('self.yaml', `${head('self-one')}self-contained: true\nhttp:\n  - raw: ["GET / HTTP/1.1\\nHost: x\\n\\n"]\n`);
  write(
    'randstr.yaml',
    `${head('rand-one')}http:\n  - method: GET\n    path: ["{{BaseURL}}/{{randstr}}"]\n    matchers:\n      - type: word\n        words: ["{{randstr}}"]\n`,
  );
  // Invalid only past id/info: a lazy load cannot see it until compiled.
  write('late-error.yaml', `${head('late-error')}http:\n  - method: GET\n    path: ["{{BaseURL}}"]\n    methd: GET\n`);
  // Unusual files: parsed in full at load.
  write(
    'flow-style.yaml',
    `{id: flow-style, info: {name: f, author: a, severity: low}, http: [{method: GET, path: ["{{BaseURL}}"]}]}\n`,
  );
  write('unknown-key.yaml', `${head('unknown-key')}http:\n  - path: ["{{BaseURL}}"]\nbogus: 1\n`);
  write('bad-info.yaml', `id: bad-info\ninfo:\n  author: a\nhttp:\n  - path: ["{{BaseURL}}"]\n`);
  write('unsigned-js.yaml', `${head('unsigned-js')}javascript:\n  - code: "1"\n    nonsense-field: 1\n`);

  server = createServer((req, res) => res.end(req.url === '/admin' ? 'secret-admin' : 'nothing'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lazy template loading', () => {
  it('gives templates equal to a full parse once compiled, metadata before', async () => {
    const eager = await loadTemplates([dir]);
    const lazy = await loadTemplates([dir], {}, { lazy: true });
    const byId = new Map(eager.templates.map((t) => [t.id, t]));
    // late-error and unsigned-js pass a lazy load (their errors are past id/info); the unusual files are
    // parsed in full, so their problems are reported at load.
    const late = ['late-error', 'unsigned-js'];
    expect(lazy.templates.map((t) => t.id).sort()).toEqual([...byId.keys(), ...late].sort());
    expect(lazy.issues.map((i) => path.basename(i.file)).sort()).toEqual(['bad-info.yaml', 'unknown-key.yaml']);
    expect(eager.issues.map((i) => path.basename(i.file)).sort()).toEqual([
      'bad-info.yaml',
      'late-error.yaml',
      'unknown-key.yaml',
      'unsigned-js.yaml',
    ]);
    for (const t of lazy.templates) {
      if (late.includes(t.id)) continue;
      const e = byId.get(t.id)!;
      // Metadata first: equal before anything is compiled.
      expect({ id: t.id, info: t.info, type: t.type, self: t.selfContained, path: t.path }).toEqual({
        id: e.id,
        info: e.info,
        type: e.type,
        self: e.selfContained,
        path: e.path,
      });
      expect(compileTemplate(t)).toEqual({ issues: [], warnings: [] });
      if (t.id === 'rand-one') continue; // random values differ between the two loads (checked below)
      expect(plain(t)).toEqual(plain(e));
    }
  });

  it('filters on metadata and compiles a template once, on first use', async () => {
    const r = await loadTemplates([dir], { tags: ['b'], severities: ['high'], types: ['dns'] }, { lazy: true });
    expect(r.templates.map((t) => t.id)).toEqual(['dns-one']);
    const t = r.templates[0];
    const first = t.other;
    expect(first[0]).toMatchObject({ protocol: 'dns', fields: { name: '{{FQDN}}', type: 'A' } });
    expect(t.other).toBe(first); // compiled once, kept
    expect(Object.getOwnPropertyDescriptor(t, 'other')).toMatchObject({ value: first, writable: true });
  });

  it('uses the random values of its own text when compiled ({{randstr}})', async () => {
    const [t] = (await loadTemplates([path.join(dir, 'randstr.yaml')], {}, { lazy: true })).templates;
    const value = /\/([A-Za-z0-9]{20,})"/.exec(t.raw)?.[1];
    expect(value).toBeTruthy();
    expect(t.source).toContain('{{randstr}}');
    expect(t.http[0].path).toEqual([`{{BaseURL}}/${value}`]);
    expect(t.http[0].matchers[0].words).toEqual([value]);
  });

  it("keeps a {{randstr}} file's drawn values, not its text: raw is made again with the same values", async () => {
    const text = `id: rand-two\ninfo:\n  name: probe {{randstr_a}}\n  author: alice\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/{{randstr_a}}/{{randstr}}"]\n`;
    for (const name of ['rand-two.yaml', 'rand-changed.yaml']) write(name, text);
    const [t, changed] = (
      await loadTemplates(
        ['rand-two.yaml', 'rand-changed.yaml'].map((n) => path.join(dir, n)),
        {},
        { lazy: true },
      )
    ).templates;
    const a = /^probe ([A-Za-z0-9]{27})$/.exec(t.info.name)?.[1];
    expect(a).toBeTruthy();
    expect(Object.hasOwn(t, 'raw')).toBe(false);
    const raw = t.raw; // made from the file again, with the values the metadata was read with
    expect(raw).toContain(`name: probe ${a}\n`);
    expect(raw).not.toContain('{{randstr');
    expect(t.raw).toBe(raw);
    expect(t.source).toBe(text);
    expect(compileTemplate(t)).toEqual({ issues: [], warnings: [] });
    expect(t.http[0].path).toEqual([expect.stringMatching(new RegExp(`^\\{\\{BaseURL\\}\\}/${a}/[A-Za-z0-9]{27}$`))]);
    expect(t.raw).toBe(raw);
    expect(plain(t)).toMatchObject({ raw, source: text });
    expect(changed.info.name).not.toBe(t.info.name); // its own values

    // Changed since the load: neither text is what the metadata came from.
    write('rand-changed.yaml', text.replace('GET', 'POST'));
    expect(changed.source).toBe('');
    expect(changed.raw).toBe('');
    expect(compileTemplate(changed).issues).toEqual([
      { file: changed.path, field: '', reason: 'the file changed since the templates were loaded: load them again' },
    ]);
    rmSync(path.join(dir, 'rand-two.yaml'));
    rmSync(path.join(dir, 'rand-changed.yaml'));
  });

  it('reports problems past id/info when compiled; reading the request throws; a scan skips it and says why', async () => {
    const [t] = (await loadTemplates([path.join(dir, 'late-error.yaml')], {}, { lazy: true })).templates;
    expect(compileTemplate(t).issues).toEqual([
      { file: t.path, field: 'http[0].methd', reason: 'unknown field (did you mean "method"?)' },
    ]);
    expect(() => t.http).toThrow(/late-error.*is invalid: http\[0\]\.methd: unknown field/);
    const notices: string[] = [];
    const stats = await runScan({
      targets: [base],
      templates: [t],
      rateLimit: 0,
      onResult: () => {},
      onNotice: (m) => notices.push(m),
    });
    expect(stats.skippedTemplates).toBe(1);
    expect(notices).toEqual([
      'skipped template late-error: it is invalid (http[0].methd: unknown field (did you mean "method"?))',
    ]);
  });

  it('checks the signature before compiling: an unsigned javascript template is refused, not found invalid', async () => {
    const [t] = (await loadTemplates([path.join(dir, 'unsigned-js.yaml')], {}, { lazy: true })).templates;
    const notices: string[] = [];
    const stats = await runScan({
      targets: [base],
      templates: [t],
      onResult: () => {},
      onNotice: (m) => notices.push(m),
    });
    expect(stats.refusedUnsigned).toBe(1);
    expect(notices).toEqual(['refused template unsigned-js: it is a javascript template not signed by a trusted key']);
    // With unsigned templates allowed, the compile runs and finds the error.
    notices.length = 0;
    await runScan({
      targets: [base],
      templates: [t],
      allowUnsigned: true,
      onResult: () => {},
      onNotice: (m) => notices.push(m),
    });
    expect(notices[0]).toMatch(/^skipped template unsigned-js: it is invalid \(javascript\[0\]\.nonsense-field: /);
  });

  it('keeps no text: reads the file again on first use, and fails a file changed or gone since the load', async () => {
    const text = `${head('reread-one')}http:\n  - method: GET\n    path: ["{{BaseURL}}/x"]\n`;
    for (const name of ['reread.yaml', 'changed.yaml', 'gone.yaml']) write(name, text);
    const r = await loadTemplates(
      ['reread.yaml', 'changed.yaml', 'gone.yaml'].map((n) => path.join(dir, n)),
      {},
      { lazy: true },
    );
    const [same, changed, gone] = r.templates;
    expect(Object.hasOwn(same, 'raw')).toBe(false);
    expect(same.raw).toBe(text); // read and checked before compiling (the signature gate reads it so)
    expect(compileTemplate(same)).toEqual({ issues: [], warnings: [] });
    expect(Object.getOwnPropertyDescriptor(same, 'raw')).toMatchObject({ value: text, enumerable: true });
    expect(same.http[0].path).toEqual(['{{BaseURL}}/x']);

    // A changed file: what the metadata came from is gone, so the compile fails and no text is read.
    write('changed.yaml', text.replace('/x"', '/y"'));
    expect(compileTemplate(changed).issues).toEqual([
      { file: changed.path, field: '', reason: 'the file changed since the templates were loaded: load them again' },
    ]);
    expect(changed.raw).toBe('');
    expect(() => changed.http).toThrow(/reread-one .* is invalid: \(template\): the file changed/);
    rmSync(path.join(dir, 'gone.yaml'));
    expect(gone.raw).toBe('');
    expect(compileTemplate(gone).issues).toEqual([{ file: gone.path, field: '', reason: 'cannot read: ENOENT' }]);
    rmSync(path.join(dir, 'reread.yaml'));
    rmSync(path.join(dir, 'changed.yaml'));
  });

  it('scans with lazy templates as with fully parsed ones', async () => {
    const scan = async (lazy: boolean) => {
      const r = await loadTemplates([path.join(dir, 'http.yaml'), path.join(dir, 'dns.yaml')], {}, { lazy });
      const events: ResultEvent[] = [];
      await runScan({ targets: [base], templates: r.templates, rateLimit: 0, onResult: (e) => events.push(e) });
      return events.map((e) => [e['template-id'], e['matched-at'], e['matcher-status']]);
    };
    const eager = await scan(false);
    expect(eager).toEqual([['http-one', `${base}/admin`, true]]);
    expect(await scan(true)).toEqual(eager);
  });
});

describe.skipIf(!hasShared('corpus/nuclei-templates'))('lazy loading of the nuclei-templates corpus', () => {
  it('gives every template the metadata and, compiled, the fields of a full parse', { timeout: 300_000 }, async () => {
    const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/nuclei-templates');
    const opts = { missingPayloadFile: 'warn' as const };
    const eager = await loadTemplates([corpus], {}, opts);
    const lazy = await loadTemplates([corpus], {}, { ...opts, lazy: true });
    const byPath = new Map(eager.templates.map((t) => [t.path, t]));
    const invalid = new Set(eager.issues.map((i) => i.file));
    expect(lazy.skipped).toEqual(eager.skipped);
    let compared = 0;
    for (const t of lazy.templates) {
      const e = byPath.get(t.path);
      const { issues } = compileTemplate(t);
      if (!e) {
        // Valid for the metadata, invalid in full: the compile finds what the full load found.
        expect(invalid.has(t.path)).toBe(true);
        expect(issues.length).toBeGreaterThan(0);
        continue;
      }
      expect(issues).toEqual([]);
      expect([t.id, t.info, t.type, t.selfContained]).toEqual([e.id, e.info, e.type, e.selfContained]);
      if (t.source !== undefined) continue; // {{randstr}}: random per load
      expect(plain(t)).toEqual(plain(e));
      compared++;
    }
    expect(lazy.valid + lazy.invalid).toBe(eager.valid + eager.invalid);
    expect(compared).toBeGreaterThan(10_000);
  });
});
