// nuclei/pop3 and the corpus's pop3-capabilities-enum against Debian's dovecot on 127.0.0.1: one
// serving POP3 (IsPOP3 true with dovecot's greeting, the template matches with the capabilities or the
// greeting extracted) and one serving IMAP (neither). Skipped with a message when dovecot is not
// installed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import { runTemplateScript } from '../../../../src/engine/protocols/javascript/script.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { freePort, installed, waitForPort, FORKING_DAEMON_TIMEOUT_S } from '../../../helpers/services.ts';
import { dovecotCommand } from '../../../helpers/mail.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const have = installed('/usr/sbin/dovecot') && installed('/usr/lib/dovecot/pop3-login');
if (!have)
  console.warn(
    'skipping the pop3 module tests: dovecot is not installed (apt-get install dovecot-pop3d dovecot-imapd)',
  );

async function dovecot(dir: string, protocol: 'pop3' | 'imap') {
  const port = await freePort();
  const [cmd, ...args] = dovecotCommand(path.join(dir, protocol), protocol, port);
  const proc = spawn(cmd!, args, { stdio: 'ignore' });
  await waitForPort(port);
  return { port, proc };
}

async function scan(target: string): Promise<ResultEvent[]> {
  const { templates } = await loadTemplates([path.join(CORPUS, 'enumeration/pop3/pop3-capabilities-enum.yaml')]);
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  const events: ResultEvent[] = [];
  await runScan({
    targets: [target],
    templates,
    rateLimit: 0,
    timeout: FORKING_DAEMON_TIMEOUT_S,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return events;
}

const isPop3 = (port: number) =>
  runTemplateScript(`to_json(require('nuclei/pop3').IsPOP3(Host, Port))`, {
    args: { Host: '127.0.0.1', Port: String(port) },
    template: {},
    targetHost: '127.0.0.1',
    callTimeoutMs: FORKING_DAEMON_TIMEOUT_S * 1000,
    timeoutMs: 25_000,
  });

describe.skipIf(!have || !hasShared('corpus/nuclei-templates'))('nuclei/pop3', () => {
  let dir: string;
  let pop3: { port: number; proc: ChildProcess };
  let imap: { port: number; proc: ChildProcess };
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-dovecot-'));
    pop3 = await dovecot(dir, 'pop3');
    imap = await dovecot(dir, 'imap');
  });
  afterAll(async () => {
    // dovecot writes its state while it stops: the folder goes once both have exited.
    await Promise.all(
      [pop3, imap].map(
        (s) => s && new Promise((r) => (s.proc.exitCode !== null ? r(null) : (s.proc.once('exit', r), s.proc.kill()))),
      ),
    );
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("IsPOP3 reads dovecot's POP3 greeting; its IMAP service is not POP3", async () => {
    const yes = await isPop3(pop3.port);
    expect(JSON.parse(String(yes.response))).toEqual({ IsPOP3: true, Banner: 'Dovecot (Debian) ready.\r\n' });
    const no = await isPop3(imap.port);
    expect(no.error).toBeUndefined();
    expect(JSON.parse(String(no.response))).toEqual({ IsPOP3: false, Banner: '' });
  });

  it('pop3-capabilities-enum matches POP3 with what dovecot answered extracted, and not IMAP', async () => {
    const events = await scan(`127.0.0.1:${pop3.port}`);
    expect(events.map((e) => e['template-id'])).toEqual(['pop3-capabilities-enum']);
    // One read: the greeting alone, or the greeting and CAPA's answer together (as nuclei's RecvString).
    expect(String(events[0]!['extracted-results'])).toMatch(/Dovecot \(Debian\) ready|^CAPA .*USER/);
    expect(await scan(`127.0.0.1:${imap.port}`)).toEqual([]);
  });
});
