// Workflows through `vigil scan` against a real server: subtemplates run only under the matcher names
// that fired (tags and paths both), plain subtemplates only after a result, and every template reports
// under its own id. Paths resolve from the templates root and never leave it.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { repoRoot } from '../../helpers/process.ts';

const t = (id: string, tags: string, p: string, matchers: string) => `id: ${id}
info: { name: ${id}, author: vigil, severity: info, tags: ${tags} }
http:
  - method: GET
    path: ["{{BaseURL}}${p}"]
    matchers:
${matchers}`;

describe('workflows in vigil scan', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vigil-wf-'));
    for (const d of ['http', 'workflows']) mkdirSync(path.join(dir, d));
    const w = (f: string, text: string) => writeFileSync(path.join(dir, f), text);
    w(
      'http/tech.yaml',
      t(
        'tech',
        'tech',
        '/',
        `      - type: word\n        name: wordpress\n        words: [wp-content]\n      - type: word\n        name: drupal\n        words: [Drupal.settings]\n`,
      ),
    );
    w('http/wp-vuln.yaml', t('wp-vuln', 'wordpress', '/wp-vuln', '      - type: word\n        words: [vulnerable]\n'));
    w('http/wp-other.yaml', t('wp-other', 'wordpress', '/wp-other', '      - type: status\n        status: [200]\n'));
    w(
      'http/drupal-vuln.yaml',
      t('drupal-vuln', 'drupal', '/drupal-vuln', '      - type: status\n        status: [200]\n'),
    );
    w('http/gate.yaml', t('gate', 'misc', '/gate', '      - type: word\n        words: [open-sesame]\n'));
    w('http/after-gate.yaml', t('after-gate', 'misc', '/after-gate', '      - type: status\n        status: [200]\n'));
    w(
      'workflows/wf.yaml',
      `id: site-workflow
info: { name: site workflow, author: vigil }
workflows:
  - template: http/tech.yaml
    matchers:
      - name: wordpress
        subtemplates:
          - tags: wordpress
      - name: drupal
        subtemplates:
          - template: http/drupal-vuln.yaml
  - template: http/gate.yaml
    subtemplates:
      - template: http/after-gate.yaml
  - template: ../../../etc/passwd
`,
    );
    server = await startHttpServer((req, res) => {
      if (req.url === '/') return res.end('<link href="/wp-content/x.css">');
      if (req.url === '/wp-vuln') return res.end('vulnerable');
      if (req.url === '/gate') return res.end('closed');
      res.end('ok');
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the tree by matcher names and results', async () => {
    const out = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          path.join(repoRoot, 'bin/vigil.mjs'),
          'scan',
          '-t',
          path.join(dir, 'workflows/wf.yaml'),
          '-u',
          server.url,
          '-j',
          '-rl',
          '0',
        ],
        { cwd: repoRoot, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
      );
    });
    expect(out.code, out.stderr).toBe(0);
    const events = out.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(events.map((e) => `${e['template-id']}${e['matcher-name'] ? `:${e['matcher-name']}` : ''}`).sort()).toEqual([
      'tech:wordpress',
      'wp-other',
      'wp-vuln',
    ]);
    expect(server.requests.map((r) => r.url).sort()).toEqual(['/', '/gate', '/wp-other', '/wp-vuln']);
  });
});
