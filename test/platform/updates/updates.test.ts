// Template and feed updates against local mirrors that answer like the real sources (GitHub's releases
// API and archives, CISA's KEV file, VulnCheck's API): incremental imports, a release already imported
// is not downloaded again, failed or broken downloads change nothing and are recorded, archives cannot
// write outside their folder, and the daily job runs both on the queue.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, dbKinds, type TestDb } from '../../helpers/db.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { updateIntel, updateTemplates } from '../../../src/platform/updates/service.ts';
import { AUTO_UPDATE_JOB, scheduleAutoUpdate } from '../../../src/platform/updates/jobs.ts';
import { startWorker } from '../../../src/platform/worker/runtime.ts';
import { ensureQueues, getJobHandler } from '../../../src/platform/worker/registry.ts';
import { configFromEnv } from '../../../src/platform/shared/config.ts';

const tpl = (id: string, word: string) => `id: ${id}
info:
  name: ${id}
  author: vigil
  severity: low
http:
  - method: GET
    path: ["{{BaseURL}}/${id}"]
    matchers:
      - type: word
        words: ["${word}"]
`;

const kev = (ids: string[]) =>
  JSON.stringify({
    catalogVersion: '2026.11.23',
    vulnerabilities: ids.map((cveID) => ({
      cveID,
      vendorProject: 'Acme',
      product: 'Widget',
      vulnerabilityName: `${cveID} bug`,
      dateAdded: '2026-11-01',
      dueDate: '2026-11-22',
      requiredAction: 'patch',
      knownRansomwareCampaignUse: 'Unknown',
    })),
  });

/** What the mirror serves; tests change it between runs. */
interface Mirror {
  tag: string;
  archive: Uint8Array;
  archiveStatus?: number;
  truncate?: boolean;
  kev: string;
  kevStatus?: number;
  vulncheckAuth?: string;
}

const archive = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

