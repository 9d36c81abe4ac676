// nuclei/ssh and the corpus's SSH templates against Debian's sshd on 127.0.0.1, started by the test on a
// free port with keys made for it: one server with password logins on, a 1024-bit RSA host key and a CBC
// cipher enabled, one with password logins off and an Ed25519 key. Skipped (with a message) when
// openssh-server is not installed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { parseTemplate } from '../../../../src/engine/template/parse.ts';
import { unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { installed, startService, type Service } from '../../../helpers/services.ts';
import { scanEvents } from './scan.ts';

const SSHD = '/usr/sbin/sshd';
const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates/javascript');
const canRun = installed(SSHD) && installed('ssh-keygen') && process.getuid?.() === 0;
if (!canRun)
  console.warn('skipping the ssh module tests: they need openssh-server (apt-get install openssh-server) and root');

async function corpus(...files: string[]): Promise<Template[]> {
  const { templates } = await loadTemplates(files.map((f) => path.join(CORPUS, f)));
  for (const t of templates) expect(unsupportedReason(t)).toBeUndefined();
  return templates;
}

/** Corpus templates are checked against their signatures; a hand-written one is allowed unsigned. */
const scan = (templates: Template[], target: string, allowUnsigned = false) =>
  scanEvents(templates, target, { timeout: 5, allowUnsigned });

const ids = (events: ResultEvent[]) => [...new Set(events.map((e) => e['template-id']))].sort();

describe.skipIf(!canRun || !hasShared('corpus/nuclei-templates'))('nuclei/ssh', () => {
  let dir: string;
  let open: Service;
  let closed: Service;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-sshd-'));
    mkdirSync('/run/sshd', { recursive: true }); // sshd's privilege separation directory
    const keygen = (type: string, bits: string[], file: string) =>
      execFileSync('ssh-keygen', ['-q', '-t', type, ...bits, '-N', '', '-C', 'vigil-test', '-f', path.join(dir, file)]);
    keygen('rsa', ['-b', '1024'], 'rsa');
    keygen('ed25519', [], 'ed');
    keygen('ed25519', [], 'client');
    writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client.pub')));
    const config = (name: string, lines: string[]) => {
      const file = path.join(dir, name);
      writeFileSync(
        file,
        [
          'Port PORT_HERE',
          'ListenAddress 127.0.0.1',
          'UsePAM no',
          'StrictModes no',
          `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
          `PidFile ${path.join(dir, name)}.pid`,
          ...lines,
        ].join('\n') + '\n',
      );
      return file;
    };
    const a = config('open', [
      `HostKey ${path.join(dir, 'rsa')}`,
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin yes',
      'Ciphers +aes128-cbc',
    ]);
    const b = config('closed', [
      `HostKey ${path.join(dir, 'ed')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
    ]);
    // startService picks the port ($0 of the shell); the config gets it, then the shell becomes sshd.
    const start = (file: string) =>
      startService('sh', [
        '-c',
        `sed "s/PORT_HERE/$0/" ${file} > ${file}.$0 && exec ${SSHD} -D -e -f ${file}.$0`,
        '{port}',
      ]);
    open = await start(a);
    closed = await start(b);
  });
  afterAll(() => {
    open?.stop();
    closed?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('password logins on, weak key and CBC: the corpus checks match, with extracted values', async () => {
    const ts = await corpus(
      'enumeration/ssh/ssh-password-auth.yaml',
      'detection/ssh-auth-methods.yaml',
      'enumeration/ssh/ssh-server-enumeration.yaml',
      'misconfiguration/ssh/ssh-weak-public-key.yaml',
      'misconfiguration/ssh/ssh-cbc-mode-ciphers.yaml',
      'enumeration/ssh/ssh-sha1-hmac-algo.yaml',
      'misconfiguration/ssh/ssh-weak-algo-supported.yaml',
    );
    const events = await scan(ts, `127.0.0.1:${open.port}`);
    expect(ids(events)).toEqual(
      [
        'ssh-auth-methods',
        'ssh-cbc-mode-ciphers',
        'ssh-password-auth',
        'ssh-server-enumeration',
        'ssh-sha1-hmac-algo',
        'ssh-weak-public-key',
      ].sort(),
    );
    const by = new Map(events.map((e) => [e['template-id'], e]));
    expect(by.get('ssh-server-enumeration')!['extracted-results']![0]).toMatch(/^SSH-2\.0-OpenSSH_\d/);
    expect(by.get('ssh-auth-methods')!['extracted-results']!.join(' ')).toMatch(/password/);
  });

  it('password logins off, Ed25519 key: the password, weak-key and default-login checks do not match', async () => {
    const ts = await corpus(
      'enumeration/ssh/ssh-password-auth.yaml',
      'misconfiguration/ssh/ssh-weak-public-key.yaml',
      'misconfiguration/ssh/ssh-cbc-mode-ciphers.yaml',
      'default-logins/ssh-default-logins.yaml',
      'detection/ssh-auth-methods.yaml',
    );
    const events = await scan(ts, `127.0.0.1:${closed.port}`);
    expect(ids(events)).toEqual(['ssh-auth-methods']);
    expect(events[0]!['extracted-results']!.join(' ')).not.toMatch(/password/);
  });

  it('logs in with a key, runs a command; a wrong password is no match', async () => {
    const key = readFileSync(path.join(dir, 'client'), 'utf8');
    const res = parseTemplate(
      `id: ssh-key-run
info: { name: ssh-key-run, author: vigil, severity: info }
javascript:
  - code: |
      const c = require('nuclei/ssh').SSHClient();
      const wrong = (() => { try { return new (require('nuclei/ssh').SSHClient)().Connect(Host, Port, 'root', 'nope'); } catch (e) { return 'refused'; } })();
      c.ConnectWithKey(Host, Port, 'root', ${JSON.stringify(key)});
      const out = c.Run('echo vigil-$((6*7))');
      c.Close();
      wrong + ' ' + out.trim()
    args:
      Host: "{{Host}}"
      Port: "22"
    matchers:
      - type: word
        words: ["refused vigil-42"]
`,
      'ssh-key-run.yaml',
    );
    expect(res.issues).toEqual([]);
    const events = await scan([res.template!], `127.0.0.1:${open.port}`, true);
    expect(events).toHaveLength(1);
  });
});
