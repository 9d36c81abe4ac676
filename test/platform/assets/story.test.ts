// The assets story end to end, on real local services: an enumeration finds the hosts, ports and web
// facts of a DNS zone (wildcard and CNAME) served on 127.0.0.1; the services change; the rescan writes
// exactly the expected change events; a policy on one of the new conditions fires once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import { startHttpServer, startHttpsServer, type TestServer } from '../../helpers/targets.ts';
import { makeCert } from '../../helpers/certs.ts';
import { ALERT_JOB, createAssetApp, jobsOf, type AssetTestApp } from './fixtures.ts';

const page = (title: string) => `<html><head><title>${title}</title></head><body>${title} page</body></html>`;

describe.each(dbKinds())('assets story on %s', (kind) => {
  let t: AssetTestApp;
  let dns: DnsTestServer;
  let shop: TestServer; // app.example.test (and www, a CNAME of it) on 127.0.0.2
  let admin: TestServer; // a second web port on 127.0.0.2, closed before the rescan
  let api: TestServer; // https on 127.0.0.3
  let maintenance = false;
  let enumId = '';
  let adminPort = 0;
  const contents = async (id: string, query = '') => {
    const res = await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents?limit=1000${query}` });
    expect(res.statusCode).toBe(200);
    return res.json() as { total_results: number; data: any[] };
  };
  const key = (a: any) => `${a.host}${a.port ? ':' + a.port : ''}`;

  beforeAll(async () => {
    t = await createAssetApp(kind);
    shop = await startHttpServer(
      (req, res) => {
        res.setHeader('Server', 'nginx/1.25.3');
        if (req.url === '/favicon.ico') {
          res.statusCode = 404;
          return res.end();
        }
        if (maintenance) {
          res.statusCode = 503;
          return res.end(page('Maintenance'));
        }
        res.end(page('Shop'));
      },
      { host: '127.0.0.2' },
    );
    admin = await startHttpServer((_req, res) => res.end(page('Admin')), { host: '127.0.0.2' });
    adminPort = admin.port;
    api = await startHttpsServer((_req, res) => res.end(page('API')), {
      host: '127.0.0.3',
      cert: makeCert({ subject: '/CN=api.example.test/O=Vigil Test', dns: ['api.example.test'] }),
    });
    dns = await startDnsServer({
      records: {
        'app.example.test': [{ type: 'A', data: '127.0.0.2' }],
        'www.example.test': [{ type: 'CNAME', data: 'app.example.test' }],
        'api.example.test': [{ type: 'A', data: '127.0.0.3' }],
        '*.example.test': [{ type: 'A', data: '127.0.0.9' }],
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([shop?.close(), admin?.close(), api?.close(), dns?.close()]);
  });

  it('an enumeration finds the expected hosts, ports and web facts', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        name: 'example',
        root_domains: ['example.test'],
        steps: ['dns_resolve', 'dns_bruteforce', 'port_scan', 'http_probe', 'tls_scan'],
        enumeration_ports: `${shop.port},${adminPort},${api.port}`,
        enumeration_config: { resolvers: [dns.resolver], wordlist: ['app', 'www', 'api', 'new', 'mail'], timeout: 2 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    enumId = res.json().id;
    const done = await t.waitRun(enumId, 1);
    expect(done).toMatchObject({
      status: 'finished',
      progress: 100,
      total_assets: 8,
      new_assets: 8,
      rescan_count: 0,
      is_rescan: false,
    });

    const { data } = await contents(enumId);
    expect(data.map(key).sort()).toEqual(
      [
        'api.example.test',
        `api.example.test:${api.port}`,
        'app.example.test',
        `app.example.test:${adminPort}`,
        `app.example.test:${shop.port}`,
        'www.example.test',
        `www.example.test:${adminPort}`,
        `www.example.test:${shop.port}`,
      ].sort(),
    );
    const appShop = data.find((a) => key(a) === `app.example.test:${shop.port}`);
    expect(appShop).toMatchObject({
      type: 'http',
      ip: ['127.0.0.2'],
      status_code: 200,
      title: 'Shop',
      webserver: 'nginx/1.25.3',
      technologies: ['nginx'],
      content_length: Buffer.byteLength(page('Shop')),
      is_new: true,
      labels: [],
    });
    expect(data.find((a) => key(a) === `www.example.test:${shop.port}`).cname).toEqual(['app.example.test']);
    const apiTls = data.find((a) => key(a) === `api.example.test:${api.port}`);
    expect(apiTls).toMatchObject({
      title: 'API',
      tls_subject_cn: 'api.example.test',
      tls_subject_an: ['api.example.test'],
      tls_self_signed: true,
    });

    // AssetFilters as query parameters.
    expect((await contents(enumId, '&only_dns=true')).data.map(key).sort()).toEqual([
      'api.example.test',
      'app.example.test',
      'www.example.test',
    ]);
    expect((await contents(enumId, `&port=${api.port}`)).data.map(key)).toEqual([`api.example.test:${api.port}`]);
    expect((await contents(enumId, '&title=shop&host=www.example.test')).data.map(key)).toEqual([
      `www.example.test:${shop.port}`,
    ]);
    expect((await contents(enumId, '&cname=app.example.test')).total_results).toBe(3);
    expect((await contents(enumId, '&technologies=NGINX')).total_results).toBe(2);
    const bad = await t.request({ method: 'GET', url: `/v1/asset/enumerate/${enumId}/contents?port=99999` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ param: 'port', code: 'invalid_request' });
  });

  it('a rescan after the services change writes exactly the expected change events, and a policy fires once', async () => {
    const before = (await contents(enumId)).data;
    const idOf = (k: string) => before.find((a) => key(a) === k)?.id as number;

    const hook = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: {
        name: 'maintenance-hook',
        config_type: 'alerting',
        config: 'provider: webhook\nevents: [asset_policy_match]\nwebhook:\n  url: http://127.0.0.1:9/hook\n',
      },
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const hookId = hook.json().id as string;
    const policy = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      payload: {
        name: 'down for maintenance',
        policy_type: 'alert',
        policies: { status_code: '503' },
        alerting_config_ids: [hookId],
      },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const policyId = policy.json().id;
    const labeler = await t.request({
      method: 'POST',
      url: '/v1/asset/policy',
      payload: {
        name: 'label new',
        policy_type: 'set_label',
        policies: { host: 'new.example.test' },
        labels: ['fresh'],
      },
    });
    expect(labeler.statusCode, labeler.body).toBe(200);

    // The changes: a title and status code, a port closed, a new host.
    maintenance = true;
    await admin.close();
    dns.zone.records['new.example.test'] = [{ type: 'A', data: '127.0.0.2' }];
    // A new certificate on the API: another name, another expiry.
    (api.server as import('node:tls').Server).setSecureContext(
      makeCert({
        subject: '/CN=api.example.test/O=Vigil Test',
        dns: ['api.example.test', 'v2.example.test'],
        days: 90,
      }),
    );

    const rescan = await t.request({ method: 'POST', url: `/v1/asset/enumerate/${enumId}/rescan` });
    expect(rescan.statusCode, rescan.body).toBe(200);
    expect(rescan.json()).toEqual({ id: enumId, 'truncated-scan-targets': 0 });
    const done = await t.waitRun(enumId, 2);
    expect(done).toMatchObject({ total_assets: 8, new_assets: 2, is_rescan: true, rescan_count: 1 });

    const after = (await contents(enumId)).data;
    expect(after.map(key).sort()).toEqual(
      [
        'api.example.test',
        `api.example.test:${api.port}`,
        'app.example.test',
        `app.example.test:${shop.port}`,
        'new.example.test',
        `new.example.test:${shop.port}`,
        'www.example.test',
        `www.example.test:${shop.port}`,
      ].sort(),
    );
    expect(
      after
        .filter((a) => a.is_new)
        .map(key)
        .sort(),
    ).toEqual(['new.example.test', `new.example.test:${shop.port}`]);
    expect(
      after
        .filter((a) => a.labels.includes('fresh'))
        .map(key)
        .sort(),
    ).toEqual(['new.example.test', `new.example.test:${shop.port}`]);

    // Every change event of run 2, over every asset (the disappeared ones included).
    const ids = new Map<number, string>([...before, ...after].map((a) => [a.id, key(a)]));
    const events: Record<string, { event_type: string; change_event: unknown[] }[]> = {};
    for (const [id, k] of ids) {
      const res = await t.request({ method: 'GET', url: `/v1/asset/${id}/changelogs?limit=100` });
      expect(res.statusCode).toBe(200);
      const run2 = res.json().data.filter((c: any) => c.run === 2);
      if (run2.length) events[k] = run2.map((c: any) => ({ event_type: c.event_type, change_event: c.change_event }));
    }
    const shopChange = {
      event_type: 'changed',
      change_event: [
        { name: 'status_code', from: 200, to: 503 },
        { name: 'title', from: 'Shop', to: 'Maintenance' },
        { name: 'content_length', from: Buffer.byteLength(page('Shop')), to: Buffer.byteLength(page('Maintenance')) },
      ],
    };
    const apiBefore = before.find((a) => key(a) === `api.example.test:${api.port}`);
    const apiAfter = after.find((a) => key(a) === `api.example.test:${api.port}`);
    expect(apiAfter.tls_subject_an).toEqual(['api.example.test', 'v2.example.test']);
    const certChange = {
      event_type: 'changed',
      change_event: [
        { name: 'tls_subject_an', from: ['api.example.test'], to: ['api.example.test', 'v2.example.test'] },
        { name: 'tls_not_after', from: apiBefore.tls_not_after, to: apiAfter.tls_not_after },
      ],
    };
    const gone = { event_type: 'disappeared', change_event: [{ name: 'asset', from: 'present', to: 'disappeared' }] };
    const came = { event_type: 'appeared', change_event: [{ name: 'asset', from: null, to: 'appeared' }] };
    expect(events).toEqual({
      [`app.example.test:${shop.port}`]: [shopChange],
      [`www.example.test:${shop.port}`]: [shopChange],
      [`api.example.test:${api.port}`]: [certChange],
      [`app.example.test:${adminPort}`]: [gone],
      [`www.example.test:${adminPort}`]: [gone],
      'new.example.test': [came],
      [`new.example.test:${shop.port}`]: [came],
    });

    // The enumeration's own history of run 2 holds the same records, each naming its asset.
    const run2 = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${enumId}/changelogs?run=2` })).json();
    expect(run2.total_results).toBe(7);
    const byAsset: typeof events = {};
    for (const c of run2.data)
      (byAsset[ids.get(Number(c.asset_id))!] ??= []).push({ event_type: c.event_type, change_event: c.change_event });
    expect(byAsset).toEqual(events);
    const everyRun = (
      await t.request({ method: 'GET', url: `/v1/asset/enumerate/${enumId}/changelogs?limit=1000` })
    ).json();
    expect(everyRun.total_results).toBe(8 + 7);
    expect(everyRun.data[0].run).toBe(2);
    const gone2 = (
      await t.request({ method: 'GET', url: `/v1/asset/enumerate/${enumId}/changelogs?run=2&event_type=disappeared` })
    ).json();
    expect(gone2.data.map((c: any) => ids.get(Number(c.asset_id))).sort()).toEqual([
      `app.example.test:${adminPort}`,
      `www.example.test:${adminPort}`,
    ]);
    expect((await t.request({ method: 'GET', url: `/v1/asset/enumerate/nope/changelogs` })).statusCode).toBe(404);

    // not_seen_for_days: a disappeared asset last seen long ago (its enumeration has run since).
    const adminApp = idOf(`app.example.test:${adminPort}`);
    expect((await contents(enumId, '&not_seen_for_days=5')).total_results).toBe(0);
    await t.ctx.db.query(`UPDATE assets SET last_seen_at = now() - interval '10 days' WHERE id = $1`, [adminApp]);
    expect((await contents(enumId, '&not_seen_for_days=5')).data.map(key)).toEqual([`app.example.test:${adminPort}`]);
    expect((await contents(enumId, '&not_seen_for_days=30')).total_results).toBe(0);

    // The changelog query's filters.
    const appShop = idOf(`app.example.test:${shop.port}`);
    const all = (await t.request({ method: 'GET', url: `/v1/asset/${appShop}/changelogs` })).json();
    expect(all).toMatchObject({ total_results: 2, result_count: 2, current_page: 1, total_pages: 1, message: 'ok' });
    expect(all.data.map((c: any) => c.event_type)).toEqual(['changed', 'appeared']);
    const asc = (await t.request({ method: 'GET', url: `/v1/asset/${appShop}/changelogs?sort_asc=created_at` })).json();
    expect(asc.data.map((c: any) => c.event_type)).toEqual(['appeared', 'changed']);
    const titled = (
      await t.request({ method: 'GET', url: `/v1/asset/${appShop}/changelogs?event_type=title&time=last_day` })
    ).json();
    expect(titled.data.map((c: any) => c.event_type)).toEqual(['changed']);
    const paged = (await t.request({ method: 'GET', url: `/v1/asset/${appShop}/changelogs?limit=1&offset=1` })).json();
    expect(paged).toMatchObject({ result_count: 1, total_results: 2, current_page: 2, total_pages: 2 });
    expect((await t.request({ method: 'GET', url: `/v1/asset/${appShop}/changelogs?time=yesterday` })).statusCode).toBe(
      400,
    );

    // The alert policy fired once: one event naming the 503 assets (the new host is served by the same
    // server, so it answers 503 too), one alert queued.
    const ev = (await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}/events` })).json();
    expect(ev.total).toBe(1);
    expect(ev.data.events[0]).toMatchObject({
      event_type: 'asset_policy_alert',
      subject_id: policyId,
      subject_name: 'down for maintenance',
      status: 'pending',
    });
    expect(ev.data.events[0].message_payload.assets.map((a: any) => `${a.host}:${a.port}`).sort()).toEqual([
      `app.example.test:${shop.port}`,
      `new.example.test:${shop.port}`,
      `www.example.test:${shop.port}`,
    ]);
    let alerts = await jobsOf(t, ALERT_JOB);
    expect(alerts.length).toBe(1);
    expect(alerts[0]!.data).toMatchObject({
      team_id: t.owner.teamId,
      policy_id: policyId,
      alerting_config_ids: [hookId],
    });
    const got = (await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}` })).json().data;
    expect(got.last_executed_at).toBeTruthy();

    // A third run with nothing changed: no change events, the policy does not fire again.
    await t.request({ method: 'POST', url: `/v1/asset/enumerate/${enumId}/rescan` });
    await t.waitRun(enumId, 3);
    for (const id of ids.keys()) {
      const res = (await t.request({ method: 'GET', url: `/v1/asset/${id}/changelogs` })).json();
      expect(res.data.filter((c: any) => c.run === 3)).toEqual([]);
    }
    expect((await t.request({ method: 'GET', url: `/v1/asset/policy/${policyId}/events` })).json().total).toBe(1);
    alerts = await jobsOf(t, ALERT_JOB);
    expect(alerts.length).toBe(1);
    expect((await contents(enumId, '&is_new=true')).total_results).toBe(0);
  });

  it('a scan over the enumeration targets exactly its web assets', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        enumeration_ids: [{ id: enumId }],
        private_templates: [
          {
            name: 'root.yaml',
            contents:
              'id: root-get\ninfo:\n  name: root\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/"\n    matchers:\n      - type: status\n        status: [200]\n',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const config = (await t.request({ method: 'GET', url: `/v1/scans/${res.json().id}/config` })).json();
    expect(config.enumeration_ids).toEqual([
      { id: enumId, name: 'example', enumeration_type: 'domain', types: ['hosts', 'ports', 'http'], total_assets: 8 },
    ]);
    expect(config.targets.sort()).toEqual(
      [
        `https://api.example.test:${api.port}`,
        `http://app.example.test:${shop.port}`,
        `http://new.example.test:${shop.port}`,
        `http://www.example.test:${shop.port}`,
      ].sort(),
    );
    const filtered = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        scan_all_assets: true,
        asset_filters: { status_code: '200' },
        private_templates: [
          {
            name: 'x.yaml',
            contents:
              'id: x\ninfo:\n  name: x\n  author: v\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}"]\n',
          },
        ],
      },
    });
    expect(filtered.statusCode, filtered.body).toBe(200);
    const fc = (await t.request({ method: 'GET', url: `/v1/scans/${filtered.json().id}/config` })).json();
    expect(fc.targets).toEqual([`https://api.example.test:${api.port}`]);
  });
});
