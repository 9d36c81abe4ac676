// A leased chunk's output on its way to the server: findings and scan-log lines collected from the
// engine and sent in numbered batches (at 500 findings, 2,500 log lines, or every 2 s), one at a time and
// in order. A batch is retried until the server has it; the server stores a batch number once, so a
// batch resent after a lost answer is not stored twice. A 409 means the lease is gone (the scan stopped,
// or the lease expired and another agent took the chunk): the chunk stops sending.
import type { AttemptInfo, ResultEvent } from '../../engine/index.ts';
import { ApiAnswer, type AgentClient } from './client.ts';

export interface LogLine {
  target: string;
  template_id: string;
  matched: boolean;
  severity?: string | null;
  error?: string | null;
  at: string;
}

export class ChunkBatches {
  private results: ResultEvent[] = [];
  private bytes = 0;
  private logs: LogLine[] = [];
  /** The number of the last batch sent (0: none yet). */
  seq = 0;
  private sending: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout;
  lost = false;
  private error: unknown;

  constructor(
    private readonly client: AgentClient,
    private readonly lease: string,
    private readonly onLost: () => void,
  ) {
    this.timer = setInterval(() => {
      if (this.results.length || this.logs.length) this.flush();
    }, 2_000);
  }

  result(ev: ResultEvent): void {
    this.results.push(ev);
    // Findings carry whole requests and responses: a batch also ends at about 8 MB, well under the
    // server's body limit.
    this.bytes += 1024 + String(ev.request ?? '').length + String(ev.response ?? '').length;
    if (this.results.length >= 500 || this.bytes >= 8 * 1024 * 1024) this.flush();
  }

  attempt(a: AttemptInfo): void {
    this.log({
      target: a.target,
      template_id: a.templateId,
      matched: a.matched,
      severity: a.severity ?? null,
      error: a.error ?? null,
    });
  }

  log(l: Omit<LogLine, 'at'>): void {
    // Within the server's limits for a log line (a longer error or target would refuse the whole batch).
    this.logs.push({
      ...l,
      target: l.target.slice(0, 4096),
      template_id: l.template_id.slice(0, 512),
      error: l.error ? l.error.slice(0, 8000) : l.error,
      at: new Date().toISOString(),
    });
    if (this.logs.length >= 2_500) this.flush();
  }

  private flush(): void {
    if (this.lost) return;
    const results = this.results;
    const logs = this.logs;
    this.results = [];
    this.logs = [];
    this.bytes = 0;
    const seq = ++this.seq;
    this.sending = this.sending.then(async () => {
      if (this.lost) return;
      try {
        await this.client.call('/v1/agents/me/results', { lease: this.lease, seq, results, logs });
      } catch (err) {
        if (
          err instanceof ApiAnswer &&
          err.status === 409 &&
          err.body.code === 'conflict' &&
          err.body.message?.includes('lease')
        ) {
          this.lost = true;
          this.onLost();
        } else {
          this.error ??= err;
        }
      }
    });
  }

  /** Sends what is left and waits for every batch; throws the first error that was not a lost lease. */
  async finish(): Promise<void> {
    clearInterval(this.timer);
    if (this.results.length || this.logs.length) this.flush();
    await this.sending;
    if (this.error) throw this.error;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
