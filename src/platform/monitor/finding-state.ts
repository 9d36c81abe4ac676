// What a finished run means for the scan's findings: vuln_score rules change severities, findings the run
// did not see again are fixed, fixed ones it saw again are regressions. Runs (in events.ts) before the
// run's alerts and tickets are made, so they see the scored severities.
import yaml from 'js-yaml';
import type { Db } from '../../db/connection.ts';
import { recountResults, setSeverities } from '../scans/store.ts';
import { configsFor } from '../configs/store.ts';
import { findingsToScore } from './finding-store.ts';

export { markFindingStates } from '../scans/store.ts';

interface Rule {
  template?: string;
  tag?: string;
  host?: string;
  severity: string;
}

interface ScanRefs {
  scan_config_ids?: string[];
  disable_global_scan_config?: boolean;
}

/** The host name of a finding's host field ("http://a.example:8080", "a.example:443", "a.example"). */
function hostName(h: string): string {
  try {
    return new URL(h.includes('://') ? h : `x://${h}`).hostname.toLowerCase();
  } catch {
    return h.toLowerCase();
  }
}

/** Whether a rule covers a finding: every field the rule gives must match. */
export function ruleMatches(
  rule: Rule,
  f: { template_id: string; template_path: string | null; tags: string[]; host: string },
): boolean {
  if (rule.template && rule.template !== f.template_id && rule.template !== f.template_path) return false;
  if (rule.tag && !f.tags.map((t) => t.toLowerCase()).includes(rule.tag.toLowerCase())) return false;
  if (rule.host) {
    const want = rule.host.toLowerCase();
    if (want !== f.host.toLowerCase() && want !== hostName(f.host)) return false;
  }
  return true;
}

/**
 * Applies the vuln_score configs of a scan (named in scan_config_ids, and the team's global ones unless
 * disable_global_scan_config) to all its findings; the last matching rule wins. The engine's severity is
 * kept in original_severity, and a finding no rule covers any more gets it back.
 */
export async function applyVulnScores(db: Db, scanId: string, teamId: string, refs: ScanRefs): Promise<number> {
  const configs = await configsFor(
    db,
    teamId,
    refs.scan_config_ids ?? [],
    ['vuln_score'],
    !refs.disable_global_scan_config,
  );
  const rules: Rule[] = configs.flatMap((c) => {
    try {
      return (yaml.load(c.config, { schema: yaml.CORE_SCHEMA }) as { rules?: Rule[] })?.rules ?? [];
    } catch {
      return [];
    }
  });
  const rows = await findingsToScore(db, scanId, rules.length === 0);
  const changes: { id: string; severity: string; original: string | null }[] = [];
  for (const f of rows) {
    const engine = f.original_severity ?? f.severity;
    let sev: string | undefined;
    for (const r of rules) if (ruleMatches(r, f)) sev = r.severity;
    const next = sev ?? engine;
    const original = sev !== undefined && sev !== engine ? engine : null;
    if (next !== f.severity || original !== f.original_severity) changes.push({ id: f.id, severity: next, original });
  }
  if (!changes.length) return 0;
  await setSeverities(db, changes);
  await recountResults(db, scanId);
  return changes.length;
}
