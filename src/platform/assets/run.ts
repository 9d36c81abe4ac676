// One run of an enumeration, as a worker job: discovery (on a thread of its own, discovery-runner.ts),
// then in one transaction the inventory update (assets compared with their last state, change history
// written), the policies, and the run's end. What discovery finds is staged in enumeration_found in
// batches under the attempt's own name (so no process holds a whole run); the inventory changes only in
// the final transaction, which reads its attempt's rows. A job retried after a crash either finds its
// run stored (and only re-sends its alerts) or starts over with a new attempt: nothing is doubled.
import type { JobContext } from '../worker/registry.ts';
import type { Db } from '../../db/connection.ts';
import { randomUUID } from 'node:crypto';
import {
  parseProviderConfig,
  SOURCES as PASSIVE_SOURCES,
  type DiscoveredAsset,
  type DiscoveryEvent,
  type Step,
} from '../../discovery/index.ts';
import { loadConfigs } from '../configs/resolve.ts';
import { applyPoliciesToRun, pendingAlertsOfRun, sendAlerts } from './policies.ts';
import * as store from './store.ts';
import { insertAssetEvent } from './event-store.ts';
import { technologyTemplates, DEFAULT_TECH_TEMPLATES } from './technologies.ts';
import { runDiscoveryThread, type DiscoveryThreadInput } from './discovery-runner.ts';
import { checkEnumeration, type EnumerationConfigInput } from './service.ts';
import { ApiError } from '../shared/errors.ts';
import { cloudSettings, providerNames } from './cloud.ts';

export interface EnumerateJob {
  enumerationId: string;
  run: number;
}

/** The facts compared between runs, with the names change events use. */
const COMPARED = [
  'url',
  'ip',
  'cname',
  'status_code',
  'title',
  'webserver',
  'content_length',
  'technologies',
  'favicon',
  'redirect_location',
  'chain_status_codes',
] as const;
const TLS_COMPARED = ['subject_cn', 'subject_an', 'issuer_cn', 'issuer_org', 'not_after', 'version'] as const;

export function factsOf(a: DiscoveredAsset): store.AssetFacts {
  const h = a.http;
  return {
    asset_key: a.port ? `${a.host}:${a.port}` : a.host,
    host: a.host,
    port: a.port ?? null,
    url: h?.url ?? null,
    ip: [...a.ip].sort(),
    cname: a.cname,
    status_code: h?.status_code ?? null,
    title: h ? h.title : null,
    webserver: h ? h.webserver : null,
    content_length: h?.content_length ?? null,
    technologies: h ? [...h.technologies].sort() : [],
    favicon: h ? h.favicon : null,
    chain_status_codes: h?.chain_status_codes ?? [],
    redirect_location: h ? h.redirect_location : null,
    tls: a.tls ? { ...a.tls } : null,
    sources: a.sources,
    screenshot: a.screenshot ? Buffer.from(a.screenshot, 'base64') : null,
  };
}

const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

/** {name, from, to} for every compared field that differs. */
export function changesBetween(
  old: store.AssetRow,
  f: store.AssetFacts,
): { name: string; from: unknown; to: unknown }[] {
  const out: { name: string; from: unknown; to: unknown }[] = [];
  for (const k of COMPARED) {
    const before = k === 'ip' || k === 'technologies' ? [...(old[k] as string[])].sort() : old[k];
    // Without redirects the chain is the status code alone: its change is the status_code change.
    if (k === 'chain_status_codes' && old.chain_status_codes.length <= 1 && f.chain_status_codes.length <= 1) continue;
    if (!same(before, f[k])) out.push({ name: k, from: before ?? null, to: f[k] ?? null });
  }
  const ot = (old.tls ?? {}) as Record<string, unknown>;
  const nt = (f.tls ?? {}) as Record<string, unknown>;
  for (const k of TLS_COMPARED)
    if (!same(ot[k], nt[k])) out.push({ name: `tls_${k}`, from: ot[k] ?? null, to: nt[k] ?? null });
  return out;
}

function snapshot(
  f: Pick<
    store.AssetFacts,
    'host' | 'port' | 'url' | 'ip' | 'cname' | 'status_code' | 'title' | 'webserver' | 'content_length' | 'technologies'
  >,
  labels: string[],
) {
  return {
    name: f.url ?? (f.port ? `${f.host}:${f.port}` : f.host),
    host: f.host,
    port: f.port,
    ip: f.ip,
    cname: f.cname,
    status_code: f.status_code,
    title: f.title,
    webserver: f.webserver,
    content_length: f.content_length,
    technologies: f.technologies,
    labels,
  };
}

/** Assets read and compared at a time when a run is stored: the run is never held whole. */
const STORE_PAGE = 500;

/**
 * Stores a run's assets (staged by its attempt in enumeration_found) and history, page by page; returns
 * the ids of assets new or changed in it, and counts. Runs inside the run's final transaction.
 */
