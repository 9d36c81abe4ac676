// nuclei's result uploader (internal/pdcp/writer.go) pointed at Vigil with PDCP_API_SERVER: the first
// chunk is POST /v1/scans/import, later ones PATCH /v1/scans/{id}/import, each an octet-stream of JSON
// lines with the X-Api-Key header, pdtm query parameters in place of any query, Accept: application/json;
// the uploader needs 200 and reads `id`. This replays those requests over real HTTP, three chunks.
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

/** One result line as nuclei's JSON writer prints it (-jsonl with request and response). */
function resultLine(i: number): string {
  const host = `http://10.1.0.${i % 5}:8080`;
  return (
    JSON.stringify({
      'template-id': `tech-detect-${i % 3}`,
      'template-path': `/root/nuclei-templates/http/technologies/tech-detect-${i % 3}.yaml`,
      'template-encoded': 'aWQ6IHRlY2g=',
      info: { name: 'Tech Detect', author: ['pdteam'], tags: ['tech'], severity: i % 4 === 0 ? 'medium' : 'info' },
      'matcher-name': 'nginx',
      type: 'http',
      host,
      port: '8080',
      scheme: 'http',
      url: host,
      'matched-at': `${host}/p${i}`,
      request: `GET /p${i} HTTP/1.1\r\nHost: 10.1.0.${i % 5}:8080\r\n\r\n`,
      response: 'HTTP/1.1 200 OK\r\nServer: nginx\r\n\r\nok',
      ip: `10.1.0.${i % 5}`,
      timestamp: '2026-11-20T10:11:12.123456789Z',
      'curl-command': `curl -X 'GET' '${host}/p${i}'`,
      'matcher-status': true,
    }) + '\n'
  );
}

describe("nuclei's uploader against Vigil", () => {
  let t: TestApp;
  let base = '';
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('lands a three-chunk upload in one uploaded scan', async () => {
    const pdtm = 'os=linux&arch=amd64&go_version=go1.22.5&v=v3.3.7&machine_id=6d0a1b&utm_source=unknown';
    const send = (method: string, path: string, body: string) =>
      fetch(`${base}${path}?${pdtm}`, {
        method,
        body,
        headers: {
          'X-Api-Key': t.owner.key,
          'Content-Type': 'application/octet-stream',
          Accept: 'application/json',
          'User-Agent': 'Go-http-client/1.1',
        },
      });
    const chunk = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => resultLine(from + i)).join('');
    const first = await send('POST', '/v1/scans/import', chunk(0, 40));
    expect(first.status).toBe(200);
    const { id } = (await first.json()) as { id: string };
    expect(id).toEqual(expect.any(String));
    for (const [a, b] of [
      [40, 80],
      [80, 120],
    ]) {
      const more = await send('PATCH', `/v1/scans/${id}/import`, chunk(a!, b!));
      expect(more.status).toBe(200);
      expect(((await more.json()) as { id: string }).id).toBe(id);
    }
    const scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    expect(scan).toMatchObject({ status: 'uploaded', total_result: 120, total_target: 5 });
    expect(
      (await t.request({ method: 'GET', url: '/v1/scans' }))
        .json()
        .data.filter((s: { status: string }) => s.status === 'uploaded'),
    ).toHaveLength(1);
    const results = (
      await t.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}&severity=medium&limit=100` })
    ).json();
    expect(results.total_results).toBe(30);
    const link = (await t.request({ method: 'GET', url: `/v1/scans/${id}/scan_log/export?format=json` })).json()
      .url as string;
    const exported = JSON.parse((await t.request({ method: 'GET', url: new URL(link).pathname, key: null })).body);
    expect(exported.length).toBe(15); // one record per host and template
  });
});
