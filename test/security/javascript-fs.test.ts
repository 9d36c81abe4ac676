// nuclei/fs against the ways out of the templates folder: `..`, absolute paths, symlinks (to a file, to
// a folder), files that are not regular (a FIFO, which would block a reader), files past the size cap,
// folders past the listing cap, a script reading past the per-run cap, and templates that have no folder
// at all (text given to the engine, as the platform's stored templates are): each is refused with a
// reason, and the secret outside the folder never reaches the result.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../src/engine/template/index.ts';
import { parseTemplate } from '../../src/engine/template/parse.ts';
import { runScan } from '../../src/engine/runner.ts';
import type { Template } from '../../src/engine/template/types.ts';
import { FS_LIMITS } from '../../src/engine/protocols/javascript/modules/fs.ts';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-FOLDER';
let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'vigil-jsfs-'));
  root = path.join(base, 'templates');
  mkdirSync(path.join(base, 'outside/dir'), { recursive: true });
  writeFileSync(path.join(base, 'outside/secret.txt'), SECRET);
  writeFileSync(path.join(base, 'outside/dir/x.txt'), SECRET);
  mkdirSync(path.join(root, 'ok'), { recursive: true });
  writeFileSync(path.join(root, '.nuclei-ignore'), '');
  writeFileSync(path.join(root, 'ok/data.txt'), 'hello');
  symlinkSync('../outside/secret.txt', path.join(root, 'link-file'));
  symlinkSync(path.join(base, 'outside/dir'), path.join(root, 'link-dir'));
  symlinkSync('ok/data.txt', path.join(root, 'inner-link'));
  writeFileSync(path.join(root, 'big'), Buffer.alloc(FS_LIMITS.maxFile + 1, 0x41));
  mkdirSync(path.join(root, 'bulk'));
  const mib = Buffer.alloc(FS_LIMITS.maxFile, 0x41);
  for (let i = 0; i <= FS_LIMITS.maxTotal / FS_LIMITS.maxFile; i++)
    writeFileSync(path.join(root, 'bulk', `m${i}`), mib);
  mkdirSync(path.join(root, 'many'));
  for (let i = 0; i <= FS_LIMITS.maxEntries; i++) writeFileSync(path.join(root, 'many', `f${i}`), 'x');
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

function text(id: string, call: string): string {
  return `id: ${id}
info: { name: ${id}, author: vigil, severity: info }
javascript:
  - code: |
      const fs = require('nuclei/fs');
      let r;
      try { r = 'read: ' + JSON.stringify(${call}); } catch (e) { r = 'blocked: ' + e.message; }
      r
    matchers:
      - type: dsl
        dsl: ["true"]
`;
}

/** Written into the templates folder and loaded from disk, as `vigil scan -t` does. */
async function fromDisk(id: string, call: string, sub = ''): Promise<Template> {
  const file = path.join(root, sub, `${id}.yaml`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text(id, call));
  const { templates, issues } = await loadTemplates([file]);
  expect(issues).toEqual([]);
  return templates[0]!;
}

async function responseOf(t: Template): Promise<string> {
  const events: { response?: unknown }[] = [];
  await runScan({
    targets: ['127.0.0.1'],
    templates: [t],
    allowUnsigned: true, // hand-written templates carry no signature
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  expect(events).toHaveLength(1);
  return String(events[0]!.response);
}

describe('nuclei/fs: confined to the templates folder', () => {
  it('reads inside the folder (relative to it, from a template in a subfolder, through an inner link)', async () => {
    expect(await responseOf(await fromDisk('in1', `fs.ReadFileAsString('ok/data.txt')`, 'sub/deeper'))).toBe(
      'read: "hello"',
    );
    expect(await responseOf(await fromDisk('in2', `fs.ReadFileAsString('inner-link')`))).toBe('read: "hello"');
    expect(await responseOf(await fromDisk('in3', `fs.ReadFileAsString('${root}/ok/data.txt')`))).toBe('read: "hello"');
  });

  it.each([
    ['dotdot', `fs.ReadFileAsString('../outside/secret.txt')`, /outside the templates folder/],
    ['dotdot2', `fs.ReadFileAsString('ok/../../outside/secret.txt')`, /outside the templates folder/],
    ['abs', `fs.ReadFileAsString('/etc/passwd')`, /outside the templates folder/],
    ['absout', `fs.ReadFile('${'BASE'}/outside/secret.txt')`, /outside the templates folder/],
    ['lnfile', `fs.ReadFileAsString('link-file')`, /leads outside the templates folder/],
    ['lndir', `fs.ListDir('link-dir')`, /leads outside the templates folder/],
    ['lndirfile', `fs.ReadFileAsString('link-dir/x.txt')`, /leads outside the templates folder/],
    ['lsout', `fs.ReadFilesFromDir('../outside')`, /outside the templates folder/],
    ['root', `fs.ListDir('/')`, /outside the templates folder/],
    ['nul', `fs.ReadFile('ok/data.txt\\u0000x')`, /NUL byte/],
    ['fifo', `fs.ReadFile('fifo')`, /not a regular file/],
    ['dir', `fs.ReadFile('ok')`, /not a regular file/],
    ['big', `fs.ReadFile('big')`, /more than 1048576/],
    ['many', `fs.ListDir('many')`, /more than 1000 entries/],
    ['total', `fs.ReadFilesFromDir('bulk')`, /more than 16777216 bytes read in one script/],
  ])('%s is refused', async (id, call, reason) => {
    const r = await responseOf(await fromDisk(`out-${id}`, call.replace('BASE', base)));
    expect(r).toMatch(/^blocked: fs: /);
    expect(r).toMatch(reason);
    expect(r).not.toContain(SECRET);
  });

  it('a template given as text (an upload; the platform parses its stored templates so) reads nothing', async () => {
    for (const opts of [{}, { payloadFiles: { 'x.txt': ['a'] } }]) {
      const res = parseTemplate(text('astext', `fs.ReadFileAsString('ok/data.txt')`), 'javascript/astext.yaml', opts);
      expect(res.issues).toEqual([]);
      const r = await responseOf(res.template!);
      expect(r).toMatch(/^blocked: fs: ok\/data.txt refused: this template was not read from a templates folder/);
    }
    // Even naming a real file inside a folder, by a path that would resolve.
    const res = parseTemplate(text('astext2', `fs.ReadFileAsString('${root}/ok/data.txt')`), path.join(root, 'x.yaml'));
    expect(await responseOf(res.template!)).toMatch(/not read from a templates folder/);
  });

  it('a folder without a checkout marker is its own root: the folder above it is outside', async () => {
    const plain = path.join(base, 'plain');
    mkdirSync(path.join(plain, 'inner'), { recursive: true });
    writeFileSync(path.join(plain, 'inner/t.yaml'), text('plain', `fs.ReadFileAsString('../outside/secret.txt')`));
    const { templates } = await loadTemplates([path.join(plain, 'inner')]);
    const r = await responseOf(templates[0]!);
    expect(r).toMatch(/outside the templates folder/);
    expect(r).not.toContain(SECRET);
  });
});
