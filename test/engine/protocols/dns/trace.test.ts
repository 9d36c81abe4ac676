// dns `trace` against a delegation chain of real DNS servers on loopback: a root on 127.0.0.1 (the
// root hint), a TLD server on 127.0.0.2 and an authoritative server on 127.0.0.3 (glue records carry
// addresses, not ports, so the servers below the root share one port, given as tracePort). The trace
// walks root -> TLD -> authoritative, follows a CNAME as nuclei's client does, and matchers and
// extractors on the `trace` part see every step.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, type ScanOptions } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';
import { startDnsServer, type DnsTestServer } from '../../../helpers/dns-server.ts';
import { tpl } from '../../../helpers/templates.ts';

let root: DnsTestServer;
let tld: DnsTestServer;
let auth: DnsTestServer;
let resolver: DnsTestServer;

/** Servers on 127.0.0.2 and 127.0.0.3 sharing one free port (retried when the port is taken on one of them). */
async function sameport(): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    tld = await startDnsServer(
      {
        records: {},
        delegations: { 'vigil.test': [{ ns: 'ns1.vigil.test', ip: '127.0.0.3' }] },
      },
      { host: '127.0.0.2' },
    );
    try {
      auth = await startDnsServer(
        {
          records: {
            'www.vigil.test': [{ type: 'A', data: '192.0.2.80' }],
            'shop.vigil.test': [{ type: 'CNAME', data: 'edge.cdn.test' }],
            'ns1.vigil.test': [{ type: 'A', data: '127.0.0.3' }],
            // The same provider serves the CNAME's target.
            'edge.cdn.test': [{ type: 'A', data: '198.51.100.7' }],
          },
          // The zone's own NS (no glue): the walk ends when the only server named is the one asked.
          authorities: [{ name: 'vigil.test', type: 'NS', class: 'IN', ttl: 3600, data: 'ns1.vigil.test' }],
        },
        { host: '127.0.0.3', port: tld.port },
      );
      return;
    } catch {
      await tld.close();
      await auth?.close();
    }
  }
  throw new Error('no port free on both 127.0.0.2 and 127.0.0.3');
}

beforeAll(async () => {
  root = await startDnsServer({ records: {}, delegations: { test: [{ ns: 'a.tld-servers.test', ip: '127.0.0.2' }] } });
  await sameport();
  // The scan's resolver, used for name servers that come without glue (ns1.vigil.test).
  resolver = await startDnsServer({
    records: {
      'ns1.vigil.test': [{ type: 'A', data: '127.0.0.3' }],
      'www.vigil.test': [{ type: 'A', data: '192.0.2.80' }],
      'shop.vigil.test': [{ type: 'CNAME', data: 'edge.cdn.test' }],
    },
  });
});

afterAll(async () => {
  await Promise.all([root, tld, auth, resolver].map((s) => s?.close()));
});

async function scan(t: Template, targets: string[], extra: Partial<ScanOptions> = {}): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets,
    templates: [t],
    rateLimit: 0,
    timeout: 2,
    retries: 0,
    resolvers: [resolver.resolver],
    traceRoots: [root.resolver],
    tracePort: tld.port,
    onResult: (e) => events.push(e),
    ...extra,
  });
  return events;
}

const traceTpl = (id: string, operators: string, extra = '') =>
  tpl(`id: ${id}
info: { name: ${id}, author: vigil, severity: info }
dns:
  - name: "{{FQDN}}"
    type: A
    trace: true
${extra}${operators}`);

const asked = (s: DnsTestServer, from: number) =>
  s.queries.slice(from).map((q) => `${q.questions![0].type} ${q.questions![0].name}`);

