// The template editor's run (POST /v1/template/run, Vigil's own): the template being edited, against one
// target, once, with nuclei's -debug as data — each request and response, which matchers fired, what the
// extractors took, the result events. It runs under a scan's rules (the deny list on every connection, the
// signature rule for code/javascript templates, the scan rate limit and per-request timeout, the roles that
// may start scans) and within caps of its own: time, requests sent, requests shown, body sizes and the
// answer's size. It is synchronous: bounded by its time cap, it answers with what ran when a cap stops it.
// It records nothing: no scan in the scans list, no findings, no log (a trial run must not pollute them).
import {
  executeTemplate,
  orderForRedaction,
  redact,
  parseCidr,
  parseTemplate,
  signatureRefusal,
  type ResultEvent,
  type Template,
  type TraceStep,
} from '../../engine/index.ts';
import type { AppContext } from '../shared/context.ts';
import { ApiError, badRequest } from '../shared/errors.ts';
import { denyList, scanEgress } from '../shared/deny.ts';
import { checkTemplate, type LocatedIssue } from '../templates/service.ts';
import { templateCertificates } from '../templates/signing.ts';
import { teamAllowsUnsigned } from '../auth/store.ts';
import { defaultEngineOptions } from './apply-configs.ts';
import { checkTarget, scopeFilter } from './targets.ts';
import { scanExclusions, templateExcluded } from './scan-settings.ts';
import { allWorkerSecretValues } from './worker-secrets.ts';

export const RUN_LIMITS = {
  /** Default and largest time a run may take (seconds); what ran by then is the answer. */
  seconds: 30,
  /** Requests sent before the run is stopped (a payload-heavy template). */
  requests: 500,
  /** Requests shown in the answer (the rest are counted). */
  shown: 50,
  /** Characters of each response body and request body shown. */
  body: 16 * 1024,
  /** Characters of each header value shown. */
  header: 2048,
  /** Rough size of the answer past which no more requests are shown. */
  answer: 1024 * 1024,
  /** Runs of one team at once in this process. */
  perTeam: 2,
} as const;

/** A template the validator refuses: a 400 that lists its errors with their lines. */
export class InvalidTemplate extends ApiError {
  constructor(readonly errors: LocatedIssue[]) {
    const first = errors[0];
    super(
      400,
      `the template is invalid (${errors.length} problem(s)); first: ${first?.field ? `${first.field}: ` : ''}${first?.message ?? 'invalid'}${first?.line ? ` (line ${first.line})` : ''}`,
      'invalid_template',
      'template',
    );
  }
  override body() {
    return { ...super.body(), errors: this.errors };
  }
}

export interface ShownStep {
  block: number;
  request: { method: string; url: string; headers: [string, string][]; body: string; body_truncated: boolean };
  response?: {
    status: number;
    headers: [string, string][];
    body: string;
    body_truncated: boolean;
    duration_ms: number;
  };
  error?: string;
  denied?: boolean;
  matchers: {
    index: number;
    name?: string;
    type: string;
    part?: string;
    negative?: boolean;
    internal?: boolean;
    matched: boolean;
  }[];
  matchers_condition: 'and' | 'or';
  matched: boolean;
  extractors: { index: number; name?: string; type: string; internal?: boolean; values: string[] }[];
}

export interface RunAnswer {
  message: string;
  template_id: string;
  target: string;
  matched: boolean;
  /** Why the run ended early: its time cap, its request cap, or undefined when it ran to its end. */
  stopped?: 'time' | 'requests';
  duration_ms: number;
  requests_sent: number;
  requests_shown: number;
  requests: ShownStep[];
  events: Record<string, unknown>[];
  notices: string[];
  warnings: LocatedIssue[];
}

