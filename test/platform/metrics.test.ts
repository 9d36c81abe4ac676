// /metrics: a real `vigil serve` with VIGIL_METRICS_PORT, a real scan against a local target, then a
// Prometheus scrape of the metrics port. The API port does not serve metrics.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnVigil, type VigilProcess } from '../helpers/process.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const TEMPLATE = `id: metrics-probe
info: { name: metrics probe, author: vigil, severity: low }
http:
  - method: GET
    path: ["{{BaseURL}}/a", "{{BaseURL}}/b"]
    matchers:
      - type: word
        words: ["hello"]
`;

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}` : ''}`) && !l.startsWith('#'));
  return line ? Number(line.split(' ').pop()) : undefined;
}

describe('Prometheus metrics', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-metrics-'));
  let serve: VigilProcess;
  let target: TestServer;
  beforeAll(async () => {
    target = await startHttpServer((_q, res) => res.end('hello'));
  });
  afterAll(async () => {
    await serve?.kill('SIGKILL');
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exposes request latency, scan attempts and findings, queue depth and workers on its own port', async () => {
    serve = spawnVigil(['serve', '--port', '0', '--data-dir', dir], { VIGIL_METRICS_PORT: '0' });
    const api = await serve.listening(150_000);
    const metricsUrl = (await serve.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"/))[1]!;
    const key = readFileSync(path.join(dir, 'owner-api-key'), 'utf8').trim();
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };

    const created = await request(`${api}/v1/scans`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ targets: [target.url], private_templates: [{ name: 'p.yaml', contents: TEMPLATE }] }),
    });
    expect(created.statusCode).toBe(200);
    const { id } = (await created.body.json()) as { id: string };
    let scan = { status: '', total_result: 0 };
    for (let i = 0; i < 300 && !['finished', 'failed'].includes(scan.status); i++) {
      await new Promise((r) => setTimeout(r, 200));
      scan = (await (await request(`${api}/v1/scans/${id}`, { headers })).body.json()) as typeof scan;
    }
    expect(scan.status).toBe('finished');
    expect(scan.total_result).toBeGreaterThan(0);

    const res = await request(metricsUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    const text = await res.body.text();
    expect(
      sample(text, 'vigil_http_request_duration_seconds_count', 'method="POST",route="/v1/scans",status_code="200"'),
    ).toBe(1);
    expect(
      sample(text, 'vigil_http_request_duration_seconds_count', 'method="GET",route="/v1/scans/:scan_id"'),
    ).toBeGreaterThan(0);
    expect(sample(text, 'vigil_scan_attempts_total')).toBe(1);
    expect(sample(text, 'vigil_scan_findings_total')).toBe(scan.total_result);
    expect(sample(text, 'vigil_workers')).toBe(1);
    expect(text).toMatch(/^vigil_queue_depth\{job="[^"]+"\} \d+$/m);
    expect(text).toMatch(/^vigil_process_cpu_seconds_total /m);
    // No raw URLs (ids, tokens) in labels, and no key anywhere.
    expect(text).not.toContain(id);
    expect(text).not.toContain(key);

    // The API port has no metrics (it may answer with the console's page): the metrics port is the only
    // keyless way in.
    const onApi = await request(`${api}/metrics`);
    expect(await onApi.body.text()).not.toContain('vigil_http_request_duration_seconds');
    expect(await serve.kill('SIGTERM')).toBe(0);
  }, 240_000);
});
