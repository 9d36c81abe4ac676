// The javascript protocol's core against real servers on 127.0.0.1: args and template variables, Export
// and ExportAs, the completion value as response, pre-condition, payloads with threads and
// stop-at-first-match, and the nuclei/net, nuclei/bytes and nuclei/structs modules.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../../src/engine/template/parse.ts';
import { runScan, unsupportedReason } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { loadTemplates } from '../../../../src/engine/template/index.ts';
import { startHttpServer } from '../../../helpers/targets.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';

function tpl(body: string, id = 'js-test'): Template {
  const res = parseTemplate(`id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n${body}`, `${id}.yaml`);
  expect(res.issues).toEqual([]);
  expect(unsupportedReason(res.template!)).toBeUndefined();
  return res.template!;
}

async function scan(templates: Template[], targets: string[]): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  // Hand-written templates carry no signature: allowed here (signatures are tested in test/engine/template).
  await runScan({
    targets,
    templates,
    allowUnsigned: true,
    rateLimit: 0,
    timeout: 3,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return events;
}

describe('javascript protocol', () => {
  let server: net.Server;
  let port = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    // Greets, answers "LOGIN user pass" with OK only for admin/s3cret, echoes "ECHO x", hex ff01 -> PONG.
    server = net.createServer((sock) => {
      sock.write('220 vigil-test ready\r\n');
      sock.on('data', (d) => {
        const line = d.toString('latin1');
        seen.push(line);
        if (line.startsWith('\xff\x01')) sock.end('PONG');
        else if (line.startsWith('LOGIN ')) sock.write(line.trim() === 'LOGIN admin s3cret' ? 'OK\r\n' : 'DENIED\r\n');
        else if (line.startsWith('ECHO ')) sock.end(line.slice(5));
      });
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => server.close());

  it('runs code with args, reads the completion value as response, extracts from it', async () => {
    const t = tpl(`
variables:
  word: vigil
javascript:
  - pre-condition: |
      isPortOpen(Host, Port);
    code: |
      const c = require('nuclei/net');
      const conn = c.Open('tcp', Host + ':' + Port);
      const banner = conn.RecvString();
      conn.Send('ECHO ' + Word + '-' + template.word);
      banner.trim() + ' / ' + conn.RecvFullString()
    args:
      Host: "{{Host}}"
      Port: "1"
      Word: "{{to_upper(word)}}"
    matchers:
      - type: word
        words: ["VIGIL-vigil"]
    extractors:
      - type: regex
        regex: ["220 ([a-z-]+)"]
        group: 1
`);
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
    expect(events[0]!['matched-at']).toBe(`127.0.0.1:${port}`);
    expect(events[0]!['extracted-results']).toEqual(['vigil-test']);
  });

  it('Export makes the response, success is whether anything was exported; ExportAs names a value', async () => {
    const t = tpl(`
javascript:
  - code: |
      const c = require('nuclei/net');
      const b = require('nuclei/bytes');
      const s = require('nuclei/structs');
      const conn = c.Open('tcp', Host + ':' + Port);
      conn.RecvString();
      const buf = b.NewBuffer();
      buf.Write(s.Pack('>H', [0xff01]));
      conn.SendHex(buf.Hex());
      const got = conn.RecvFull();
      ExportAs('size', s.StructsCalcSize('<HIq'));
      ExportAs('first', s.Unpack('>H', got.slice(0, 2))[0]);
      Export(ToString(got));
    args:
      Host: "{{Host}}"
      Port: "1"
    matchers-condition: and
    matchers:
      - type: dsl
        dsl:
          - success == true && response == "PONG" && size == "14" && first == "20559"
`);
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
  });

  it('a failing pre-condition runs nothing', async () => {
    const before = seen.length;
    const t = tpl(`
javascript:
  - pre-condition: |
      false
    code: |
      const c = require('nuclei/net');
      c.Open('tcp', Host + ':' + Port).Send('ECHO never');
      true
    args:
      Host: "{{Host}}"
      Port: "1"
    matchers:
      - type: dsl
        dsl: ["success"]
`);
    expect(await scan([t], [`127.0.0.1:${port}`])).toEqual([]);
    expect(seen.slice(before)).toEqual([]);
  });

  /** A clusterbomb of user x password logins over nuclei/net, with one more option of the request. */
  const loginTemplate = (option: string) => `
javascript:
  - code: |
      const c = require('nuclei/net');
      const conn = c.Open('tcp', Host + ':' + Port);
      conn.RecvString();
      conn.Send('LOGIN ' + User + ' ' + Pass + '\\r\\n');
      conn.RecvString().trim() === 'OK'
    args:
      Host: "{{Host}}"
      Port: "1"
      User: "{{user}}"
      Pass: "{{pass}}"
    payloads:
      user: [admin, root]
      pass: [toor, s3cret, admin]
    attack: clusterbomb
    ${option}
    matchers:
      - type: dsl
        dsl: ["response == true"]
`;

  it('payloads stop at the first match', async () => {
    const before = seen.length;
    const t = tpl(loginTemplate('stop-at-first-match: true'));
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
    // admin/toor, then admin/s3cret matched: nothing after it.
    expect(seen.slice(before).filter((l) => l.startsWith('LOGIN'))).toEqual([
      'LOGIN admin toor\r\n',
      'LOGIN admin s3cret\r\n',
    ]);
  });

  it('payloads run in threads, each combination once', async () => {
    const before = seen.length;
    const t = tpl(loginTemplate('threads: 3'));
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
    expect(
      seen
        .slice(before)
        .filter((l) => l.startsWith('LOGIN'))
        .sort(),
    ).toHaveLength(6);
  });

  it('a script error is an error, not a match; fs is refused; an unknown module is refused before running', async () => {
    const t = tpl(`
javascript:
  - code: |
      require('nuclei/fs').ReadFile('/etc/passwd')
    args:
      Host: "{{Host}}"
    matchers:
      - type: dsl
        dsl: ["success"]
      - type: word
        part: error
        words: ["refused"]
`);
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1); // the word matcher on `error`
    const r = parseTemplate(
      `id: x\ninfo: { name: x, author: vigil, severity: info }\njavascript:\n  - code: |\n      require('nuclei/vnc')\n`,
      'x.yaml',
    );
    expect(unsupportedReason(r.template!)).toMatch(/nuclei\/vnc/);
  });
});

describe('javascript blocks in flows', () => {
  it("the corpus's cookies-without-secure: http() then javascript() reading template.http_all_headers", async () => {
    if (!hasShared('corpus/nuclei-templates')) return;
    const file = `${sharedDir}/corpus/nuclei-templates/http/misconfiguration/cookies-without-secure.yaml`;
    const { templates } = await loadTemplates([file]);
    expect(unsupportedReason(templates[0]!)).toBeUndefined();
    const insecure = await startHttpServer((_req, res) => {
      res.setHeader('Set-Cookie', ['sid=abc; HttpOnly', 'pref=dark; Secure']);
      res.end('ok');
    });
    const secure = await startHttpServer((_req, res) => {
      res.setHeader('Set-Cookie', ['sid=abc; Secure; HttpOnly']);
      res.end('ok');
    });
    try {
      const hit = await scan(templates, [insecure.url]);
      expect(hit).toHaveLength(1);
      expect(hit[0]!['extracted-results']).toEqual(['sid']);
      expect(await scan(templates, [secure.url])).toEqual([]);
    } finally {
      await insecure.close();
      await secure.close();
    }
  });
});

describe('javascript module limits', () => {
  it('a script may make many module calls in a row: closed connections do not count against its limit', async () => {
    const redisUp = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: 6379 }, () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (!redisUp) return console.warn('skipped: no Redis on 127.0.0.1:6379');
    const t = tpl(`
javascript:
  - code: |
      const r = require('nuclei/redis');
      let n = 0;
      for (let i = 0; i < 100; i++) if (r.GetServerInfo(Host, Port).includes('redis_version')) n++;
      n
    args:
      Host: "{{Host}}"
      Port: "6379"
    matchers:
      - type: dsl
        dsl: ["response == 100"]
`);
    expect(await scan([t], ['127.0.0.1:6379'])).toHaveLength(1);
  });
});
