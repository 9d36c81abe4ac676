// The scan runner: every target x every template, templates `concurrency` at a time and hosts
// `bulkSize` at a time per template, all requests under one global rate limit. Results stream out
// through callbacks as they come.
import type { Template } from './template/types.ts';
import type { ResultEvent } from './output/types.ts';
import { protocolFor } from './protocols/registry.ts';
import { executeFlow, flowOf } from './flow/run.ts';
import { executeBlocks, executeCluster, failureEvent, templateProtocol, templateSteps } from './protocols/execute.ts';
import './protocols/index.ts';
import { runWorkflow } from './workflow/run.ts';
import { calledProtocols } from './flow/simple.ts';
import { clusterTemplates } from './runner/cluster.ts';
import { closeClients as closeHttpClients } from './protocols/http/client.ts';
import { closeBrowser } from './protocols/headless/browser.ts';
import { TokenBucket } from './runner/rate-limit.ts';
import { HostErrors } from './runner/host-errors.ts';
import { forEachLimit } from './runner/pool.ts';
import { fastAbortController } from './runner/run-signal.ts';
import type { ExecuteTemplateOptions, ScanOptions, ScanStats } from './runner/types.ts';
import { redactEvent } from './secrets/redact.ts';
import { guardFor } from './net/guard.ts';
import { signatureRefusal } from './runner/signature-gate.ts';
import { compileTemplate } from './template/lazy-template.ts';
import { OastClient } from './oast/client.ts';

export type {
  InteractshOptions,
  ScanOptions,
  ScanStats,
  ExecuteTemplateOptions,
  AttemptInfo,
  ProgressInfo,
  SecretApplier,
} from './runner/types.ts';

/** Closes every pooled connection and the headless browser (tests and the CLI call this at the end of a scan). */
export async function closeClients(): Promise<void> {
  await Promise.all([closeHttpClients(), closeBrowser()]);
}

/**
 * Why a template cannot run here, or undefined when it can. A template loaded lazily is compiled here
 * (its first use): one whose compile finds errors cannot run.
 */
export function unsupportedReason(t: Template, can: { workflows?: boolean } = {}): string | undefined {
  const invalid = invalidReason(t);
  if (invalid) return invalid;
  if (t.workflows && t.workflows.length > 0) return can.workflows ? undefined : 'is a workflow';
  if (t.flow) {
    // A flow may call any protocol this engine runs (flow/run.ts); the calls are read off its text.
    const flow = flowOf(t);
    const called = 'error' in flow ? calledProtocols(t.flow) : flow.calls.map((c) => c.protocol);
    const missing = [...new Set(called.filter((p) => !protocolFor(p)))];
    if (missing.length) return `uses a flow over the ${missing.join(', ')} protocol`;
  }
  const steps = templateSteps(t);
  return typeof steps === 'string' ? steps : undefined;
}

/** Compiles a template loaded lazily; why it cannot run when its compile finds errors. */
function invalidReason(t: Template): string | undefined {
  const { issues } = compileTemplate(t);
  if (issues.length === 0) return undefined;
  return `is invalid (${issues[0].field ? `${issues[0].field}: ` : ''}${issues[0].reason})`;
}

