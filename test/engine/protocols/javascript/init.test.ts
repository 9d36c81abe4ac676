// A javascript block's `init` (run once before the requests; `updatePayload`, `set`) and nuclei/fs
// (ListDir, ReadFile, ReadFileAsString, ReadFilesFromDir inside the templates folder), then the corpus's one
// template using both, CVE-2023-34039, against Debian's sshd: it tries the corpus's private keys as user
// `support@<Host>`, so each sshd runs in its own mount namespace with a passwd file naming that user
// (nothing of the machine's /etc changes), and matches only where a corpus key's public half is
// authorized. Also minecraft-enum (a block of only a pre-condition, then the code), as nuclei loads and
// runs it, against a TCP server on 127.0.0.1 answering Minecraft's legacy ping. The sshd part is skipped
// (with a message) without openssh-server, unshare or root.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';
import { installed, startService, type Service } from '../../../helpers/services.ts';
import { scanEvents } from './scan.ts';

const CORPUS = path.join(sharedDir, 'corpus/nuclei-templates');
const KEYS = path.join(CORPUS, 'helpers/payloads/cve-2023-34039-keys');

/** Corpus templates are checked against their signatures; a hand-written one is allowed unsigned. */
const scan = (templates: Template[], target: string, allowUnsigned = false) =>
  scanEvents(templates, target, { timeout: 5, allowUnsigned });

