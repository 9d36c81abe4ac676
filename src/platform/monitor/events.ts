// Turns scan events (written by a trigger when a scan starts running, finishes, fails or is stopped) into
// deliveries: alerts for the alerting configs that apply to the scan and ask for the event, a new_finding
// alert after a rescan that found something new, and one ticket per finding for each reporting config.
// Asset events (rows the assets area writes: a policy matched, a run found new assets) become alerts too.
import type { AppContext } from '../shared/context.ts';
import { getScanById } from '../scans/store.ts';
import { configsFor, type ConfigRow } from '../configs/store.ts';
import { asksFor, parseConfig } from '../configs/parsed.ts';
import { claimAssetEvents, finishAssetEvent, pruneAssetEvents, type AssetEvent } from '../assets/event-store.ts';
import * as store from './delivery-store.ts';
import { applyVulnScores, markFindingStates } from './finding-state.ts';

const LEASE_SECONDS = 60;
const MAX_FINDINGS_IN_ALERT = 50;

/** Severity rank: unknown < info < low < medium < high < critical. */
export function severityRank(s: string): number {
  const order = ['unknown', 'info', 'low', 'medium', 'high', 'critical'];
  const i = order.indexOf(String(s).toLowerCase());
  return i < 0 ? 0 : i;
}

/** The alerting configs (the given ones and the team's global ones) whose `events` include `event`. */
async function alertingConfigsFor(
  ctx: Pick<AppContext, 'db'>,
  teamId: string,
  ids: string[],
  event: string,
): Promise<ConfigRow[]> {
  return (await configsFor(ctx.db, teamId, ids, ['alerting'], true)).filter((c) => asksFor(parseConfig(c), event));
}

interface ScanRequestRefs {
  alerting_config_ids?: string[];
  reporting_config_ids?: string[];
  disable_global_alert_config?: boolean;
  disable_global_report_config?: boolean;
}

/** One pass: handles the pending events (each once, across processes). */
let lastPrune = 0;

export async function processEvents(ctx: AppContext, limit = 50): Promise<number> {
  if (Date.now() - lastPrune > 3_600_000) {
    lastPrune = Date.now();
    await store.pruneEvents(ctx.db);
    await pruneAssetEvents(ctx.db);
  }
  const events = await store.claimEvents(ctx.db, limit, LEASE_SECONDS);
  for (const ev of events) {
    await handleEvent(ctx, ev);
    await store.finishEvent(ctx.db, ev.id);
  }
  const assetEvents = await claimAssetEvents(ctx.db, limit, LEASE_SECONDS);
  for (const ev of assetEvents) {
    await handleAssetEvent(ctx, ev);
    await finishAssetEvent(ctx.db, ev.id);
  }
  return events.length + assetEvents.length;
}

async function handleAssetEvent(ctx: AppContext, ev: AssetEvent): Promise<void> {
  if (ev.event === 'asset_policy_match') await queueAssetPolicyAlert(ctx, { teamId: ev.team_id, ...ev.data });
  else if (ev.event === 'new_asset') await queueNewAssetsAlert(ctx, { teamId: ev.team_id, ...ev.data });
}

