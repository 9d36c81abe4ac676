// nuclei/fs on the platform: a catalogue template reads only the instance's corpus folder
// (VIGIL_TEMPLATES_DIR, the folder imported at start), never a file outside it (a `..` path, an absolute
// path, a symlink inside the folder leading out); a private template (text a user sent) reads nothing at
// all, not even inside the corpus folder; and without a corpus folder no template reads a file. Real
// scans through the API and the scan worker (in process, and on engine threads as `vigil serve` runs
// them); the secret outside the folder never reaches a result.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogue } from '../../src/platform/templates/catalogue.ts';
import { makeCatalogue, type Catalogue } from '../platform/templates/fixtures.ts';
import { createScanApp, type ScanTestApp } from '../platform/scans/fixtures.ts';
import { closeEngineThreads, useEngineThreads } from '../../src/platform/scans/engine-pool.ts';

const SECRET = 'PLATFORM-SECRET-OUTSIDE-THE-CORPUS';

function reader(id: string, file: string): string {
  return `id: ${id}
info: { name: ${id}, author: vigil, severity: info }
javascript:
  - code: |
      let r;
      try { r = 'read: ' + require('nuclei/fs').ReadFileAsString(${JSON.stringify(file)}); } catch (e) { r = 'blocked: ' + e.message; }
      r
    matchers:
      - type: dsl
        dsl: ["true"]
    extractors:
      - type: dsl
        dsl: [response]
`;
}

describe.each([
  [true, false],
  [false, false],
  [true, true],
])('nuclei/fs on the platform (corpus folder set: %s, engine threads as vigil serve: %s)', (withFolder, threads) => {
  let t: ScanTestApp;
  let cat: Catalogue;
  let outside: string;
  beforeAll(async () => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'vigil-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    cat = makeCatalogue({
      'helpers/data.txt': 'inside-the-corpus',
      'javascript/in.yaml': reader('fs-in', 'helpers/data.txt'),
      'javascript/dotdot.yaml': reader('fs-dotdot', `../${path.basename(outside)}/secret.txt`),
      'javascript/abs.yaml': reader('fs-abs', path.join(outside, 'secret.txt')),
      'javascript/link.yaml': reader('fs-link', 'helpers/link'),
    });
    writeFileSync(path.join(cat.dir, '.nuclei-ignore'), '');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(cat.dir, 'helpers/link'));
    if (threads) useEngineThreads(1);
    t = await createScanApp('pglite', withFolder ? { templatesDir: cat.dir } : {});
    await importCatalogue(t.ctx.db, cat.dir);
    // The templates are unsigned: the Owner lets the team's scans run them.
    const allow = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/settings',
      payload: { allow_unsigned_templates: true },
    });
    expect(allow.statusCode, allow.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    if (threads) await closeEngineThreads();
    cat?.cleanup();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  async function responses(payload: Record<string, unknown>): Promise<Record<string, string>> {
    const res = await t.request({ method: 'POST', url: '/v1/scans', payload: { targets: ['127.0.0.1'], ...payload } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    expect(await t.waitStatus(id, ['finished', 'failed'])).toMatchObject({ status: 'finished' });
    const { rows } = await t.ctx.db.query<{ template_id: string; event: { 'extracted-results'?: string[] } }>(
      'SELECT template_id, event FROM scan_results WHERE scan_id = $1',
      [id],
    );
    return Object.fromEntries(rows.map((r) => [r.template_id, String(r.event['extracted-results']?.[0])]));
  }

  it('catalogue templates: inside the corpus folder only', async () => {
    const got = await responses({ templates: ['javascript'] });
    expect(Object.keys(got).sort()).toEqual(['fs-abs', 'fs-dotdot', 'fs-in', 'fs-link']);
    expect(got['fs-in']).toBe(
      withFolder
        ? 'read: inside-the-corpus'
        : 'blocked: fs: helpers/data.txt refused: this template was not read from a templates folder, so it may not read files',
    );
    expect(got['fs-dotdot']).toMatch(
      withFolder ? /refused: it is outside the templates folder/ : /not read from a templates folder/,
    );
    expect(got['fs-abs']).toMatch(
      withFolder ? /refused: it is outside the templates folder/ : /not read from a templates folder/,
    );
    expect(got['fs-link']).toMatch(
      withFolder ? /refused: it leads outside the templates folder/ : /not read from a templates folder/,
    );
    expect(JSON.stringify(got)).not.toContain(SECRET);
  });

  it('a private template reads nothing, not even inside the corpus folder', async () => {
    const made = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: reader('fs-private', path.join(cat.dir, 'helpers/data.txt')), filename: 'p.yaml' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const got = await responses({ templates: [made.json().template_id] });
    expect(got['fs-private']).toMatch(/^blocked: fs: .* refused: this template was not read from a templates folder/);
  });
});