export async function storeRun(
  db: Db,
  row: store.EnumerationRow,
  run: number,
  attempt: string,
): Promise<{ touched: string[]; fresh: string[]; total: number }> {
  const touched: string[] = [];
  const fresh: string[] = [];
  let total = 0;
  const log = (assetId: string, eventType: string, changeEvent: unknown[], snap: Record<string, unknown>) =>
    store.insertChangelog(db, {
      teamId: row.team_id,
      assetId,
      enumerationId: row.id,
      run,
      eventType,
      changeEvent,
      snapshot: snap,
    });
  for (let after = ''; ;) {
    const page = await store.foundPage(db, row.id, attempt, after, STORE_PAGE);
    if (!page.length) break;
    after = page[page.length - 1]!.asset_key;
    total += page.length;
    const existing = new Map(
      (
        await store.assetsByKeys(
          db,
          row.id,
          page.map((f) => f.asset_key),
        )
      ).map((a) => [a.asset_key, a]),
    );
    for (const f of page) {
      const old = existing.get(f.asset_key);
      if (!old) {
        const id = await store.insertAsset(db, row.team_id, row.id, run, f);
        await log(id, 'appeared', [{ name: 'asset', from: null, to: 'appeared' }], snapshot(f, []));
        touched.push(id);
        fresh.push(id);
        continue;
      }
      const reappeared = old.disappeared_at !== null;
      const changes = reappeared ? [] : changesBetween(old, f);
      await store.updateAsset(db, old.id, run, f, changes.length > 0, reappeared);
      if (reappeared) {
        await log(
          old.id,
          'appeared',
          [{ name: 'asset', from: 'disappeared', to: 'appeared' }],
          snapshot(f, old.labels),
        );
        fresh.push(old.id);
      }
      if (changes.length) await log(old.id, 'changed', changes, snapshot(f, old.labels));
      if (reappeared || changes.length) touched.push(old.id);
    }
  }
  // Every asset the run found now has last_seen_run = run: the others present before have disappeared.
  for (let afterId = '0'; ;) {
    const page = await store.unseenPage(db, row.id, run, afterId, STORE_PAGE);
    if (!page.length) break;
    afterId = page[page.length - 1]!.id;
    for (const old of page) {
      await store.markDisappeared(db, old.id, run);
      await log(
        old.id,
        'disappeared',
        [{ name: 'asset', from: 'present', to: 'disappeared' }],
        snapshot(old, old.labels),
      );
    }
  }
  await store.dropFound(db, row.id, run, true);
  return { touched, fresh, total };
}

/**
 * dns_passive's keys (the enumeration's provider_config, then its subfinder configs) and source addresses
 * (VIGIL_PASSIVE_<SOURCE>_URL replaces a source's base URL: mirrors, air-gapped installs).
 */
export async function passiveSettings(db: Db, teamId: string, cfg: EnumerationConfigInput, notices: string[]) {
  const keys: Record<string, string[]> = {};
  const add = (text: string, what: string) => {
    try {
      for (const [k, v] of Object.entries(parseProviderConfig(text))) keys[k] = [...(keys[k] ?? []), ...v];
    } catch {
      notices.push(`dns_passive: ${what} is not a subfinder provider config (YAML); its keys are not used`);
    }
  };
  if (cfg.provider_config) add(cfg.provider_config, 'enumeration_config.provider_config');
  const ids = cfg.subfinder_config_ids ?? [];
  const found = new Map(
    (await loadConfigs(db, teamId, ids)).filter((c) => c.config_type === 'subfinder').map((c) => [c.id, c]),
  );
  for (const id of ids) {
    const c = found.get(id);
    if (c) add(c.config ?? '', `subfinder config ${id}`);
    else notices.push(`dns_passive: subfinder config ${id} not found; its keys are not used`);
  }
  const baseUrls: Record<string, string> = {};
  for (const src of PASSIVE_SOURCES) {
    const v = process.env[`VIGIL_PASSIVE_${src.name.toUpperCase()}_URL`];
    if (v) baseUrls[src.name] = v.replace(/\/+$/, '');
  }
  return { keys, baseUrls };
}

const STEP_ORDER: Step[] = [
  'dns_passive',
  'dns_bruteforce',
  'dns_resolve',
  'port_scan',
  'http_probe',
  'tls_scan',
  'http_screenshot',
];

/**
 * What a run's discovery thread gets: the enumeration's settings, its technology templates' texts, its
 * cloud accounts and passive keys (read here, where the database is), the deny list's settings and the limits.
 */
