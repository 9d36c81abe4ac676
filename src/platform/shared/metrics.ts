// Prometheus metrics (prom-client): request latency by route, queue depth by job, scan attempts and
// findings (counters: Prometheus's rate() gives them per second), running jobs and worker runtimes, and
// Node's process metrics. Collected always (cheap); exposed only when VIGIL_METRICS_PORT is set, on a
// listener of its own (default address 127.0.0.1), never on the API port: it needs no key, so it must
// not be reachable where the API is.
import http from 'node:http';
import client from 'prom-client';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'vigil_' });

export const httpDuration = new client.Histogram({
  name: 'vigil_http_request_duration_seconds',
  help: 'API request latency by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const scanAttempts = new client.Counter({
  name: 'vigil_scan_attempts_total',
  help: 'target x template attempts finished by scan chunks in this process',
  registers: [registry],
});

export const scanFindings = new client.Counter({
  name: 'vigil_scan_findings_total',
  help: 'findings written by scan chunks in this process',
  registers: [registry],
});

export const jobsRunning = new client.Gauge({
  name: 'vigil_jobs_running',
  help: 'jobs running in this process, by job name',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const workerRuntimes = new client.Gauge({
  name: 'vigil_workers',
  help: 'worker runtimes running in this process (1 for vigil worker or serve with its in-process worker)',
  registers: [registry],
});

/** Queue depth by job, read from pg-boss when Prometheus scrapes (not on a timer). */
export function watchQueue(boss: PgBoss, jobNames: string[]): void {
  if (registry.getSingleMetric('vigil_queue_depth')) registry.removeSingleMetric('vigil_queue_depth');
  new client.Gauge({
    name: 'vigil_queue_depth',
    help: 'jobs waiting in the queue (created or retrying), by job name',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      for (const name of jobNames) {
        try {
          this.set({ job: name }, await boss.getQueueSize(name));
        } catch {
          // the queue is stopping: keep the last value
        }
      }
    },
  });
}

/** Route pattern (never the raw URL: ids would explode the label set, tokens would leak). */
export function observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  httpDuration.observe({ method, route: route ?? 'unmatched', status_code: String(status) }, seconds);
}

/** Serves GET /metrics on its own port; returns undefined when VIGIL_METRICS_PORT is not set. */
export async function startMetricsServer(
  env: NodeJS.ProcessEnv,
  log: Logger,
): Promise<{ url: string; close(): Promise<void> } | undefined> {
  if (!env.VIGIL_METRICS_PORT) return undefined;
  const port = Number(env.VIGIL_METRICS_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid VIGIL_METRICS_PORT "${env.VIGIL_METRICS_PORT}": use a port number`);
  const host = env.VIGIL_METRICS_HOST || '127.0.0.1';
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${typeof addr === 'object' && addr ? addr.port : port}/metrics`;
  log.info({ url }, 'metrics listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
