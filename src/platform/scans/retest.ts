// Retesting one finding: a small scan of its one template against its one target (with the agent fields of
// the request), settled when that scan ends (chunk.ts calls triage-store's settleRetest after each chunk): no match → fixed,
// a match → it stays, or reopens as a regression if it was fixed (triage-store.ts settleRetest).
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { ApiError, badRequest, notFound } from '../shared/errors.ts';
import { checkDenied, denyList } from '../shared/deny.ts';
import { checkTarget, isInternalTarget } from './targets.ts';
import { resolveStoreTemplates } from './sources.ts';
import { startRun } from './dispatch.ts';
import * as scanStore from './store.ts';
import * as store from './triage-store.ts';
import { getFinding } from './triage.ts';
import { newScanId } from './service.ts';

export interface RetestBody {
  socks5_proxy?: string;
  agent_id?: string;
  agent_tags?: string[];
  agent_networks?: string[];
}

/** The catalogue's (or the team's private) template by id; undefined when there is none. */
async function catalogueTemplate(ctx: AppContext, teamId: string, templateId: string) {
  try {
    const found = await resolveStoreTemplates(ctx.db, teamId, {
      templates: [templateId],
      earlyTemplates: [],
      recommended: false,
      all: false,
    });
    return found[0];
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return undefined; // "no such template"
    throw err;
  }
}

/** Starts a retest of a finding; answers the finding as it is (its status changes when the retest ends). */
export async function retest(ctx: AppContext, caller: Caller, vulnId: string, body: RetestBody) {
  const finding = await getFinding(ctx, caller.teamId, vulnId);
  const original = await scanStore.getScan(ctx.db, caller.teamId, finding.scan_id);
  if (!original) throw notFound(`finding ${vulnId} not found`, 'vuln_id');
  const target = finding.target;
  checkTarget(target, 'vuln_id');
  checkDenied(denyList(ctx.config), [target], 'vuln_id');
  // The template as the scan ran it (an inline one's text), else the catalogue's current version.
  const ran = (await scanStore.loadTemplates(ctx.db, original.id)).find(
    (t) => t.templateId === finding.template_id && t.raw !== '',
  );
  const template = ran
    ? { templateId: ran.templateId, uri: ran.uri, source: 'inline', raw: ran.raw }
    : await catalogueTemplate(ctx, caller.teamId, finding.template_id);
  if (!template)
    throw badRequest(`template ${finding.template_id} of finding ${vulnId} is no longer available to run`, 'vuln_id');
  const id = newScanId();
  const request = {
    targets: [target],
    templates: [finding.template_id],
    retest_of: finding.vuln_id,
    ...(body.socks5_proxy ? { socks5_proxy: body.socks5_proxy } : {}),
    ...(body.agent_id ? { agent_id: body.agent_id } : {}),
    ...(body.agent_tags?.length ? { agent_tags: body.agent_tags } : {}),
    ...(body.agent_networks?.length ? { agent_networks: body.agent_networks } : {}),
  };
  await ctx.db.transaction(async (tx) => {
    await scanStore.insertScan(tx, {
      id,
      teamId: caller.teamId,
      status: 'queued',
      createdBy: caller.userId,
      targets: [target],
      totalTemplate: 1,
      name: `retest: ${finding.template_id} on ${target}`,
      request,
      engineOptions: original.engine_options ?? {},
      isAutomatic: false,
      isInternal: isInternalTarget(target),
    });
    await scanStore.replaceTemplates(tx, id, [template]);
    await store.insertRetest(tx, {
      teamId: caller.teamId,
      resultId: finding.vuln_id,
      scanId: id,
      requestedBy: caller.email,
    });
  });
  await startRun(ctx, id, 0, [target]);
  return { message: `retest queued as scan ${id}`, results: finding, retest_scan_id: id };
}

/** The latest retest of a finding: its state and the finding as it is now. */
export async function retestState(ctx: AppContext, teamId: string, vulnId: string) {
  let finding = await getFinding(ctx, teamId, vulnId);
  const r = await store.latestRetest(ctx.db, teamId, finding.vuln_id);
  if (!r) throw notFound(`finding ${vulnId} has not been retested`, 'vuln_id');
  // Settling changes the retest and the finding in one transaction, which may commit between the two reads
  // above: a settled retest is answered with the finding read after it, never with its status before.
  if (r.status !== 'running') finding = await getFinding(ctx, teamId, vulnId);
  const status = r.status === 'running' && r.scan_status === 'failed' ? 'failed' : r.status;
  return {
    message: status === 'running' ? 'retest running' : `retest ${status.replace('_', ' ')}`,
    retest_status: status,
    retest_scan_id: r.retest_scan_id,
    requested_by: r.requested_by,
    retested_at: new Date(r.created_at).toISOString(),
    finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : undefined,
    results: { ...finding, event: [finding.event] },
  };
}
