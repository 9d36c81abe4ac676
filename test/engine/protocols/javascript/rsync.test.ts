// nuclei/rsync and the corpus's rsync templates against Debian's rsync daemon on 127.0.0.1 (a module
// made for the test); skipped with a message when rsync is not installed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { unsupportedReason } from '../../../../src/engine/runner.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { installed, startService, type Service } from '../../../helpers/services.ts';
import { scanEvents } from './scan.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const have = installed('rsync');
if (!have) console.warn('skipping the rsync module tests: rsync is not installed (apt-get install rsync)');

async function corpus(...files: string[]): Promise<Template[]> {
  const { templates } = await loadTemplates(files.map((f) => path.join(CORPUS, f)));
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  return templates;
}

const scan = (templates: Template[], target: string) => scanEvents(templates, target, { timeout: 2 });

describe.skipIf(!have || !hasShared('corpus/nuclei-templates'))('nuclei/rsync', () => {
  let dir: string;
  let daemon: Service;
  let other: net.Server;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-rsyncd-'));
    writeFileSync(
      path.join(dir, 'rsyncd.conf'),
      `use chroot = no\npid file = ${dir}/pid\n[vigilshare]\n  path = ${dir}\n  comment = vigil test share\n  read only = yes\n`,
    );
    daemon = await startService('rsync', [
      '--daemon',
      '--no-detach',
      '--address=127.0.0.1',
      '--port={port}',
      `--config=${dir}/rsyncd.conf`,
    ]);
    other = net.createServer((s) => {
      s.on('error', () => {});
      s.end('220 not rsync\r\n');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(() => {
    daemon?.stop();
    other?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the daemon: version and module list extracted', async () => {
    const ts = await corpus('enumeration/rsync/rsync-version.yaml', 'enumeration/rsync/rsync-list-modules.yaml');
    const events = await scan(ts, `127.0.0.1:${daemon.port}`);
    const by = new Map(events.map((e) => [e['template-id'], e]));
    expect([...by.keys()].sort()).toEqual(['rsync-list-modules', 'rsync-version']);
    expect(by.get('rsync-version')!['extracted-results']![0]).toMatch(/^\d+\.\d+/);
    expect(String(by.get('rsync-list-modules')!['extracted-results'])).toMatch(/vigilshare/);
  });

  it('a server that is not rsync matches neither', async () => {
    const ts = await corpus('enumeration/rsync/rsync-version.yaml', 'enumeration/rsync/rsync-list-modules.yaml');
    const events = await scan(ts, `127.0.0.1:${(other.address() as net.AddressInfo).port}`);
    expect(events).toEqual([]);
  });
});