export async function runScan(opts: ScanOptions): Promise<ScanStats> {
  const started = performance.now();
  const runnable: Template[] = [];
  let skippedTemplates = 0;
  let refusedUnsigned = 0;
  let browserSaid = false;
  for (const t of opts.templates) {
    // The signature first: an unsigned javascript template is refused, not "not run yet". It reads the
    // template's text and protocol kinds only, so a template loaded lazily is refused before it is compiled.
    const refused = signatureRefusal(t, opts);
    if (refused) {
      refusedUnsigned++;
      opts.onNotice?.(`refused template ${t.id}: it ${refused}`);
      opts.onTemplateSkipped?.(t.id, `it ${refused}`);
      continue;
    }
    const invalid = invalidReason(t);
    if (invalid) {
      skippedTemplates++;
      opts.onNotice?.(`skipped template ${t.id}: it ${invalid}`);
      opts.onTemplateSkipped?.(t.id, `it ${invalid}`);
      continue;
    }
    const why = unsupportedReason(t, { workflows: Boolean(opts.workflowSource) });
    if (why) {
      skippedTemplates++;
      // No browser: said once for the scan (with how to install one), each template still counted skipped.
      if (why.startsWith('needs a browser')) {
        if (!browserSaid) opts.onNotice?.(`headless templates are skipped: this process ${why}`);
        browserSaid = true;
        opts.onTemplateSkipped?.(t.id, `it ${why}`);
        continue;
      }
      opts.onNotice?.(`skipped template ${t.id}: it ${why}, which this engine does not run yet`);
      opts.onTemplateSkipped?.(t.id, `it ${why}, which this engine does not run yet`);
    } else runnable.push(t);
  }
  const targets = [...new Set(opts.targets.map((x) => x.trim()).filter(Boolean))];
  // Templates that send the same single request share it (nuclei's clustering; --no-cluster turns it off).
  const clusters =
    opts.cluster === false
      ? runnable.map((t) => ({ leader: t, members: [] as Template[] }))
      : clusterTemplates(runnable);
  const units = clusters.map((c) => ({
    t: c.leader,
    members: c.members,
    inputs: c.leader.selfContained ? [undefined] : targets,
  }));
  const total = units.reduce((a, u) => a + u.inputs.length * (1 + u.members.length), 0);
  const stats: ScanStats = {
    templates: runnable.length,
    skippedTemplates: skippedTemplates + refusedUnsigned,
    targets: targets.length,
    total,
    done: 0,
    requests: 0,
    errors: 0,
    matched: 0,
    results: 0,
    durationMs: 0,
    aborted: false,
    skippedHosts: 0,
    refusedUnsigned,
  };
  const bucket = new TokenBucket(opts.rateLimit ?? 150);
  // A host skipped after too many errors is said once (nuclei prints it too), counted in the stats, and
  // handed to the caller (the platform writes it to the scan log).
  const hostErrors = new HostErrors(opts.maxHostErrors ?? 30, (host, errors) => {
    stats.skippedHosts++;
    opts.onNotice?.(
      `skipped host ${host}: ${errors} errors reached the max host errors limit; no more requests go to it`,
    );
    opts.onHostSkipped?.(host, errors);
  });
  // Requests listen on the run's own signal (O(1) listener bookkeeping), which follows the caller's.
  const run = opts.signal ? fastAbortController() : undefined;
  const onAbort = () => {
    bucket.drain();
    run?.abort(opts.signal?.reason);
  };
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const progress = () =>
    opts.onProgress?.({
      done: stats.done,
      total,
      requests: stats.requests,
      errors: stats.errors,
      matched: stats.matched,
    });
  // Out-of-band checks: one interactsh registration for the scan, when a template needs one.
  const oast = await interactshFor(opts, runnable);
  const http = {
    ...requestOptions(opts),
    oast,
    signal: run?.signal,
    disableRedirects: opts.disableRedirects,
    attackType: opts.attackType,
    matcherStatus: opts.matcherStatus,
    resolvers: opts.resolvers,
    traceRoots: opts.traceRoots,
    tracePort: opts.tracePort,
    // No limiter call at all when unlimited: every await costs on the hot path.
    takeToken: (opts.rateLimit ?? 150) > 0 ? () => bucket.take() : undefined,
    onRequest: () => {
      stats.requests++;
    },
    hostErrors,
  };
  const workflowSkips = new Set<string>();

  try {
    await forEachLimit(units, opts.concurrency ?? 25, async ({ t, members, inputs }) => {
      await forEachLimit(inputs, opts.bulkSize ?? 25, async (target) => {
        if (opts.signal?.aborted) return;
        let matched = false;
        let error: string | undefined;
        const onEvent = (ev: ResultEvent) => {
          if (ev['matcher-status']) stats.results++;
          opts.onResult(redactEvent(ev, opts.secrets));
        };
        // One template on one input: flows through the flow executor, a cluster's leader through its
        // protocol's cluster executor, the rest block by block through the protocol interface.
        const runOne = (x: Template, input: string | undefined, emit: (ev: ResultEvent) => void) => {
          if (x.flow) return executeFlow(x, input, http, emit);
          if (x === t && members.length) return executeCluster(x, members, input, http, emit);
          return executeBlocks(x, input, http, emit);
        };
        let membersMatched: Set<string> | undefined;
        try {
          if (t.workflows?.length && opts.workflowSource) {
            const r = await runWorkflow(t, target, opts.workflowSource, async (sub, input) => {
              const why = signatureRefusal(sub, opts) ?? unsupportedReason(sub);
              if (why) {
                // Once per template, not once per target.
                if (!workflowSkips.has(sub.id))
                  opts.onNotice?.(`workflow ${t.id}: skipped template ${sub.id}: it ${why}`);
                workflowSkips.add(sub.id);
                return [];
              }
              const events: ResultEvent[] = [];
              await runOne(sub, sub.selfContained ? undefined : input, (ev) => {
                events.push(ev);
                onEvent(ev);
              });
              return events;
            });
            matched = r.matched;
          } else {
            const r = await runOne(t, target, onEvent);
            matched = r.matched;
            error = r.matched ? undefined : r.error;
            membersMatched = r.membersMatched;
          }
        } catch (err) {
          error = (err as Error).message;
        }
        if (error) stats.errors++;
        if (matched) stats.matched++;
        stats.done++;
        opts.onAttempt?.({
          target: target ?? '',
          templateId: t.id,
          matched,
          error: error && redactEvent(error, opts.secrets),
          severity: t.info.severity,
        });
        // Each clustered template is an attempt of its own, on the same exchange.
        for (const m of members) {
          const hit = Boolean(membersMatched?.has(m.id));
          if (!hit && opts.matcherStatus) onEvent(await failureEvent(m, target, error, templateProtocol(t)));
          if (hit) stats.matched++;
          else if (error) stats.errors++;
          stats.done++;
          opts.onAttempt?.({
            target: target ?? '',
            templateId: m.id,
            matched: hit,
            error: hit ? undefined : error && redactEvent(error, opts.secrets),
            severity: m.info.severity,
          });
        }
        progress();
      });
    });
  } finally {
    // Interactions still on their way: polled until the cooldown after the last name handed out.
    await oast?.close({ wait: !opts.signal?.aborted });
    opts.signal?.removeEventListener('abort', onAbort);
    bucket.drain();
  }
  stats.aborted = Boolean(opts.signal?.aborted);
  stats.durationMs = performance.now() - started;
  return stats;
}

