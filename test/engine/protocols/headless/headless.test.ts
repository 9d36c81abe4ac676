// The headless protocol in Debian's Chromium against pages served on 127.0.0.1: the corpus's DOM XSS
// templates find a page with the sink and nothing on the same page without it; actions (script with
// hook, extract, text/click, setheader on requests and responses, screenshot) and the parts matchers see.
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClients, runScan } from '../../../../src/engine/runner.ts';
import { corpusTemplate, scanEvents, tpl } from '../../../helpers/templates.ts';
import { hasShared } from '../../../helpers/shared.ts';
import { CHROMIUM } from '../../../helpers/browser.ts';

if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\``);

// Retool's OAuth page as the CVE describes it: the fragment is JSON whose `subdomain` is written into the
// page with innerHTML (the sink). The safe page writes it with textContent.
const oauthPage = (sink: boolean) => `<!doctype html><html><head><title>Retool</title></head><body>
<div id="out"></div>
<script>
  const o = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  document.getElementById('out').${sink ? 'innerHTML' : 'textContent'} = 'Redirecting to ' + o.subdomain;
</script></body></html>`;

const seen: { url: string; headers: http.IncomingHttpHeaders; method: string }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers, method: req.method ?? '' });
    const [vuln, rest] = [req.url?.startsWith('/vuln'), (req.url ?? '').replace(/^\/(vuln|safe)/, '')];
    if (rest.startsWith('/oauth/authorize')) {
      res.setHeader('content-type', 'text/html');
      res.end(oauthPage(Boolean(vuln)));
    } else if (rest.startsWith('/search')) {
      // The query's `q`, decoded, written into the page by document.write (the sink) or as text.
      res.setHeader('content-type', 'text/html');
      res.end(`<html><body><div id="r"></div><script>
  const q = decodeURIComponent(new URLSearchParams(location.search).get('q') || '');
  ${vuln ? "document.write('<p>Results for ' + q + '</p>');" : "document.getElementById('r').textContent = 'Results for ' + q;"}
</script></body></html>`);
    } else if (rest.startsWith('/form')) {
      res.setHeader('content-type', 'text/html');
      res.setHeader('x-page', 'form');
      res.end(`<html><body><h1 id="t">Sign in</h1><a id="l" href="/next?x=1">next</a>
<input id="user"><button id="go" onclick="document.getElementById('t').textContent='hello '+document.getElementById('user').value">go</button>
<script>window.seenAgent = navigator.userAgent; window.ua = ${JSON.stringify(req.headers['x-probe'] ?? 'none')};</script></body></html>`);
    } else {
      res.setHeader('content-type', 'text/html');
      res.end('<html><body>plain</body></html>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await closeClients();
  await new Promise((r) => server.close(r));
});

describe.runIf(hasShared('corpus'))('corpus DOM XSS templates', () => {
  it('retool-dom-xss finds the innerHTML sink and nothing where the value is written as text', async () => {
    const t = corpusTemplate('headless/vulnerabilities/retool/retool-dom-xss.yaml');
    const hit = await scanEvents([t], [`${base}/vuln`]);
    expect(hit).toHaveLength(1);
    expect(hit[0]!['template-id']).toBe('retool-dom-xss');
    expect(hit[0]!.type).toBe('headless');
    expect(hit[0]!['matched-at']).toContain('/vuln/oauth/authorize');
    const none = await scanEvents([t], [`${base}/safe`]);
    expect(none).toEqual([]);
  }, 60_000);
});

describe.runIf(hasShared('corpus'))('fuzzing rules (the corpus dast DOM XSS template)', () => {
  it('dom-xss fuzzes the query into a document.write sink and finds it; the text-only page gives nothing', async () => {
    const t = corpusTemplate('dast/vulnerabilities/xss/dom-xss.yaml');
    const hit = await scanEvents([t], [`${base}/vuln/search?q=shoes&page=1`]);
    expect(hit).toHaveLength(1);
    expect(hit[0]!['matched-at']).toMatch(/\/vuln\/search\?q=shoes.*%3Cscript%3E/i);
    const none = await scanEvents([t], [`${base}/safe/search?q=shoes`]);
    expect(none).toEqual([]);
  }, 120_000);
});

