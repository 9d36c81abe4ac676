// 100,000 findings exported by a real `vigil serve` whose JavaScript heap is capped at 128 MB
// (--max-old-space-size): a json export of over 128 MB streams through it, every finding once, so the
// export cannot be holding the file in memory; and an async export job stores its file in parts.
// The scan is made through the API; its 100,000 findings are written straight into the server's embedded
// database while it is stopped (what is tested is the export, and a 100,000-line import takes minutes).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '../../../src/db/connection.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { waitFor } from '../../helpers/wait.ts';

const ROWS = 100_000;
const HEAP_MB = 128;

describe('100,000 findings exported by vigil serve with a 128 MB heap', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-export-large-'));
  let server: VigilProcess;
  let url: string;
  let key: string;
  let scanId: string;

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${url}${p}`, { ...init, headers: { 'X-API-Key': key, ...(init.headers ?? {}) } });

  beforeAll(async () => {
    const first = spawnVigil(['serve', '--port', '0', '--data-dir', dir]);
    url = await first.listening(150_000);
    key = readFileSync(path.join(dir, 'owner-api-key'), 'utf8').trim();
    const res = await api('/v1/scans/import?name=big', {
      method: 'POST',
      body: JSON.stringify({ 'template-id': 'seed', info: { severity: 'info' }, host: 'https://seed.test' }) + '\n',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(200);
    scanId = ((await res.json()) as { id: string }).id;
    expect(await first.kill('SIGTERM')).toBe(0);

    const db = await connect({ dataDir: path.join(dir, 'pg') });
    await db.query(
      `INSERT INTO scan_results (scan_id, team_id, vuln_hash, template_id, host, matched_at, port, severity, name,
         tags, result_type, event, first_run, last_run)
       SELECT s.id, s.team_id, 'h' || g, 'tpl-' || (g % 50), 'https://h' || g || '.test', 'https://h' || g || '.test/x',
         443, (ARRAY['critical','high','medium','low','info'])[1 + g % 5], 'Finding ' || g, '{t}', 'http',
         jsonb_build_object('template-id', 'tpl-' || (g % 50), 'matcher-name', 'm',
           'info', jsonb_build_object('description', repeat('d', 1000))), 0, 0
       FROM scans s, generate_series(1, $2::int) AS g WHERE s.id = $1`,
      [scanId, ROWS - 1],
    );
    await db.close();

    server = spawnVigil(['serve', '--port', '0', '--data-dir', dir], {
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    });
    url = await server.listening(150_000);
  }, 400_000);
  afterAll(async () => {
    await server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Reads a download to its end, counting bytes and lines without keeping it. */
  async function download(p: string, body?: unknown) {
    const res = await api(p, {
      method: body ? 'POST' : 'GET',
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    let bytes = 0;
    let lines = 0;
    let tail = '';
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += c.length;
      for (const b of c) if (b === 10) lines++;
      tail = (tail + Buffer.from(c).toString('utf8')).slice(-100);
    }
    return { status: res.status, bytes, lines, tail };
  }

  it('streams a json export of every finding, larger than the heap', async () => {
    const json = await download(`/v1/scans/${scanId}/export?type=json`);
    expect(json.status).toBe(200);
    expect(json.lines).toBe(ROWS + 2); // "[", one line per finding, "]"
    expect(json.tail.trimEnd().endsWith('}\n]') || json.tail.trimEnd().endsWith('}]')).toBe(true);
    expect(json.bytes).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    // Still the same process: the export did not exhaust its heap.
    expect(server.proc.exitCode).toBeNull();
  }, 400_000);

  it('builds a filtered async export in stored parts', async () => {
    const res = await api(`/v1/scans/${scanId}/export?type=sarif&async=true`, {
      method: 'POST',
      body: JSON.stringify({ severity: ['critical'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { export_id: string }).export_id;
    const ready = await waitFor(
      async () => {
        const s = (await (await api(`/v1/export/${id}`)).json()) as { status: string; row_count: number; url: string };
        return s.status === 'ready' && s;
      },
      300_000,
      500,
    );
    expect(ready.row_count).toBe(Math.floor((ROWS - 1) / 5)); // seeded g = 1..ROWS-1, critical when g % 5 = 0
    const file = await fetch(ready.url.replace(/^https?:\/\/[^/]+/, url));
    const log = (await file.json()) as { runs: { results: unknown[] }[] };
    expect(log.runs[0]!.results).toHaveLength(Math.floor((ROWS - 1) / 5));
  }, 400_000);
});