describe('javascript init and nuclei/fs', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'vigil-jsinit-'));
    writeFileSync(path.join(root, '.nuclei-ignore'), '');
    mkdirSync(path.join(root, 'helpers/words/sub'), { recursive: true });
    writeFileSync(path.join(root, 'helpers/words/b.txt'), 'beta');
    writeFileSync(path.join(root, 'helpers/words/a.txt'), 'alpha\n');
    writeFileSync(path.join(root, 'helpers/words/sub/c.txt'), 'not read');
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function load(id: string, block: string, sub = 'checks'): Promise<Template> {
    const file = path.join(root, sub, `${id}.yaml`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n${block}`);
    const { templates, issues } = await loadTemplates([file]);
    expect(issues).toEqual([]);
    expect(unsupportedReason(templates[0]!)).toBeUndefined();
    return templates[0]!;
  }

  it('updatePayload replaces a payload set with the files init read; every value runs once', async () => {
    const t = await load(
      'init-payload',
      `variables:
  dir: helpers/words
javascript:
  - init: |
      const fs = require('nuclei/fs');
      updatePayload('word', fs.ReadFilesFromDir(dir));
    code: |
      'got:' + word
    args:
      word: "{{word}}"
      dir: "{{dir}}"
    payloads:
      word: [dummy]
    matchers:
      - type: word
        words: ["got:"]
    extractors:
      - type: dsl
        dsl: [response]
`,
    );
    const events = await scan([t], '127.0.0.1', true);
    expect(events.map((e) => e['extracted-results']?.[0]).sort()).toEqual(['got:alpha\n', 'got:beta']);
  });

  it("fs's shapes: ListDir (all, files, folders, sorted), ReadFile bytes, ReadFileAsString; set() adds an arg", async () => {
    const t = await load(
      'fs-shapes',
      `javascript:
  - init: |
      set('extra', 'from-init');
    code: |
      const fs = require('nuclei/fs');
      const d = 'helpers/words';
      Export(JSON.stringify([fs.ListDir(d), fs.ListDir(d, 'file'), fs.ListDir(d, 'dir'), fs.ListDir(d + '/sub', 'dir'),
        fs.ReadFile(d + '/b.txt').length, fs.ReadFileAsString(d + '/a.txt'), extra]));
    matchers:
      - type: dsl
        dsl: ["true"]
`,
    );
    const events = await scan([t], '127.0.0.1', true);
    expect(JSON.parse(String(events[0]?.response))).toEqual([
      ['a.txt', 'b.txt', 'sub'],
      ['a.txt', 'b.txt'],
      ['sub'],
      null,
      4,
      'alpha\n',
      'from-init',
    ]);
  });

  it('a failed init (here updatePayload without payloads) is said, and the block still runs as written', async () => {
    const t = await load(
      'init-fails',
      `javascript:
  - init: |
      updatePayload('x', ['a']);
    code: |
      'ran'
    matchers:
      - type: word
        words: [ran]
`,
    );
    const events = await scan([t], '127.0.0.1', true);
    expect(events.map((e) => e.response)).toEqual(['ran']);
    // Without a match, the failure names the init's error (-ms).
    const t2 = await load(
      'init-fails-2',
      "javascript:\n  - init: |\n      updatePayload('x', ['a']);\n    code: |\n      'ran'\n    matchers:\n      - type: word\n        words: [never]\n",
    );
    const failed: ResultEvent[] = [];
    await runScan({
      targets: ['127.0.0.1'],
      templates: [t2],
      allowUnsigned: true,
      matcherStatus: true,
      timeout: 3,
      retries: 0,
      rateLimit: 0,
      onResult: (e) => failed.push(e),
    });
    expect(failed.map((e) => e.error)).toEqual(['init failed: payloads not defined and cannot be updated']);
  });
});

const canSsh =
  installed('/usr/sbin/sshd') && installed('ssh-keygen') && installed('unshare') && process.getuid?.() === 0;
if (!canSsh)
  console.warn('skipping CVE-2023-34039 against sshd: it needs openssh-server, unshare (util-linux) and root');

describe.skipIf(!canSsh || !hasShared('corpus/nuclei-templates/helpers/payloads/cve-2023-34039-keys'))(
  'CVE-2023-34039 (init, nuclei/fs, ssh keys) against sshd',
  () => {
    let dir: string;
    let vulnerable: Service;
    let safe: Service;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-sshd-init-'));
      mkdirSync('/run/sshd', { recursive: true });
      // The public half of one corpus key (ssh-keygen wants a private key file only its owner reads).
      const key = readdirSync(KEYS).sort()[3]!;
      copyFileSync(path.join(KEYS, key), path.join(dir, 'corpus-key'));
      chmodSync(path.join(dir, 'corpus-key'), 0o600);
      const corpusPub = execFileSync('ssh-keygen', ['-y', '-f', path.join(dir, 'corpus-key')]).toString();
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'other')]);
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host')]);
      // sshd reads them as that user: the folder and the key lists must be readable to it.
      writeFileSync(path.join(dir, 'vuln_keys'), corpusPub, { mode: 0o644 });
      writeFileSync(path.join(dir, 'safe_keys'), readFileSync(path.join(dir, 'other.pub')), { mode: 0o644 });
      chmodSync(dir, 0o755);
      // The template logs in as support@<Host>: a user only this sshd's mount namespace knows.
      writeFileSync(
        path.join(dir, 'passwd'),
        readFileSync('/etc/passwd', 'utf8') + 'support@127.0.0.1:x:4242:4242:vigil test:/nonexistent:/bin/sh\n',
      );
      const start = (name: string) => {
        const file = path.join(dir, name);
        writeFileSync(
          file,
          [
            'Port PORT_HERE',
            'ListenAddress 127.0.0.1',
            'UsePAM no',
            'StrictModes no',
            `HostKey ${path.join(dir, 'host')}`,
            `AuthorizedKeysFile ${path.join(dir, `${name}_keys`)}`,
            'PasswordAuthentication no',
            'KbdInteractiveAuthentication no',
            `PidFile ${file}.pid`,
          ].join('\n') + '\n',
        );
        return startService('unshare', [
          '--mount',
          'sh',
          '-c',
          `mount --bind ${path.join(dir, 'passwd')} /etc/passwd && sed "s/PORT_HERE/$0/" ${file} > ${file}.$0 && exec /usr/sbin/sshd -D -e -f ${file}.$0`,
          '{port}',
        ]);
      };
      vulnerable = await start('vuln');
      safe = await start('safe');
    });
    afterAll(() => {
      vulnerable?.stop();
      safe?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function cve(): Promise<Template[]> {
      const { templates } = await loadTemplates([path.join(CORPUS, 'javascript/cves/2023/CVE-2023-34039.yaml')]);
      expect(templates).toHaveLength(1);
      expect(unsupportedReason(templates[0]!)).toBeUndefined();
      return templates;
    }

    it('matches where a corpus key is authorized for support@Host', async () => {
      const events = await scan(await cve(), `127.0.0.1:${vulnerable.port}`);
      expect(events.map((e) => e['template-id'])).toEqual(['CVE-2023-34039']);
      expect(events[0]!['matched-at']).toBe(`127.0.0.1:${vulnerable.port}`);
    });

    it('does not match where only another key is authorized', async () => {
      expect(await scan(await cve(), `127.0.0.1:${safe.port}`)).toEqual([]);
    });
  },
);

describe.skipIf(!hasShared('corpus/nuclei-templates'))('minecraft-enum (a block of only a pre-condition)', () => {
  let server: net.Server;
  let port = 0;
  let mode: 'minecraft' | 'http' = 'minecraft';
  beforeAll(async () => {
    server = net.createServer((s) => {
      s.on('error', () => {});
      s.once('data', () => {
        if (mode === 'http') {
          s.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        // The legacy (1.4-1.6) ping answer: 0xff, a length, then UTF-16BE "§1\0proto\0version\0motd\0online\0max".
        const body = ['\u00a71', '127', '1.20.4', 'A Vigil test server', '3', '20'].join('\u0000');
        const text = Buffer.from(body, 'utf16le').swap16();
        const head = Buffer.from([0xff, 0, 0]);
        head.writeUInt16BE(body.length, 1);
        s.end(Buffer.concat([head, text]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server?.close());

  async function template(): Promise<Template[]> {
    const { templates, issues } = await loadTemplates([
      path.join(CORPUS, 'javascript/enumeration/minecraft-enum.yaml'),
    ]);
    expect(issues).toEqual([]);
    expect(unsupportedReason(templates[0]!)).toBeUndefined();
    return templates;
  }

  it('loads, and its second block reads the server (the first fails as in nuclei: it has no Host)', async () => {
    mode = 'minecraft';
    const events = await scan(await template(), `127.0.0.1:${port}`);
    expect(events.map((e) => e['template-id'])).toEqual(['minecraft-enum']);
    // The template cuts the answer at fixed offsets (its own logic); what it exports is its format.
    expect(String(events[0]!['extracted-results']?.[0])).toMatch(
      /^Version: .+ Description:.+ Online Players:\d Maximum Players:\d+$/,
    );
  });

  it('an HTTP server is no match', async () => {
    mode = 'http';
    expect(await scan(await template(), `127.0.0.1:${port}`)).toEqual([]);
  });
});