async function handleEvent(ctx: AppContext, ev: store.EventRow): Promise<void> {
  let scan = await getScanById(ctx.db, ev.scan_id);
  if (!scan) return; // deleted since
  if (ev.event === 'scan_finished') {
    // Scores and states first: the alerts and tickets below see the scored severities.
    await applyVulnScores(
      ctx.db,
      scan.id,
      ev.team_id,
      scan.request as { scan_config_ids?: string[]; disable_global_scan_config?: boolean },
    );
    await markFindingStates(ctx.db, scan.id, ev.run);
    scan = (await getScanById(ctx.db, ev.scan_id)) ?? scan;
  }
  const req = scan.request as ScanRequestRefs;
  const base = {
    event: ev.event,
    scan_id: scan.id,
    scan_name: scan.name,
    status: scan.status,
    run: ev.run,
    rescan_count: ev.run,
    failure_reason: ev.reason ?? '',
    total_result: scan.total_result,
    severity: scan.severity,
    timestamp: new Date(ev.created_at).toISOString(),
  };
  const deliveries: store.NewDelivery[] = [];
  const common = { teamId: ev.team_id, scanId: scan.id, run: ev.run };

  // Each config's YAML parsed once for this event.
  const alerting = (
    await configsFor(ctx.db, ev.team_id, req.alerting_config_ids ?? [], ['alerting'], !req.disable_global_alert_config)
  ).map((c) => ({ c, doc: parseConfig(c) }));
  for (const { c, doc } of alerting) {
    if (asksFor(doc, ev.event)) {
      deliveries.push({
        ...common,
        configId: c.id,
        kind: 'alert',
        event: ev.event,
        payload: { ...base, message: eventMessage(base) },
      });
    }
  }

  if (ev.event === 'scan_finished') {
    // New findings of a rescan, for the configs that ask for them (with their severity floor).
    const wantNew = alerting.filter(({ doc }) => asksFor(doc, 'new_finding'));
    if (ev.run > 0 && wantNew.length) {
      const fresh = await store.runFindings(ctx.db, scan.id, ev.run, true);
      for (const { c, doc } of wantNew) {
        const floor = severityRank(String(doc['min-severity'] ?? 'info'));
        const hits = fresh.filter((f) => severityRank(f.severity) >= floor);
        if (!hits.length) continue;
        const payload = {
          ...base,
          event: 'new_finding',
          findings_count: hits.length,
          findings: hits.slice(0, MAX_FINDINGS_IN_ALERT).map(findingView),
        };
        deliveries.push({
          ...common,
          configId: c.id,
          kind: 'alert',
          event: 'new_finding',
          payload: { ...payload, message: eventMessage(payload) },
        });
      }
    }

    // Tickets: every finding seen in this run, for each reporting config whose lists let it through. A
    // finding that already has a ticket gets it updated, not a second one (see trackers.ts).
    const reporting = await configsFor(
      ctx.db,
      ev.team_id,
      req.reporting_config_ids ?? [],
      ['reporting'],
      !req.disable_global_report_config,
    );
    if (reporting.length) {
      const seen = await store.runFindings(ctx.db, scan.id, ev.run, false);
      for (const c of reporting) {
        const doc = parseConfig(c);
        for (const f of seen.filter((x) => passes(doc, x))) {
          deliveries.push({
            ...common,
            configId: c.id,
            kind: 'ticket',
            event: 'ticket',
            vulnHash: f.vuln_hash,
            payload: { scan_id: scan.id, scan_name: scan.name, run: ev.run, finding: findingView(f) },
          });
        }
      }
    }
  }
  await store.insertDeliveries(ctx.db, deliveries);
}

function findingView(f: store.FindingSummary) {
  return {
    vuln_hash: f.vuln_hash,
    template_id: f.template_id,
    name: f.name ?? f.template_id,
    severity: f.severity,
    host: f.host,
    matched_at: f.matched_at,
    tags: f.tags,
    description: f.description ?? '',
  };
}

/** allow-list / deny-list of a reporting config (severity and tags). */
function passes(doc: Record<string, unknown>, f: store.FindingSummary): boolean {
  const match = (l: { severity?: string[]; tags?: string[] } | undefined) =>
    !!l &&
    ((l.severity ?? []).map((s) => s.toLowerCase()).includes(f.severity.toLowerCase()) ||
      (l.tags ?? []).some((t) => f.tags.map((x) => x.toLowerCase()).includes(t.toLowerCase())));
  const allow = doc['allow-list'] as { severity?: string[]; tags?: string[] } | undefined;
  const deny = doc['deny-list'] as { severity?: string[]; tags?: string[] } | undefined;
  if (allow && (allow.severity?.length || allow.tags?.length) && !match(allow)) return false;
  return !match(deny);
}