describe.each(dbKinds())('updates on %s', (kind) => {
  let t: TestDb;
  let mirror: TestServer;
  const m: Mirror = { tag: 'v1.0.0', archive: new Uint8Array(), kev: kev([]) };
  let env: NodeJS.ProcessEnv;
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await t.db.query<{ n: number }>(sql, params)).rows[0]!.n);
  const archiveRequests = () => mirror.requests.filter((r) => r.url!.startsWith('/archive/')).length;

  beforeAll(async () => {
    mirror = await startHttpServer((req, res) => {
      const url = req.url ?? '';
      if (url === '/repos/nuclei-templates/releases/latest') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ tag_name: m.tag, zipball_url: `/archive/${m.tag}.zip` }));
      }
      if (url.startsWith('/archive/')) {
        if (m.archiveStatus) return res.writeHead(m.archiveStatus).end('nope');
        if (m.truncate) {
          // Promises the whole archive, sends half, then drops the connection.
          res.writeHead(200, { 'content-length': String(m.archive.length) });
          res.write(Buffer.from(m.archive.subarray(0, m.archive.length >> 1)));
          return setTimeout(() => res.destroy(), 20);
        }
        return res.end(Buffer.from(m.archive));
      }
      if (url === '/kev.json') {
        if (m.kevStatus) return res.writeHead(m.kevStatus).end('<html>maintenance</html>');
        return res.end(m.kev);
      }
      if (url === '/vulncheck') {
        m.vulncheckAuth = String(req.headers.authorization ?? '');
        return res.end(JSON.stringify({ data: [] }));
      }
      res.writeHead(404).end();
    });
    env = {
      VIGIL_TEMPLATES_RELEASE_URL: `${mirror.url}/repos/nuclei-templates/releases/latest`,
      VIGIL_INTEL_FEEDS: 'kev',
      VIGIL_FEED_KEV_URL: `${mirror.url}/kev.json`,
    };
  });
  afterAll(async () => {
    await mirror?.close();
  });
  afterEach(async () => {
    await t?.drop();
  });

  it('imports a template release incrementally, skips a release already imported, and records each run', async () => {
    t = await freshDb(kind);
    m.tag = 'v1.0.0';
    m.archive = archive({
      'projectdiscovery-nuclei-templates-abc/http/a.yaml': tpl('upd-a', 'alpha'),
      'projectdiscovery-nuclei-templates-abc/http/b.yaml': tpl('upd-b', 'beta'),
      'projectdiscovery-nuclei-templates-abc/README.md': '# templates',
    });
    const first = await updateTemplates(t.db, env);
    expect(first).toMatchObject({ status: 'done', version: 'v1.0.0', added: 2, templates: 2 });
    expect(
      await count(`SELECT count(*)::int AS n FROM templates WHERE team_id IS NULL AND release_tag = 'v1.0.0'`),
    ).toBe(2);
    const before = archiveRequests();

    // The same release again: nothing downloaded.
    expect(await updateTemplates(t.db, env)).toMatchObject({ status: 'unchanged', version: 'v1.0.0' });
    expect(archiveRequests()).toBe(before);

    // A new release: one changed, one removed, one added.
    m.tag = 'v1.0.1';
    m.archive = archive({
      'projectdiscovery-nuclei-templates-def/http/a.yaml': tpl('upd-a', 'alpha2'),
      'projectdiscovery-nuclei-templates-def/http/c.yaml': tpl('upd-c', 'gamma'),
    });
    expect(await updateTemplates(t.db, env)).toMatchObject({
      status: 'done',
      version: 'v1.0.1',
      added: 1,
      updated: 1,
      removed: 1,
      templates: 2,
    });
    const runs = (
      await t.db.query<{ status: string; version: string }>(
        `SELECT status, version FROM update_runs WHERE kind = 'templates' ORDER BY id`,
      )
    ).rows;
    expect(runs).toEqual([
      { status: 'done', version: 'v1.0.0' },
      { status: 'unchanged', version: 'v1.0.0' },
      { status: 'done', version: 'v1.0.1' },
    ]);
  });

  it('a failed or truncated download, or an archive escaping its folder, changes nothing and is recorded', async () => {
    t = await freshDb(kind);
    m.tag = 'v2.0.0';
    m.archive = archive({ 'root/http/a.yaml': tpl('upd-a', 'alpha') });
    await updateTemplates(t.db, env);
    const stored = () => count('SELECT count(*)::int AS n FROM templates WHERE team_id IS NULL');
    expect(await stored()).toBe(1);

    m.tag = 'v2.0.1';
    m.archive = archive({ 'root/http/z.yaml': tpl('upd-z', 'zeta') });
    m.archiveStatus = 503;
    await expect(updateTemplates(t.db, env)).rejects.toThrow(/HTTP 503/);
    m.archiveStatus = undefined;
    m.truncate = true;
    await expect(updateTemplates(t.db, env)).rejects.toThrow(/cannot download/);
    m.truncate = false;
    const outside = path.join(tmpdir(), 'vigil-zip-slip-probe.yaml');
    m.archive = archive({ '../../../../../../../tmp/vigil-zip-slip-probe.yaml': tpl('upd-evil', 'evil') });
    await expect(updateTemplates(t.db, env)).rejects.toThrow(/points outside the archive/);
    expect(existsSync(outside)).toBe(false);

    // Still the old catalogue, and every failure on record with its reason.
    expect(await stored()).toBe(1);
    const failed = (
      await t.db.query<{ error: string }>(`SELECT error FROM update_runs WHERE status = 'failed' ORDER BY id`)
    ).rows.map((r) => r.error);
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatch(/HTTP 503/);
    // The next good release is imported (the failures did not mark it as imported).
    m.archive = archive({ 'root/http/z.yaml': tpl('upd-z', 'zeta') });
    expect(await updateTemplates(t.db, env)).toMatchObject({ status: 'done', version: 'v2.0.1' });
  });

  it('updates feeds from their addresses; a failed or broken feed leaves its data as it was', async () => {
    t = await freshDb(kind);
    m.kev = kev(['CVE-2026-0001', 'CVE-2026-0002']);
    m.kevStatus = undefined;
    const r1 = await updateIntel(t.db, env);
    expect(r1.feeds).toEqual([{ feed: 'kev', status: 'done', changed: 2 }]);
    const kevFacts = () => count(`SELECT count(*)::int AS n FROM intel_facts WHERE feed = 'kev'`);
    expect(await kevFacts()).toBe(2);

    m.kevStatus = 500;
    const r2 = await updateIntel(t.db, env);
    expect(r2.feeds[0]).toMatchObject({ feed: 'kev', status: 'failed' });
    expect(r2.feeds[0]!.error).toMatch(/HTTP 500/);
    expect(await kevFacts()).toBe(2);

    // A 200 with something else (an error page): nothing read, nothing removed.
    m.kevStatus = undefined;
    m.kev = '<html>we moved</html>';
    const r3 = await updateIntel(t.db, env);
    expect(r3.feeds[0]).toMatchObject({ feed: 'kev', status: 'failed' });
    expect(r3.feeds[0]!.error).toMatch(/holds no kev records/);
    expect(await kevFacts()).toBe(2);

    // VulnCheck KEV only with a token, sent as a bearer token and never recorded.
    const noToken = await updateIntel(t.db, {
      ...env,
      VIGIL_INTEL_FEEDS: 'vulncheck_kev',
      VIGIL_FEED_VULNCHECK_KEV_URL: `${mirror.url}/vulncheck`,
    });
    expect(noToken.skipped).toEqual([
      { feed: 'vulncheck_kev', reason: 'needs an API token: set VIGIL_VULNCHECK_TOKEN' },
    ]);
    await updateIntel(t.db, {
      ...env,
      VIGIL_INTEL_FEEDS: 'vulncheck_kev',
      VIGIL_FEED_VULNCHECK_KEV_URL: `${mirror.url}/vulncheck`,
      VIGIL_VULNCHECK_TOKEN: 'vc-secret-token',
    });
    expect(m.vulncheckAuth).toBe('Bearer vc-secret-token');
    const text = JSON.stringify((await t.db.query('SELECT * FROM update_runs')).rows);
    expect(text).not.toContain('vc-secret-token');
  });

  it('VIGIL_AUTO_UPDATE schedules the daily job, which updates templates and feeds through the queue', async () => {
    t = await freshDb(kind);
    m.tag = 'v3.0.0';
    m.archive = archive({ 'root/http/a.yaml': tpl('upd-a', 'alpha') });
    m.kev = kev(['CVE-2026-0003']);
    const queue = await startTestQueue(t, { schedule: true });
    const saved = { ...process.env };
    Object.assign(process.env, env, { VIGIL_AUTO_UPDATE: '1', VIGIL_AUTO_UPDATE_CRON: '5 4 * * *' });
    try {
      await ensureQueues(queue, [getJobHandler(AUTO_UPDATE_JOB)!]); // as the server's queue start-up does
      expect(await scheduleAutoUpdate(queue, process.env)).toBe('5 4 * * *');
      expect((await queue.getSchedules()).map((s) => [s.name, s.cron])).toContainEqual([AUTO_UPDATE_JOB, '5 4 * * *']);
      const worker = await startWorker(
        { db: t.db, config: configFromEnv({}), log: pino({ level: 'silent' }), queue },
        {
          jobs: [getJobHandler(AUTO_UPDATE_JOB)!],
          pollingIntervalSeconds: 0.5,
        },
      );
      await queue.send(AUTO_UPDATE_JOB, {});
      await waitFor(
        async () => (await count(`SELECT count(*)::int AS n FROM update_runs WHERE status <> 'running'`)) >= 2,
        30_000,
      );
      await worker.stop(5_000);
      expect(await count(`SELECT count(*)::int AS n FROM templates WHERE release_tag = 'v3.0.0'`)).toBe(1);
      expect(await count(`SELECT count(*)::int AS n FROM intel_facts WHERE feed = 'kev'`)).toBe(1);
      // Turned off: the schedule goes.
      process.env.VIGIL_AUTO_UPDATE = '';
      expect(await scheduleAutoUpdate(queue, process.env)).toBeUndefined();
      expect((await queue.getSchedules()).map((s) => s.name)).not.toContain(AUTO_UPDATE_JOB);
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
      await queue.stop({ graceful: false, close: true, wait: true }).catch(() => {});
    }
  }, 60_000);
});
