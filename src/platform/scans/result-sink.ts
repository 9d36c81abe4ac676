// Where a chunk's engine output goes: findings and scan-log records, written in batches (at 500 findings,
// 2,500 log records, or every 2 s so progress moves on a long chunk), one write at a time, in arrival order.
// Also the run's templates that cannot run, recorded once (by the run's first chunk) and taken out of the
// scan's totals.
import type { AttemptInfo } from '../../engine/index.ts';
import type { AppContext } from '../shared/context.ts';
import { scanAttempts, scanFindings } from '../shared/metrics.ts';
import { toFindingRow, logEventText, type ResultEvent, type FindingRow } from './findings.ts';
import { hostOf } from '../shared/target-patterns.ts';
import * as store from './store.ts';

/** The engine's callbacks, as the runner and the engine threads take them. */
export interface EngineCallbacks {
  onResult(ev: ResultEvent): void;
  onAttempt(a: AttemptInfo): void;
  onHostSkipped(host: string, errors: number): void;
  onTemplateSkipped(templateId: string, reason: string): void;
}

export interface ResultSink extends EngineCallbacks {
  /** Adds one scan-log record. */
  log(row: store.LogRow): void;
  /** Writes what is pending and waits for every write; throws the first write error. */
  finish(): Promise<void>;
  /** Stops the periodic write. */
  close(): void;
}

export function resultSink(
  ctx: Pick<AppContext, 'db'>,
  a: { scanId: string; teamId: string; run: number; idx: number; attempt: number },
): ResultSink {
  const { scanId, run, idx } = a;
  const chunk: store.ChunkAttempt = { idx, attempt: a.attempt };
  let findings: FindingRow[] = [];
  let logs: store.LogRow[] = [];
  // First finding per template and host: a matched log record carries its hash and event text.
  const firstFinding = new Map<string, { hash: string; event: string }>();
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const flush = () => {
    const f = findings;
    const l = logs;
    findings = [];
    logs = [];
    writing = writing
      .then(async () => {
        if (f.length) {
          const added = await store.insertFindings(ctx.db, scanId, a.teamId, run, f);
          scanFindings.inc(f.length);
          // The scan's counts follow its findings while it runs (not only when a chunk ends), so the
          // console's "Findings" and the API's total_result agree during a long chunk.
          await store.addResultCounts(ctx.db, scanId, added);
        }
        if (l.length) await store.insertLogs(ctx.db, scanId, a.teamId, run, l, store.NO_AGENT, chunk);
      })
      .catch((err) => {
        writeError ??= err;
      });
  };
  const periodic = setInterval(() => {
    if (findings.length || logs.length) flush();
  }, 2_000);

  const notRun = new Set<string>();
  // Templates refused for their signature: summed up in one log record when the chunk finishes.
  const refused = new Set<string>();
  let totalsQueued = false;
  return {
    log(row) {
      logs.push(row);
    },
    onResult(ev) {
      if (ev['matcher-status'] === false) return; // failure events are not findings
      const row = toFindingRow(ev);
      const key = `${row.templateId}\u0000${hostOf(row.host)}`;
      if (!firstFinding.has(key)) firstFinding.set(key, { hash: row.vulnHash, event: logEventText(row.event) });
      findings.push(row);
      if (findings.length >= 500) flush();
    },
    onAttempt(at) {
      scanAttempts.inc();
      const first = at.matched ? firstFinding.get(`${at.templateId}\u0000${hostOf(at.target)}`) : undefined;
      logs.push({
        target: at.target,
        templateId: at.templateId,
        matched: at.matched,
        severity: at.severity ?? null,
        error: at.error ?? null,
        event: first?.event ?? null,
        vulnHash: first?.hash ?? null,
        at: new Date(),
      });
      if (logs.length >= 2500) flush();
    },
    // Once per host and chunk: the scan log says why this host got no further requests.
    onHostSkipped(host, errors) {
      logs.push({
        target: host,
        templateId: 'max-host-errors',
        matched: false,
        severity: null,
        event: null,
        vulnHash: null,
        at: new Date(),
        error: `host skipped: ${errors} errors reached the max host errors limit; no more requests went to it`,
        notice: true,
      });
    },
    onTemplateSkipped(templateId, reason) {
      if (idx !== 0) return;
      logs.push({
        target: '',
        templateId,
        matched: false,
        severity: null,
        event: null,
        vulnHash: null,
        at: new Date(),
        error: `template not run: ${reason}`,
        notice: true,
      });
      notRun.add(templateId);
      if (/trusted key/.test(reason)) refused.add(templateId);
      if (totalsQueued) return;
      totalsQueued = true;
      // Skips are reported together when templates load: one update after the last of them.
      setImmediate(() => {
        totalsQueued = false;
        const n = notRun.size;
        writing = writing
          .then(() => store.setRunnableTotals(ctx.db, scanId, run, n))
          .catch((err) => {
            writeError ??= err;
          });
      });
    },
    async finish() {
      if (refused.size > 0) {
        logs.push({
          target: '',
          templateId: 'unsigned-templates',
          matched: false,
          severity: null,
          event: null,
          vulnHash: null,
          at: new Date(),
          error:
            `${refused.size} unsigned template(s) refused: code and javascript templates run only when a trusted key ` +
            "signed them (the team's Owner can allow unsigned ones in the team settings)",
          notice: true,
        });
        refused.clear();
      }
      flush();
      await writing;
      if (writeError) throw writeError;
    },
    close() {
      clearInterval(periodic);
    },
  };
}