async function discoveryInput(ctx: JobContext, row: store.EnumerationRow, notices: string[]) {
  const cfg = row.enumeration_config as EnumerationConfigInput;
  const steps = row.steps as Step[];
  let tech: DiscoveryThreadInput['tech'];
  if (steps.includes('http_probe') && cfg.technology_templates?.length !== 0) {
    const templates = await technologyTemplates(
      ctx.db,
      row.team_id,
      cfg.technology_templates ?? DEFAULT_TECH_TEMPLATES,
    );
    if (typeof templates === 'string') notices.push(templates);
    else tech = { templates, options: { timeoutSeconds: cfg.timeout ?? 5, ipUrls: (cfg.resolvers ?? []).length > 0 } };
  }
  const cloud = await cloudSettings(ctx.db, row.team_id, cfg.cloudlist_config_ids ?? [], notices);
  const input: DiscoveryThreadInput = {
    config: {
      roots: row.root_domains,
      steps,
      ports: row.enumeration_ports ?? cfg.ports,
      resolvers: cfg.resolvers,
      wordlist: cfg.wordlist,
      exclusions: row.exclusions,
      followRedirects: cfg['follow-redirect'] ?? true,
      passive: steps.includes('dns_passive') ? await passiveSettings(ctx.db, row.team_id, cfg, notices) : undefined,
      cloud,
      limits: {
        concurrency: cfg.concurrency ?? 50,
        rateLimit: cfg.rate_limit ?? 0,
        timeoutMs: cfg.timeout ? cfg.timeout * 1000 : 3000,
        maxProbes: ctx.config.maxEnumerationProbes,
      },
    },
    deny: {
      port: ctx.config.port,
      host: ctx.config.host,
      denyTargets: ctx.config.denyTargets,
      allowDeniedTargets: ctx.config.allowDeniedTargets,
    },
    tech,
    batchSize: STORE_PAGE,
  };
  return { input, cloud };
}

export async function runEnumeration(
  ctx: JobContext,
  job: EnumerateJob,
  onStored?: (newAssetIds: string[]) => Promise<void>,
): Promise<{ outcome: string }> {
  const row = await store.getEnumeration(ctx.db, null, job.enumerationId);
  if (!row || row.run !== job.run) return { outcome: 'superseded' };
  if (row.done_run < job.run) {
    // Stored before a limit was lowered, or by an older version: refused for good, not retried.
    try {
      checkEnumeration(row, ctx.config);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await store.failRun(ctx.db, row.id, job.run, `the run was refused: ${err.message}`);
      return { outcome: 'refused' };
    }
    await store.markRunning(ctx.db, row.id, job.run);
    const cfg = row.enumeration_config as EnumerationConfigInput;
    const notices: string[] = [];
    const steps = row.steps as Step[];
    const order = STEP_ORDER.filter((s) => steps.includes(s) || s === 'dns_resolve');
    let lastWrite = 0;
    const sink = (e: Extract<DiscoveryEvent, { type: 'notice' | 'progress' }>) => {
      if (e.type === 'notice') notices.push(e.message);
      if (e.type !== 'progress' || e.total <= 0) return;
      const i = order.indexOf(e.step);
      const pct = Math.min(99, Math.floor(((Math.max(0, i) + e.done / e.total) / order.length) * 100));
      const now = Date.now();
      if (now - lastWrite < 500) return;
      lastWrite = now;
      void store.setProgress(ctx.db, row.id, job.run, pct).catch(() => {});
    };
    const { input, cloud } = await discoveryInput(ctx, row, notices);
    // Each attempt stages what it finds under its own name; the final transaction stores only its own.
    const attempt = randomUUID();
    await store.dropFound(ctx.db, row.id, job.run, false);
    const discovered = await runDiscoveryThread(input, {
      signal: ctx.signal,
      onEvent: sink,
      onAssets: (assets) => store.stageFound(ctx.db, row.id, job.run, attempt, assets.map(factsOf)),
    });
    const alerts = await ctx.db.transaction(async (tx) => {
      const current = await store.getEnumeration(tx, null, row.id);
      if (!current || current.run !== job.run || current.done_run >= job.run) return undefined;
      const out = await storeRun(tx, row, job.run, attempt);
      const queued = await applyPoliciesToRun(tx, row.team_id, row.id, job.run, out.touched);
      await store.finishRun(tx, row.id, job.run, { total: out.total, fresh: out.fresh.length, notices });
      const providers = cloud && providerNames(cloud.providers);
      if (providers && providers !== cfg.cloudlist_provider_name)
        await store.setCloudProviderName(tx, row.id, providers);
      return queued;
    });
    if (alerts === undefined) return { outcome: 'superseded' };
    ctx.log.info(
      {
        enumeration_id: row.id,
        run: job.run,
        total_assets: discovered.total,
        discovery_heap_mb: discovered.peakHeapMb,
        notices,
      },
      'enumeration run stored',
    );
  }
  // Alerts and the automatic scan after the commit; both are safe to repeat.
  await sendAlerts(ctx, await pendingAlertsOfRun(ctx.db, row.team_id, row.id, job.run));
  const fresh = await store.newAssetsOfRun(ctx.db, row.id, job.run);
  // The first run (1) finds everything: only later runs' new assets are news.
  if (job.run > 1) {
    // An event row for the monitor loop, which turns it into new_asset alerts (once per run).
    if (fresh.length) {
      await insertAssetEvent(ctx.db, row.team_id, {
        event: 'new_asset',
        data: {
          configIds: row.alerting_config_ids ?? [],
          enumerationId: row.id,
          enumerationName: row.name,
          run: job.run,
          assets: fresh.map((r) => ({ host: r.host, port: r.port })),
        },
      });
    }
  }
  if (onStored) await onStored(fresh.map((r) => r.id));
  return { outcome: 'stored' };
}
