// Remediation retests: a scan under a remediation config (named in scan_config_ids, or a global one unless
// disable_global_scan_config) that still has open findings is run again every `retest-interval` after its
// last run ended. The finished run then marks what it no longer sees as fixed and what comes back as a
// regression (finding-state.ts). One process claims each retest (remediation_runs).
import yaml from 'js-yaml';
import type { AppContext } from '../shared/context.ts';
import { rescan } from '../scans/service.ts';
import { severityRank } from './events.ts';
import { claimRetest, retestCandidates } from './finding-store.ts';

/** "12h" / "7d" in seconds. */
export function intervalSeconds(text: string): number | undefined {
  const m = /^([1-9]\d{0,4})([hd])$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === 'h' ? 3600 : 86_400);
}

/** Starts the retests that are due; returns the scans started. */
export async function runDueRetests(ctx: AppContext, now = new Date()): Promise<string[]> {
  const rows = await retestCandidates(ctx.db);
  const started: string[] = [];
  const done = new Set<string>();
  for (const c of rows) {
    if (done.has(c.scan_id)) continue;
    let doc: { 'retest-interval'?: string; 'min-severity'?: string };
    try {
      doc = (yaml.load(c.config, { schema: yaml.CORE_SCHEMA }) as typeof doc) ?? {};
    } catch {
      continue;
    }
    const every = intervalSeconds(String(doc['retest-interval'] ?? ''));
    if (!every) continue;
    const floor = severityRank(doc['min-severity'] ?? 'unknown');
    if (!c.severities.some((s) => severityRank(s) >= floor)) continue;
    if (new Date(c.completed_at).getTime() + every * 1000 > now.getTime()) continue;
    // Claim: only one process moves last_retest_at past the cut-off.
    const cutoff = new Date(now.getTime() - every * 1000);
    const claimed = await claimRetest(ctx.db, c.scan_id, c.config_id, now, cutoff);
    done.add(c.scan_id);
    if (!claimed) continue;
    try {
      await rescan(ctx, c.team_id, c.scan_id);
      started.push(c.scan_id);
      ctx.log.info({ scan_id: c.scan_id, config_id: c.config_id }, 'remediation retest started');
    } catch (err) {
      ctx.log.warn({ scan_id: c.scan_id, reason: (err as Error).message }, 'remediation retest skipped');
    }
  }
  return started;
}