describe('dns trace', () => {
  it('walks root -> TLD -> authoritative server; matchers and extractors on the trace part see every step', async () => {
    const t = traceTpl(
      'trace-chain',
      `    matchers-condition: and
    matchers:
      - type: word
        part: trace
        words:
          - "test.\\t172800\\tIN\\tNS\\ta.tld-servers.test."
          - "vigil.test.\\t172800\\tIN\\tNS\\tns1.vigil.test."
          - "www.vigil.test.\\t300\\tIN\\tA\\t192.0.2.80"
      - type: word
        part: answer
        words: ["192.0.2.80"]
    extractors:
      - type: regex
        part: trace
        regex: ["IN\\tNS\\t[a-z0-9.-]+"]
`,
    );
    const at = [root.queries.length, tld.queries.length, auth.queries.length];
    const events = await scan(t, ['www.vigil.test']);
    expect(asked(root, at[0])).toEqual(['A www.vigil.test']);
    expect(asked(tld, at[1])).toEqual(['A www.vigil.test']);
    expect(asked(auth, at[2])).toEqual(['A www.vigil.test']);
    expect(events).toHaveLength(1);
    // Every NS the walk met, in order: the root's referral, the TLD's, and the zone's own.
    expect(events[0]['extracted-results']).toEqual(['IN\tNS\ta.tld-servers.test.', 'IN\tNS\tns1.vigil.test.']);
  });

  it("follows a CNAME: the server that gave it is asked for its target (as nuclei's client does)", async () => {
    const t = traceTpl(
      'trace-cname',
      `    matchers:
      - type: word
        part: trace
        condition: and
        words:
          - "shop.vigil.test.\\t300\\tIN\\tCNAME\\tedge.cdn.test."
          - "edge.cdn.test.\\t300\\tIN\\tA\\t198.51.100.7"
`,
    );
    const at = auth.queries.length;
    const events = await scan(t, ['shop.vigil.test']);
    expect(asked(auth, at)).toEqual(['A shop.vigil.test', 'A edge.cdn.test']);
    expect(events.map((e) => e['template-id'])).toEqual(['trace-cname']);
  });

  it('trace-max-recursion bounds the steps (nuclei: max - 1 steps), and matchers on a step not reached fail', async () => {
    const t = traceTpl(
      'trace-short',
      `    matchers:
      - type: word
        part: trace
        words: ["www.vigil.test.\\t300\\tIN\\tA\\t192.0.2.80"]
`,
      '    trace-max-recursion: 3\n',
    );
    const at = [root.queries.length, tld.queries.length, auth.queries.length];
    expect(await scan(t, ['www.vigil.test'])).toEqual([]);
    expect([root.queries.length - at[0], tld.queries.length - at[1], auth.queries.length - at[2]]).toEqual([1, 1, 0]);
  });

  it('without trace, the trace part is empty and no root server is asked', async () => {
    const t = tpl(`id: no-trace
info: { name: no-trace, author: vigil, severity: info }
dns:
  - name: "{{FQDN}}"
    type: A
    matchers:
      - type: dsl
        dsl: ['len(trace) == 0 && contains(answer, "192.0.2.80")']
`);
    const at = root.queries.length;
    expect((await scan(t, ['www.vigil.test'])).map((e) => e['template-id'])).toEqual(['no-trace']);
    expect(root.queries.length).toBe(at);
  });

  it('vigil scan --trace-roots / --trace-port point the trace at other root servers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-trace-'));
    const file = path.join(dir, 'trace.yaml');
    writeFileSync(
      file,
      `id: cli-trace
info: { name: cli-trace, author: vigil, severity: info }
dns:
  - name: "{{FQDN}}"
    type: A
    trace: true
    matchers:
      - type: word
        part: trace
        words: ["vigil.test.\\t172800\\tIN\\tNS\\tns1.vigil.test."]
`,
    );
    const root_ = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
    const at = root.queries.length;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          path.join(root_, 'bin/vigil.mjs'),
          'scan',
          '-t',
          file,
          '-u',
          'www.vigil.test',
          '-r',
          resolver.resolver,
          '--trace-roots',
          root.resolver,
          '--trace-port',
          String(tld.port),
          '-j',
          '--timeout',
          '2',
        ],
        { cwd: root_, timeout: 60_000 },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      );
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { 'template-id': string })['template-id']),
    ).toEqual(['cli-trace']);
    expect(root.queries.length - at).toBe(1);
  }, 90_000);
});