/** A one-line text for chat and mail. */
export function eventMessage(p: {
  event: string;
  scan_name: string;
  scan_id: string;
  failure_reason?: string;
  total_result?: number;
  findings_count?: number;
  findings?: { severity: string; name: string; matched_at: string }[];
}): string {
  const scan = `scan "${p.scan_name}" (${p.scan_id})`;
  switch (p.event) {
    case 'scan_running':
      return `Vigil: ${scan} is running`;
    case 'scan_finished':
      return `Vigil: ${scan} finished with ${p.total_result ?? 0} findings`;
    case 'scan_stopped':
      return `Vigil: ${scan} was stopped`;
    case 'scan_failed':
      return `Vigil: ${scan} failed: ${p.failure_reason || 'unknown reason'}`;
    case 'new_finding': {
      const list = (p.findings ?? [])
        .slice(0, 10)
        .map((f) => `[${f.severity}] ${f.name} at ${f.matched_at}`)
        .join('; ');
      return `Vigil: ${p.findings_count} new finding(s) in ${scan}: ${list}`;
    }
    default:
      return `Vigil: ${scan}: ${p.event}`;
  }
}

/**
 * An asset policy's alert: one delivery per alerting config that asks for `asset_policy_match` (the
 * policy's own configs and the team's global ones), deduplicated by the policy event (a retried job
 * queues nothing twice). The monitor loop sends them like every other alert, with retries.
 */
export async function queueAssetPolicyAlert(
  ctx: Pick<AppContext, 'db'>,
  a: { teamId: string; configIds: string[]; eventId: string; policyName: string; payload: Record<string, unknown> },
): Promise<number> {
  const wanted = await alertingConfigsFor(ctx, a.teamId, a.configIds, 'asset_policy_match');
  const assets = (a.payload.message_payload as { host?: string; name?: string } | undefined) ?? {};
  const what = assets.host ?? assets.name ?? 'an asset';
  const payload = {
    ...a.payload,
    event: 'asset_policy_match',
    scan_id: '',
    scan_name: a.policyName,
    message: `Vigil: asset policy "${a.policyName}" matched ${what}`,
  };
  await store.insertDeliveries(
    ctx.db,
    wanted.map((c) => ({
      configId: c.id,
      teamId: a.teamId,
      kind: 'alert' as const,
      event: 'asset_policy_match',
      scanId: null,
      run: null,
      vulnHash: `asset-event:${a.eventId}`,
      payload,
    })),
  );
  return wanted.length;
}

/**
 * New assets of an enumeration run: one `new_asset` delivery per alerting config that asks for it (the
 * enumeration's own and the team's global ones), once per run (a retried job adds nothing).
 */
export async function queueNewAssetsAlert(
  ctx: Pick<AppContext, 'db'>,
  a: {
    teamId: string;
    configIds: string[];
    enumerationId: string;
    enumerationName: string;
    run: number;
    assets: { host: string; port?: number | null }[];
  },
): Promise<number> {
  if (a.assets.length === 0) return 0;
  const wanted = await alertingConfigsFor(ctx, a.teamId, a.configIds, 'new_asset');
  const names = a.assets.slice(0, 20).map((x) => (x.port ? `${x.host}:${x.port}` : x.host));
  const payload = {
    event: 'new_asset',
    scan_id: '',
    scan_name: a.enumerationName,
    enumeration_id: a.enumerationId,
    run: a.run,
    assets_count: a.assets.length,
    assets: a.assets.slice(0, MAX_FINDINGS_IN_ALERT),
    message: `Vigil: ${a.assets.length} new asset(s) in enumeration "${a.enumerationName}": ${names.join(', ')}${a.assets.length > names.length ? ', ...' : ''}`,
  };
  await store.insertDeliveries(
    ctx.db,
    wanted.map((c) => ({
      configId: c.id,
      teamId: a.teamId,
      kind: 'alert' as const,
      event: 'new_asset',
      scanId: null,
      run: a.run,
      vulnHash: `enumeration:${a.enumerationId}`,
      payload,
    })),
  );
  return wanted.length;
}