/** The protocols whose blocks fill {{interactsh-url}} (nuclei's: http, network, javascript; code is not run here). */
const OAST_PROTOCOLS = new Set(['tcp', 'javascript']);

/** Whether a template has a block that fills an interactsh marker (so its scan needs a registration). */
export function usesInteractsh(t: Template): boolean {
  const other = t.other.filter((b) => OAST_PROTOCOLS.has(b.protocol)).map((b) => b.raw);
  if (!t.http.length && !other.length) return false;
  return JSON.stringify([t.http, other, t.variables]).includes('interactsh-url');
}

/** The scan's interactsh client, registered when a template needs one; a failure is said, not thrown. */
async function interactshFor(opts: ScanOptions, runnable: Template[]): Promise<OastClient | undefined> {
  const i = opts.interactsh;
  if (!i || !runnable.some(usesInteractsh)) return undefined;
  try {
    return await OastClient.connect({
      server: i.server,
      domain: i.domain,
      token: i.token,
      pollMs: (i.pollSeconds ?? 5) * 1000,
      cooldownMs: (i.cooldownSeconds ?? 5) * 1000,
      evictionMs: (i.evictionSeconds ?? 60) * 1000,
      onNotice: opts.onNotice,
      transport: i.transport,
    });
  } catch (err) {
    opts.onNotice?.(
      `interactsh: could not register with ${i.server}: ${(err as Error).message}; ` +
        'templates using {{interactsh-url}} cannot be checked in this scan',
    );
    return undefined;
  }
}

/**
 * Runs one template on one target and returns its events and every extracted value (internal ones
 * included). The secret file's dynamic login uses this.
 */
export async function executeTemplate(
  t: Template,
  target: string | undefined,
  opts: ExecuteTemplateOptions = {},
): Promise<{ events: ResultEvent[]; dynamic: Record<string, unknown> }> {
  const why = unsupportedReason(t);
  if (why) throw new Error(`template ${t.id} cannot run: it ${why}`);
  const events: ResultEvent[] = [];
  const input = t.selfContained ? undefined : target || undefined;
  // A rate limit when asked (the platform's one-off run paces as its scans do); none for a dynamic login.
  const bucket = opts.rateLimit ? new TokenBucket(opts.rateLimit) : undefined;
  const o = {
    ...requestOptions(opts),
    matcherStatus: opts.matcherStatus,
    resolvers: opts.resolvers,
    trace: opts.trace,
    takeToken: bucket ? () => bucket.take() : undefined,
    onRequest: opts.onRequest,
  };
  if (bucket) opts.signal?.addEventListener('abort', () => bucket.drain(), { once: true });
  const r = await (t.flow ? executeFlow : executeBlocks)(t, input, o, (ev) => events.push(ev));
  bucket?.drain();
  return { events, dynamic: r.dynamic };
}

/** The per-request settings a scan and a single template run share, with the engine's defaults. */
function requestOptions(opts: ExecuteTemplateOptions) {
  return {
    timeout: (opts.timeout ?? 10) * 1000,
    retries: opts.retries ?? 1,
    socks5Proxy: opts.socks5Proxy,
    sni: opts.sni,
    guard: guardFor(opts.egress),
    signal: opts.signal,
    vars: opts.vars ?? {},
    headers: opts.headers,
    varFiles: opts.varFiles,
    secrets: opts.secrets,
    screenshotDir: opts.screenshotDir,
  };
}
