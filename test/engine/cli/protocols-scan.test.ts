// `vigil scan` over the corpus dns/, network/ and ssl/ folders: every template runs (none skipped), the
// closing lines count them per protocol, and nothing leaves 127.0.0.1 (TCP, DNS lookups and UDP guarded).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const corpus = path.resolve(root, '../shared/corpus/nuclei-templates');
const guard = path.join(root, 'test/helpers/loopback-guard.mjs');

describe.skipIf(!existsSync(path.join(corpus, 'dns')))(
  'vigil scan over the corpus dns, network and ssl folders',
  () => {
    let dns: DnsTestServer;
    let dir: string;
    beforeAll(async () => {
      dns = await startDnsServer({
        records: {
          localhost: [
            { type: 'A', data: '127.0.0.1' },
            { type: 'TXT', data: ['v=spf1 -all'] },
          ],
          'mail.vigil.test': [{ type: 'TXT', data: ['v=spf1 ptr -all'] }],
        },
      });
      dir = mkdtempSync(path.join(tmpdir(), 'vigil-guard-'));
    });
    afterAll(async () => {
      await dns?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs every template and reports the counts per protocol', async () => {
      const log = path.join(dir, 'guard.log');
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            path.join(root, 'bin/vigil.mjs'),
            'scan',
            '-t',
            path.join(corpus, 'dns'),
            '-t',
            path.join(corpus, 'network'),
            '-t',
            path.join(corpus, 'ssl'),
            '-u',
            'localhost',
            '-r',
            dns.resolver,
            '-rl',
            '0',
            '-c',
            '50',
            '--timeout',
            '1',
            '--retries',
            '0',
            '-j',
            '-ms',
          ],
          {
            cwd: root,
            timeout: 120_000,
            maxBuffer: 64 * 1024 * 1024,
            env: { ...process.env, NODE_OPTIONS: `--import=${guard}`, VIGIL_GUARD_LOG: log },
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const lines = r.stderr
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string })
        .map((l) => l.msg);
      const summary = lines.filter((m) => m.startsWith('templates by protocol: '));
      expect(summary).toEqual([
        expect.stringMatching(/^templates by protocol: tcp: \d{3} ran$/),
        expect.stringMatching(/^templates by protocol: ssl: \d{2} ran$/),
        expect.stringMatching(/^templates by protocol: dns: \d{2} ran$/),
      ]);
      // The dns templates asked the resolver given with -r: the SPF record was found.
      // -ms: failure events too (they must not look names up outside the given resolver either).
      const results = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { 'template-id': string; type: string; 'matcher-status': boolean })
        .filter((x) => x['matcher-status']);
      expect(results, JSON.stringify(results.map((x) => [x['template-id'], x.type]))).toContainEqual(
        expect.objectContaining({ 'template-id': 'spf-record-detect', type: 'dns' }),
      );
      // 22 dns templates, clustered as nuclei does (four clusters share 14 templates' queries): 13 or 14 queries.
      expect(dns.queries.length).toBeGreaterThanOrEqual(13);
      const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
      expect(strays).toBe('');
    }, 150_000);

    it('dns templates on a name only the given resolver knows: results and failure events, no lookup elsewhere', async () => {
      const log = path.join(dir, 'guard-dns.log');
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            path.join(root, 'bin/vigil.mjs'),
            'scan',
            '-t',
            path.join(corpus, 'dns'),
            '-u',
            'mail.vigil.test',
            '-r',
            dns.resolver,
            '-rl',
            '0',
            '--timeout',
            '1',
            '-j',
            '-ms',
          ],
          {
            cwd: root,
            timeout: 60_000,
            maxBuffer: 16 * 1024 * 1024,
            env: { ...process.env, NODE_OPTIONS: `--import=${guard}`, VIGIL_GUARD_LOG: log },
          },
          (err, stdout, stderr) =>
            resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
        );
      });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      const events = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { 'template-id': string; 'matcher-status': boolean; ip?: string });
      expect(
        events
          .filter((e) => e['matcher-status'])
          .map((e) => e['template-id'])
          .sort(),
      ).toEqual(['spf-record-detect', 'spoofable-spf-records-ptr', 'txt-fingerprint']);
      // One failure event for each of the other templates, without an address (none was dialed).
      expect(events.filter((e) => !e['matcher-status']).length).toBeGreaterThan(15);
      expect(events.filter((e) => !e['matcher-status'] && e.ip)).toEqual([]);
      const strays = existsSync(log) ? readFileSync(log, 'utf8').trim() : '';
      expect(strays).toBe('');
    }, 90_000);
  },
);
