// GET /v2/vulnerability/{id}/timeline (the team's findings of a vulnerability's template: detected, severity
// changed) and GET /v2/vulnerability/filters (the search's fields), with the hosted platform's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';

const check = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, status, body);
};

describe.each(dbKinds())('vulnerability timeline and filters on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const lines = [1, 2].map((i) =>
      JSON.stringify({
        'template-id': 'CVE-2099-1234',
        info: { name: 'Made-up CVE', severity: 'medium' },
        type: 'http',
        host: `https://h${i}.example.com`,
        'matched-at': `https://h${i}.example.com/x`,
        'matcher-status': true,
      }),
    );
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/import',
      payload: lines.join('\n') + '\n',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it("lists each detection and a severity change of the team's findings", async () => {
    let res = await t.request({ method: 'GET', url: '/v2/vulnerability/cve-2099-1234/timeline' });
    expect(res.statusCode, res.body).toBe(200);
    check('GET', '/v2/vulnerability/cve-2099-1234/timeline', 200, res.json());
    let body = res.json();
    expect(body.events.map((e: any) => e.event_type)).toEqual(['detected', 'detected']);
    expect(body.current_status).toBe('open');
    expect(body.first_detected_at).toBe(body.events[0].timestamp);

    res = await t.request({
      method: 'POST',
      url: '/v1/scans/config/severity',
      payload: { template_id: 'CVE-2099-1234', custom_severity: 'critical' },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = (await t.request({ method: 'GET', url: '/v2/vulnerability/CVE-2099-1234/timeline' })).json();
    const changes = body.events.filter((e: any) => e.event_type === 'severity_change');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({ old_value: 'medium', new_value: 'critical' });

    body = (
      await t.request({ method: 'GET', url: '/v2/vulnerability/CVE-2099-1234/timeline?event_type=severity_change' })
    ).json();
    expect(new Set(body.events.map((e: any) => e.event_type))).toEqual(new Set(['severity_change']));
  });

  it('an unknown vulnerability is a 404, an unknown event type a 400; other teams see nothing', async () => {
    let res = await t.request({ method: 'GET', url: '/v2/vulnerability/CVE-1999-0000/timeline' });
    expect(res.statusCode).toBe(404);
    check('GET', '/v2/vulnerability/CVE-1999-0000/timeline', 404, res.json());
    res = await t.request({ method: 'GET', url: '/v2/vulnerability/CVE-2099-1234/timeline?event_type=bogus' });
    expect(res.statusCode).toBe(400);
    expect(res.json().param).toBe('event_type');
  });

  it('filters: every search field with its type, facets, sorting and values', async () => {
    const res = await t.request({ method: 'GET', url: '/v2/vulnerability/filters' });
    expect(res.statusCode).toBe(200);
    check('GET', '/v2/vulnerability/filters', 200, res.json());
    const byField = new Map(res.json().map((f: any) => [f.field, f]));
    expect(byField.get('severity')).toMatchObject({
      data_type: 'string',
      facet_possible: true,
      can_sort: true,
      enum_values: ['info', 'low', 'medium', 'high', 'critical', 'unknown'],
    });
    expect(byField.get('is_kev')).toMatchObject({ data_type: 'boolean', enum_values: ['true', 'false'] });
    expect(byField.get('description')).toMatchObject({ can_sort: false, search_analyzer: 'standard' });
    // Every listed example is accepted by the search itself.
    for (const f of res.json())
      for (const q of f.examples) {
        const s = await t.request({ method: 'GET', url: `/v2/vulnerability/search?q=${encodeURIComponent(q)}` });
        expect(s.statusCode, `${q}: ${s.body}`).toBe(200);
      }
  });
});