const running = new Map<string, number>();

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** Replaces each secret value with [REDACTED], as scan output does (the engine's redaction rules). */
function redactor(secrets: string[]): (s: string) => string {
  const values = orderForRedaction(secrets);
  return values.length ? (s) => redact(s, values) : (s) => s;
}

function shownStep(step: TraceStep, clean: (s: string) => string): ShownStep {
  const headers = (hs: [string, string][]) =>
    hs.slice(0, 100).map(([k, v]): [string, string] => [cut(k, 256), cut(clean(v), RUN_LIMITS.header)]);
  const reqBody = clean(step.request.body);
  const out: ShownStep = {
    block: step.block,
    request: {
      method: step.request.method,
      url: cut(clean(step.request.url), 8192),
      headers: headers(step.request.headers),
      body: cut(reqBody, RUN_LIMITS.body),
      body_truncated: reqBody.length > RUN_LIMITS.body,
    },
    matchers: step.matchers,
    matchers_condition: step.matchersCondition,
    matched: step.matched,
    extractors: step.extractors.map((e) => ({ ...e, values: e.values.slice(0, 100).map((v) => cut(clean(v), 4096)) })),
  };
  if (step.response) {
    const body = clean(step.response.body);
    out.response = {
      status: step.response.status,
      headers: headers(step.response.headers),
      body: cut(body, RUN_LIMITS.body),
      body_truncated: body.length > RUN_LIMITS.body,
      duration_ms: step.response.durationMs,
    };
  }
  if (step.error !== undefined) {
    out.error = cut(clean(step.error), 4096);
    // The connect guard's refusals read "... refused: <reason>" (the deny list, on the address connected to).
    if (/\brefused: /.test(step.error)) out.denied = true;
  }
  return out;
}

/** The fields of a result event the editor shows (request and response texts cut to the body cap). */
function shownEvent(ev: ResultEvent, clean: (s: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of [
    'template-id',
    'type',
    'host',
    'matched-at',
    'matcher-name',
    'extractor-name',
    'matcher-status',
    'ip',
    'error',
  ] as const) {
    const v = ev[k];
    if (v !== undefined) out[k] = typeof v === 'string' ? cut(clean(v), 8192) : v;
  }
  if (ev['extracted-results'])
    out['extracted-results'] = ev['extracted-results'].slice(0, 100).map((v) => cut(clean(v), 4096));
  // An http event's request and response are the traced steps' already: shown once, there.
  if (ev.type !== 'http')
    for (const k of ['request', 'response'] as const) {
      const v = ev[k];
      if (typeof v === 'string') out[k] = cut(clean(v), RUN_LIMITS.body);
    }
  return out;
}

export interface RunRequest {
  template: string;
  target: string;
  max_seconds?: number;
}

/** Runs the template once on the target under a scan's rules and the run's caps. */
export async function runTemplateOnce(
  ctx: Pick<AppContext, 'db' | 'config'>,
  teamId: string,
  body: RunRequest,
  signal?: AbortSignal,
): Promise<RunAnswer> {
  // The validator first: an invalid template never runs, and its errors come back with their lines.
  const check = checkTemplate(body.template);
  if (!check.valid) throw new InvalidTemplate(check.errors);
  const target = body.target.trim();
  checkTarget(target, 'target');
  if (parseCidr(target) && target.includes('/'))
    throw badRequest('target must be one URL, host or address, not a range: the run is against one target', 'target');
  const denied = denyList(ctx.config).reason(target);
  if (denied)
    throw badRequest(
      `target "${target}" ${denied}; runs and scans of it are denied (an operator can allow it with VIGIL_ALLOW_DENIED_TARGETS=1)`,
      'target',
    );
  // No payload file is ever read for text from a user: inline lists only (the validator said so already).
  const parsed = parseTemplate(body.template, 'editor.yaml', {});
  const t = parsed.template;
  if (!t) throw new InvalidTemplate(check.errors.length ? check.errors : [{ message: 'invalid template', field: '' }]);
  // The team's exclusions (/v1/scans/config/exclude) hold here as in every scan: a target the team keeps
  // out of its scans is not run against from the editor either, nor an excluded template id.
  const rules = await scanExclusions(ctx, teamId, undefined);
  const scope = scopeFilter(rules.targets.map((value) => ({ value, param: 'exclusions' })));
  if (!scope(target))
    throw badRequest(
      `target "${target}" is excluded by the team's exclusions (/v1/scans/config/exclude); runs and scans of it are refused`,
      'target',
    );
  if (templateExcluded({ templateId: t.id, uri: t.id }, rules.templates))
    throw badRequest(
      `template "${t.id}" is excluded by the team's exclusions (/v1/scans/config/exclude); runs and scans of it are refused`,
      'template',
    );
  const refused = signatureRefusal(t, {
    trustedCertificates: templateCertificates(),
    allowUnsigned: await teamAllowsUnsigned(ctx.db, teamId),
  });
  if (refused)
    throw new ApiError(
      400,
      `template refused: it ${refused}; scans refuse it too (the team's Owner can allow unsigned code and javascript templates in the team settings)`,
      'template_not_signed',
      'template',
    );
  if (t.workflows?.length) throw badRequest('a workflow cannot be run from the editor: run its templates', 'template');

  const now = running.get(teamId) ?? 0;
  if (now >= RUN_LIMITS.perTeam)
    throw new ApiError(
      429,
      `${now} template runs of this team are in progress; try again when one ends`,
      'too_many_runs',
    );
  running.set(teamId, now + 1);
  try {
    return await run(ctx, t, target, body.max_seconds ?? RUN_LIMITS.seconds, check.warnings, signal);
  } finally {
    const left = (running.get(teamId) ?? 1) - 1;
    if (left > 0) running.set(teamId, left);
    else running.delete(teamId);
  }
}

async function run(
  ctx: Pick<AppContext, 'config'>,
  t: Template,
  target: string,
  seconds: number,
  warnings: LocatedIssue[],
  outer?: AbortSignal,
): Promise<RunAnswer> {
  const eo = defaultEngineOptions();
  // No secret file applies to a trial run; the values of any this process holds are still cut from the answer.
  const clean = redactor(allWorkerSecretValues());
  const steps: ShownStep[] = [];
  const notices: string[] = [];
  let sent = 0;
  let size = 0;
  let hidden = 0;
  let stopped: RunAnswer['stopped'];
  const ac = new AbortController();
  const stop = (why: 'time' | 'requests') => {
    if (ac.signal.aborted) return;
    stopped = why;
    ac.abort(
      new Error(why === 'time' ? `the run's ${seconds} s time cap` : `the run's ${RUN_LIMITS.requests} request cap`),
    );
  };
  const timer = setTimeout(() => stop('time'), seconds * 1000);
  const onOuter = () => ac.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  const events: Record<string, unknown>[] = [];
  const started = performance.now();
  try {
    const r = await executeTemplate(t, target, {
      egress: scanEgress(ctx.config),
      rateLimit: eo.rateLimit,
      timeout: Math.min(eo.timeout ?? 10, seconds),
      retries: 0,
      matcherStatus: false,
      signal: ac.signal,
      onRequest: () => {
        sent++;
        if (sent >= RUN_LIMITS.requests) stop('requests');
      },
      trace: (step) => {
        if (steps.length >= RUN_LIMITS.shown || size >= RUN_LIMITS.answer) {
          hidden++;
          return;
        }
        const shown = shownStep(step, clean);
        size += JSON.stringify(shown).length;
        steps.push(shown);
      },
    });
    for (const ev of r.events) {
      if (events.length >= 100 || size >= RUN_LIMITS.answer * 2) break;
      const shown = shownEvent(ev, clean);
      size += JSON.stringify(shown).length;
      events.push(shown);
    }
    if (r.events.length > events.length)
      notices.push(`${events.length} of ${r.events.length} result events are shown (the answer's caps)`);
  } catch (err) {
    notices.push(`the run ended with an error: ${cut(clean((err as Error).message), 2048)}`);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
  const duration = Math.round(performance.now() - started);
  if (stopped === 'time') notices.push(`stopped at the run's ${seconds} s time cap; what ran by then is shown`);
  if (stopped === 'requests') notices.push(`stopped after ${RUN_LIMITS.requests} requests (the run's request cap)`);
  if (hidden > 0)
    notices.push(
      `${steps.length} of ${steps.length + hidden} requests are shown (the first ${RUN_LIMITS.shown}, within the answer's size cap)`,
    );
  const denied = steps.filter((s) => s.denied).length;
  if (denied) notices.push(`${denied} connection(s) refused by the deny list (decided on the address connected to)`);
  if (t.http.length === 0)
    notices.push('requests are traced for http blocks; for other protocols the result events are shown');
  const matched = events.length > 0 || steps.some((s) => s.matched);
  return {
    message: matched ? 'the template matched' : 'the template did not match',
    template_id: t.id,
    target,
    matched,
    ...(stopped ? { stopped } : {}),
    duration_ms: duration,
    requests_sent: sent,
    requests_shown: steps.length,
    requests: steps,
    events,
    notices,
    warnings,
  };
}