describe('actions and parts', () => {
  it('script with a hook runs in the navigated document; extract, text, click and header rules work', async () => {
    const t = tpl(`id: actions
info: { name: actions, author: vigil, severity: info }
headless:
  - steps:
      - action: setheader
        args: { part: request, key: X-Probe, value: "probe-{{Hostname}}" }
      - action: addheader
        args: { part: response, key: X-Added, value: yes }
      - action: script
        args:
          hook: true
          code: "() => { window.hooked = 'hook-ran' }"
      - action: navigate
        args: { url: "{{BaseURL}}/form" }
      - action: waitload
      - action: text
        args: { by: x, xpath: "//input[@id='user']", value: vigil }
      - action: click
        args: { selector: "#go" }
      - action: extract
        name: title
        args: { selector: "#t" }
      - action: extract
        name: link
        args: { selector: "#l", target: attribute, attribute: href }
      - action: script
        name: probe
        args: { code: "() => window.hooked + ' ' + window.ua" }
    matchers:
      - type: dsl
        dsl:
          - title == "hello vigil"
          - link == "/next?x=1"
          - contains(probe, "hook-ran probe-127.0.0.1")
          - 'contains(to_lower(header), "x-added: yes") && contains(header, "x-page: form")'
          - status_code == "200"
        condition: and
      - type: word
        words: ['<h1 id="t">hello vigil</h1>']
        part: body
    matchers-condition: and
`);
    const events = await scanEvents([t], [base]);
    expect(events).toHaveLength(1);
    expect(
      seen.some((s) => s.url === '/form' && s.headers['x-probe'] === 'probe-127.0.0.1:' + new URL(base).port),
    ).toBe(true);
  }, 60_000);

  it('a page without the wanted value gives no finding (the matcher can fail)', async () => {
    const t = tpl(`id: nothing
info: { name: nothing, author: vigil, severity: info }
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}/plain" }
      - action: waitload
    matchers:
      - type: word
        words: ["Sign in"]
`);
    expect(await scanEvents([t], [base])).toEqual([]);
  }, 30_000);

  it('screenshot writes a PNG of the page inside the screenshot folder only', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-shot-'));
    try {
      const t = tpl(`id: shot
info: { name: shot, author: vigil, severity: info }
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}/form" }
      - action: waitload
      - action: screenshot
        args: { to: "shots/page", mkdir: "true", fullpage: "true" }
    matchers:
      - type: word
        words: ["Sign in"]
`);
      const events = await scanEvents([t], [base], { screenshotDir: dir });
      expect(events).toHaveLength(1);
      const png = readFileSync(path.join(dir, 'shots/page.png'));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.length).toBeGreaterThan(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('without a browser', () => {
  it('headless templates are counted as skipped and the missing browser is said once, with how to install it', async () => {
    const before = process.env.VIGIL_CHROMIUM;
    process.env.VIGIL_CHROMIUM = '/nonexistent/chromium';
    try {
      const page = (id: string) =>
        tpl(`id: ${id}
info: { name: ${id}, author: vigil, severity: info }
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}" }
    matchers: [{ type: word, words: [plain] }]
`);
      const notices: string[] = [];
      const skipped: string[] = [];
      const stats = await runScan({
        targets: [base],
        templates: [page('one'), page('two'), page('three')],
        rateLimit: 0,
        onResult: () => {},
        onNotice: (n) => notices.push(n),
        onTemplateSkipped: (id) => skipped.push(id),
      });
      expect(stats.skippedTemplates).toBe(3);
      expect(stats.templates).toBe(0);
      expect(skipped).toEqual(['one', 'two', 'three']);
      const said = notices.filter((n) => n.includes('chromium'));
      expect(said).toEqual([expect.stringContaining('apt-get install chromium')]);
    } finally {
      if (before === undefined) delete process.env.VIGIL_CHROMIUM;
      else process.env.VIGIL_CHROMIUM = before;
    }
  });
});
