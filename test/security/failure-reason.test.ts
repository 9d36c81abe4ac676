// A chunk that fails for good ends its scan with a reason that says what failed, never the exception's
// text (which can carry database addresses, users or passwords); the details go to the server log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import type { TestApp } from '../helpers/app.ts';
import { createQueuedApp } from '../helpers/queue.ts';
import { getJobHandler } from '../../src/platform/worker/registry.ts';
import { SCAN_CHUNK_JOB } from '../../src/platform/scans/dispatch.ts';
import '../../src/platform/scans/jobs.ts';
import type { Db } from '../../src/db/connection.ts';
import { MARKER_TEMPLATE } from '../platform/scans/fixtures.ts';

const SECRET = 'postgres://vigil:hunter2-db-password@db.internal:5432/vigil';

describe('failure reasons', () => {
  let t: TestApp;
  let boss: PgBoss;
  let close: () => Promise<void>;
  const lines: string[] = [];
  beforeAll(async () => {
    ({ t, boss, close } = await createQueuedApp(lines));
  });
  afterAll(async () => {
    await close?.();
  });

  it('a chunk failing on its last attempt fails the scan without the exception text', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: ['http://127.0.0.1:9'], private_templates: [{ name: 'm.yaml', contents: MARKER_TEMPLATE }] },
    });
    const id = res.json().id;
    // The chunk's first read fails the way a lost database connection does, with its address in the text.
    const real = t.ctx.db;
    const failing: Db = {
      ...real,
      query: async () => {
        throw new Error(`connect ECONNREFUSED ${SECRET}`);
      },
    };
    const handler = getJobHandler(SCAN_CHUNK_JOB)!.handler;
    await expect(
      handler(
        { id: 'job-1', name: SCAN_CHUNK_JOB, data: { scanId: id, run: 0, idx: 0 }, retryCount: 4, retryLimit: 4 },
        { ...t.ctx, db: failing, queue: boss, signal: new AbortController().signal, log: t.ctx.log },
      ),
    ).rejects.toThrow();
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(scan.status).toBe('failed');
    expect(scan.failure_reason).toMatch(/^chunk 0 failed after 5 attempts \(error id [0-9a-f-]+ in the server log\)$/);
    expect(JSON.stringify(scan)).not.toContain('hunter2');
    // The server log has the details under that id.
    const errorId = /error id ([0-9a-f-]+)/.exec(scan.failure_reason)![1]!;
    expect(lines.some((l) => l.includes(errorId) && l.includes('ECONNREFUSED'))).toBe(true);
  });
});
