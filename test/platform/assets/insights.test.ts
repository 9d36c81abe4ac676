// Misconfigurations discovery saw and policy suggestions from the inventory, on real local services: an
// expired self-signed certificate for another name, a directory listing, a panel found by a technology
// template, a database port, and pages repeated on several addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, startHttpsServer, type TestServer } from '../../helpers/targets.ts';
import { makeCert } from '../../helpers/certs.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, type AssetTestApp } from './fixtures.ts';

const PANEL_TECH = `id: panel-tech
info: {name: Panel tech, author: vigil, severity: info, tags: tech}
http:
  - method: GET
    path: ["{{BaseURL}}"]
    matchers:
      - type: word
        name: grafana
        words: ["<title>Grafana</title>"]
`;

describe.each(dbKinds())('inventory insights on %s', (kind) => {
  let t: AssetTestApp;
  const servers: TestServer[] = [];
  let tls: TestServer;
  let listing: TestServer;
  let panel: TestServer;
  let mongo: TestServer;
  let dns: DnsTestServer;
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await createAssetApp(kind, { worker: false });
    tls = await startHttpsServer((_req, res) => res.end('<title>Parked</title>'), {
      host: '127.0.0.13',
      cert: makeCert({ subject: '/CN=other.test', dns: ['other.test'], days: -1 }),
    });
    listing = await startHttpServer((_req, res) => res.end('<title>Index of /</title><a href="backup.zip">'), {
      host: '127.0.0.14',
    });
    panel = await startHttpServer((_req, res) => res.end('<title>Grafana</title>'), { host: '127.0.0.14' });
    mongo = await startHttpServer((_req, res) => res.end('<title>Parked</title>'), { host: '127.0.0.15', port: 27017 });
    servers.push(tls, listing, panel, mongo);
    // A name for the certificate's server, which its certificate (for other.test) does not cover.
    dns = await startDnsServer({ records: { 'tls.insight.test': [{ type: 'A', data: '127.0.0.13' }] } });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/template',
          payload: { template: PANEL_TECH, filename: 'panel-tech.yaml' },
        })
      ).statusCode,
    ).toBe(200);
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        root_domains: ['tls.insight.test', '127.0.0.14', '127.0.0.15'],
        enumeration_ports: [tls.port, listing.port, panel.port, 27017].join(','),
        steps: ['dns_resolve', 'port_scan', 'http_probe', 'tls_scan'],
        enumeration_config: { technology_templates: ['panel-tech'], resolvers: [dns.resolver] },
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: 'j', name: ENUMERATE_JOB, data: { enumerationId: made.json().id, run: 1 }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([...servers.map((s) => s.close()), dns?.close()]);
  });

  it('lists the misconfigurations discovery saw, filtered by type and host', async () => {
    const all = await get('/v1/asset/enumerate/misconfiguration');
    expect(all.status).toBe(200);
    const found = all.body.data.map((f: any) => `${f.finding_type} ${f.host}:${f.event.port}`).sort();
    expect(found).toEqual(
      [
        `directory_listing 127.0.0.14:${listing.port}`,
        `expired_certificate tls.insight.test:${tls.port}`,
        `exposed_panel 127.0.0.14:${panel.port}`,
        `mismatched_certificate tls.insight.test:${tls.port}`,
        'open_database_port 127.0.0.15:27017',
        `self_signed_certificate tls.insight.test:${tls.port}`,
      ].sort(),
    );
    expect(all.body.data.find((f: any) => f.finding_type === 'open_database_port')).toMatchObject({
      severity: 'high',
      status: 'open',
      event: { service: 'MongoDB' },
    });
    if (hasPdcpOpenApi()) {
      // The platform's finding_type lists only its two cloud checks (dangling_dns, origin_exposure); every
      // other field of each record and the envelope are held to its schema.
      const asPlatform = { ...all.body, data: all.body.data.map((f: any) => ({ ...f, finding_type: 'dangling_dns' })) };
      assertPdcpAnswer('GET', '/v1/asset/enumerate/misconfiguration', 200, asPlatform);
    }
    const panels = await get('/v1/asset/enumerate/misconfiguration?finding_type=exposed_panel');
    expect(panels.body.data.map((f: any) => f.event.technologies)).toEqual([['grafana']]);
    const byHost = await get('/v1/asset/enumerate/misconfiguration?search=127.0.0.15');
    expect(byHost.body.total_results).toBe(1);
    const paged = await get('/v1/asset/enumerate/misconfiguration?limit=2&offset=2');
    expect(paged.body).toMatchObject({ total_results: 6, result_count: 2, current_page: 2, total_pages: 3 });
    const bad = await get('/v1/asset/enumerate/misconfiguration?finding_type=nope');
    expect(bad).toMatchObject({ status: 400, body: { param: 'finding_type' } });
  });

  it('suggests policies from patterns in the inventory, each a valid policy', async () => {
    const res = await get('/v1/asset/policy/suggestion?threshold=1');
    expect(res.status).toBe(200);
    if (hasPdcpOpenApi()) assertPdcpAnswer('GET', '/v1/asset/policy/suggestion', 200, res.body);
    const byCategory = Object.fromEntries(res.body.suggestions.map((s: any) => [s.category, s]));
    expect(byCategory.repeated_title).toMatchObject({
      affected_count: 2,
      suggested_policy: { policy_type: 'set_label', policies: { title: 'Parked' } },
    });
    expect(byCategory.exposed_panel).toMatchObject({
      affected_count: 1,
      suggested_policy: { policy_type: 'alert', policies: { technologies: 'grafana' } },
    });
    expect(byCategory.open_database_port.suggested_policy.policies).toEqual({ port: '27017' });
    expect(byCategory.repeated_title.sample_assets).toHaveLength(2);
    // A suggestion is a policy the API takes as it is.
    const s = byCategory.repeated_title.suggested_policy;
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      payload: { ...s, apply_to_existing: true },
    });
    expect(made.statusCode, made.body).toBe(200);
    // A high threshold leaves only the important-asset categories.
    const strict = await get('/v1/asset/policy/suggestion?threshold=100');
    expect(strict.body.suggestions.map((x: any) => x.category).sort()).toEqual(['exposed_panel', 'open_database_port']);
    expect((await get('/v1/asset/policy/suggestion?enumeration_id=nope')).status).toBe(400);
  });
});
