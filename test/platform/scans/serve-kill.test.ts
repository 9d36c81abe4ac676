// `vigil serve` on the embedded database, killed with SIGKILL in the middle of a scan and started again on
// the same data folder: the scan finishes and every finding is stored exactly once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { waitFor } from '../../helpers/queue.ts';
import { MARKER_TEMPLATE, HEADER_TEMPLATE } from './fixtures.ts';

const TARGETS = 24;

describe('vigil serve killed mid-scan on the embedded database', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-serve-kill-'));
  const procs: VigilProcess[] = [];
  let target: TestServer;
  const env = {
    VIGIL_SCAN_CHUNK_TARGETS: '4',
    VIGIL_SCAN_CHUNK_TIMEOUT: '8',
    VIGIL_SCAN_WORKER_CONCURRENCY: '1',
    VIGIL_ENGINE_THREADS: '1',
  };

  beforeAll(async () => {
    target = await startHttpServer(async (req, res) => {
      await new Promise((r) => setTimeout(r, 400));
      res.setHeader('X-Powered-By', 'PHP/7.4.3');
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
  });
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the scan after a restart, storing each finding once', async () => {
    const first = spawnVigil(['serve', '--port', '0', '--data-dir', dir], env);
    procs.push(first);
    const url = await first.listening(150_000);
    const key = readFileSync(path.join(dir, 'owner-api-key'), 'utf8').trim();
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`${url}${p}`, {
        ...init,
        headers: { 'X-API-Key': key, 'content-type': 'application/json', ...(init.headers ?? {}) },
      });
    const targets = Array.from({ length: TARGETS }, (_, i) => `${target.url}/t${i}`);
    const res = await api('/v1/scans', {
      method: 'POST',
      body: JSON.stringify({
        targets,
        private_templates: [
          { name: 'm.yaml', contents: MARKER_TEMPLATE },
          { name: 'h.yaml', contents: HEADER_TEMPLATE },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const id = (await res.json()).id as string;
    // Kill it once some findings are stored and the scan is still running.
    await waitFor(
      async () => {
        const s = await (await api(`/v1/scans/${id}`)).json();
        return s.status === 'running' && s.total_result > 0 && s.total_result < TARGETS * 2 && s;
      },
      90_000,
      100,
    );
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = spawnVigil(['serve', '--port', '0', '--data-dir', dir], env);
    procs.push(second);
    const url2 = await second.listening(150_000);
    const api2 = (p: string) => fetch(`${url2}${p}`, { headers: { 'X-API-Key': key } });
    const scan = await waitFor(
      async () => {
        const s = await (await api2(`/v1/scans/${id}`)).json();
        return ['finished', 'failed'].includes(s.status) && s;
      },
      150_000,
      500,
    );
    expect(scan).toMatchObject({ status: 'finished', total_result: TARGETS * 2 });
    const results = await (await api2(`/v1/scans/results?scan_id=${id}&limit=1000`)).json();
    const hashes = new Set(results.data.map((r: { vuln_hash: string }) => r.vuln_hash));
    expect(results.data).toHaveLength(TARGETS * 2);
    expect(hashes.size).toBe(TARGETS * 2);
  }, 300_000);
});
