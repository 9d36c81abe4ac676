// tcp blocks against real servers on 127.0.0.1 (dns, ssl: their own folders under test/engine/protocols/):
// TCP servers speaking small protocols (and the machine's own Redis, MariaDB, PostgreSQL and RabbitMQ when they
// run), TLS servers with certificates made for the test (self-signed, expired, wrong name).
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTemplate } from '../../../src/engine/template/parse.ts';
import { loadTemplates } from '../../../src/engine/template/index.ts';
import { runScan, unsupportedReason } from '../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../src/engine/output/types.ts';
import type { Template } from '../../../src/engine/template/types.ts';
import { hasShared, sharedDir } from '../../helpers/shared.ts';

function tpl(body: string, id = 'proto-test'): Template {
  const res = parseTemplate(`id: ${id}\ninfo: { name: ${id}, author: vigil, severity: info }\n${body}`, `${id}.yaml`);
  expect(res.issues).toEqual([]);
  expect(unsupportedReason(res.template!)).toBeUndefined();
  return res.template!;
}

async function scan(templates: Template[], targets: string[]): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({ targets, templates, rateLimit: 0, timeout: 3, retries: 0, onResult: (e) => events.push(e) });
  return events;
}

describe('tcp', () => {
  const servers: net.Server[] = [];
  let port = 0;
  beforeAll(async () => {
    // A small line protocol: a banner, then "HELLO <name>" answers "WELCOME <name>"; hex "ff01" answers "PONG".
    const s = net.createServer((sock) => {
      sock.write('220 vigil-ftpd 3.1 ready\r\n');
      let buf = '';
      sock.on('data', (d) => {
        // Messages may arrive together in one segment: handle them in order.
        buf += d.toString('latin1');
        for (;;) {
          if (buf.startsWith('\xff\x01')) {
            buf = buf.slice(2);
            sock.end('PONG');
            return;
          }
          const nl = buf.indexOf('\r\n');
          if (nl < 0) return;
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 2);
          if (line.startsWith('HELLO ')) sock.write(`WELCOME ${line.slice(6)}\r\n`);
          else if (line.startsWith('QUIT')) return void sock.end('221 bye\r\n');
        }
      });
      sock.on('error', () => {});
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    servers.push(s);
    port = (s.address() as net.AddressInfo).port;
  });
  afterAll(() => servers.forEach((s) => s.close()));

  it('sends text and hex inputs, reads named values, extracts from data and raw', async () => {
    const t = tpl(`tcp:
  - host: ["{{Hostname}}"]
    inputs:
      - read: 26
        name: banner
      - data: "HELLO {{user}}\\r\\n"
      - data: "ff01"
        type: hex
    read-all: true
    matchers:
      - type: word
        words: ["PONG"]
      - type: word
        part: raw
        words: ["WELCOME nuclei"]
    matchers-condition: and
    extractors:
      - type: regex
        part: raw
        group: 1
        regex: ["220 ([a-z-]+ [0-9.]+)"]
variables:
  user: nuclei
`);
    const events = await scan([t], [`127.0.0.1:${port}`]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'tcp',
      'matched-at': `127.0.0.1:${port}`,
      'extracted-results': ['vigil-ftpd 3.1'],
    });
    expect(String(events[0]!.request)).toContain('HELLO nuclei');
  });

  it('uses the template ports when the input has none, and reports nothing for a closed port', async () => {
    const t = tpl(`tcp:
  - host: ["{{Hostname}}"]
    port: "1,${port}"
    inputs:
      - data: "QUIT\\r\\n"
    matchers:
      - type: word
        part: raw
        words: ["vigil-ftpd"]
`);
    const events = await scan([t], ['127.0.0.1']);
    expect(events.map((e) => e['matched-at'])).toEqual([`127.0.0.1:${port}`]);
  });

  it('runs corpus templates against the machine services that are up (Redis, MariaDB, PostgreSQL, RabbitMQ)', async (ctx) => {
    if (!hasShared('corpus/nuclei-templates')) return ctx.skip();
    const up = async (p: number) =>
      new Promise<boolean>((resolve) => {
        const c = net.connect(p, '127.0.0.1');
        c.once('connect', () => {
          c.destroy();
          resolve(true);
        });
        c.once('error', () => resolve(false));
      });
    // template -> the service port that must make it match
    const cases: [string, number][] = [
      ['network/exposures/exposed-redis.yaml', 6379],
      ['network/detection/mysql-detect.yaml', 3306],
      ['network/detection/pgsql-detect.yaml', 5432],
      ['network/detection/rabbitmq-detect.yaml', 5672],
    ];
    const running = [];
    for (const c of cases) if (await up(c[1])) running.push(c);
    if (running.length === 0) return ctx.skip();
    const loaded = await loadTemplates(running.map(([f]) => path.join(sharedDir, 'corpus/nuclei-templates', f)));
    const events = await scan(loaded.templates, ['127.0.0.1']);
    for (const [file, p] of running) {
      const id = path.basename(file, '.yaml');
      expect(
        events.some((e) => e['template-id'] === id && e['matched-at'] === `127.0.0.1:${p}`),
        `${id} on ${p}`,
      ).toBe(true);
    }
  });
});
