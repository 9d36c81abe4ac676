// Enumerations of cloud accounts: a cloudlist config's accounts of all twelve providers but Heroku (local
// servers answering as their APIs, reached through VIGIL_CLOUD_ENDPOINTS) fill the inventory, and
// the usual port and HTTP steps run on what they list. Credentials appear in no answer, notice or log line.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { startDnsServer, type DnsTestServer } from '../../helpers/dns-server.ts';
import {
  sampleInventory,
  sampleProviderConfig,
  signedProviderConfig,
  startCloudApis,
  TOKENS,
  type CloudApis,
} from '../../helpers/cloud-apis.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, otherTeamUser, type AssetTestApp } from './fixtures.ts';

const SECRETS = [
  TOKENS.do,
  TOKENS.hetzner,
  TOKENS.linode,
  TOKENS.cloudflare,
  TOKENS.awsAccessKey,
  TOKENS.awsSecretKey,
  TOKENS.azureClient,
  TOKENS.azureSecret,
  TOKENS.azureTenant,
  TOKENS.azureSubscription,
  TOKENS.scwAccessKey,
  TOKENS.scwSecretKey,
  'a1b2c3d4e5f6SECRETKID',
  'PRIVATE KEY',
  TOKENS.fastly,
  TOKENS.namecheapKey,
  TOKENS.alibabaKey,
  TOKENS.alibabaSecret,
];
const noSecret = (text: string) => {
  for (const s of SECRETS)
    for (const form of [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]) expect(text).not.toContain(form);
};

describe.each(dbKinds())('cloud enumerations on %s', (kind) => {
  let t: AssetTestApp;
  let apis: CloudApis;
  let dns: DnsTestServer;
  let web: TestServer;
  let member: { key: string };
  let other: { key: string; teamId: string };
  let logs = '';
  let configId = '';

  const runJob = async (enumerationId: string, run: number) => {
    const h = getJobHandler(ENUMERATE_JOB)!;
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    return h.handler(
      { id: 'test', name: ENUMERATE_JOB, data: { enumerationId, run }, retryCount: 0, retryLimit: 2 },
      ctx,
    );
  };
  const saveConfig = async (name: string, config_type: string, config: string, key?: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans/config',
      payload: { name, config_type, config },
      key,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  beforeAll(async () => {
    t = await createAssetApp(kind, { worker: false });
    // Every log line of the runs, at the most detailed level, to look for credentials in.
    t.ctx.log = pino(
      { level: 'trace' },
      new Writable({
        write(chunk, _enc, cb) {
          logs += chunk.toString();
          cb();
        },
      }),
    );
    member = await t.addUser('member@localhost', 'member');
    other = await otherTeamUser(t, 'other@localhost');
    web = await startHttpServer((_req, res) => res.end('<html><head><title>Droplet app</title></head></html>'), {
      host: '127.0.0.11',
    });
    apis = await startCloudApis(sampleInventory());
    dns = await startDnsServer({
      records: {
        'alias.cf.example.test': [{ type: 'CNAME', data: 'app.cf.example.test' }],
        'app.cf.example.test': [{ type: 'A', data: '127.0.0.51' }],
      },
    });
    process.env.VIGIL_CLOUD_ENDPOINTS = apis.endpointsEnv;
    configId = await saveConfig('estate', 'cloudlist', sampleProviderConfig() + signedProviderConfig());
  });
  afterAll(async () => {
    delete process.env.VIGIL_CLOUD_ENDPOINTS;
    await t?.close();
    await Promise.all([apis?.close(), dns?.close(), web?.close()]);
  });

  it("lists the accounts' hosts and addresses, then scans and probes them", async () => {
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        cloudlist_config_ids: [configId],
        steps: ['dns_resolve', 'port_scan', 'http_probe'],
        enumeration_ports: String(web.port),
        enumeration_config: { resolvers: [dns.resolver], timeout: 2, technology_templates: [] },
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as string;
    expect(await runJob(id, 1)).toEqual({ outcome: 'stored' });

    const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
    expect(data).toMatchObject({
      status: 'finished',
      name: 'cloud: do,hetzner,linode,cloudflare,aws,gcp,azure,scw,fastly,namecheap,alibaba',
      enumeration_type: 'cloudlist',
      cloudlist_provider_name: 'do,hetzner,linode,cloudflare,aws,gcp,azure,scw,fastly,namecheap,alibaba',
      cloudlist_config_ids: [configId],
      root_domains: [],
      total_assets: 41,
      new_assets: 41,
    });
    expect(data.enumeration_config).not.toHaveProperty('cloudlist_provider_name');
    expect(data.notices).toEqual([
      'cloudlist: provider gcp: compute: 1 of 2 projects not listed (vigil-proj-2: the API answered HTTP 403: Compute Engine API has not been used in project vigil-proj-2 before or it is disabled.)',
      'cloudlist: provider namecheap: dns hosts: 1 of 2 domains not listed (elsewhere.example.test: the API refused the request: Cannot complete this command as this domain is not using proper DNS servers (2030288))',
    ]);

    const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents?limit=100` })).json();
    const key = (a: any) =>
      `${a.host}${a.port ? ':' + a.port : ''} ${a.ip.join(',')} ${a.source.map((s: any) => s.source).join(',')}`;
    expect(list.data.map(key).sort()).toEqual(
      [
        '127.0.0.11 127.0.0.11 cloudlist:do',
        `127.0.0.11:${web.port} 127.0.0.11 cloudlist:do`,
        '127.0.0.12 127.0.0.12 cloudlist:do',
        '127.0.0.13 127.0.0.13 cloudlist:do',
        '127.0.0.31 127.0.0.31 cloudlist:hetzner',
        '127.0.0.32 127.0.0.32 cloudlist:hetzner',
        '127.0.0.41 127.0.0.41 cloudlist:linode',
        '127.0.0.42 127.0.0.42 cloudlist:linode',
        'alias.cf.example.test 127.0.0.51 cloudlist:cloudflare',
        'api.do.example.test 127.0.0.15 cloudlist:do',
        'app.cf.example.test 127.0.0.51 cloudlist:cloudflare',
        'do.example.test 127.0.0.14 cloudlist:do',
        'www.cf2.example.test 127.0.0.52,::1 cloudlist:cloudflare',
        // AWS, Google Cloud, Azure and Scaleway (names without an address, such as load balancers' and CNAMEs,
        // are not in the test's DNS server: they do not resolve and are left out). The same address listed
        // by several providers is one asset.
        '127.0.0.61 127.0.0.61 cloudlist:aws',
        '127.0.0.62 127.0.0.62 cloudlist:aws',
        '127.0.0.63 127.0.0.63 cloudlist:aws',
        '127.0.0.64 127.0.0.64 cloudlist:aws',
        '::1 ::1 cloudlist:aws',
        'aws.example.test 127.0.0.65 cloudlist:aws',
        'ec2-127-0-0-61.compute-1.example.test 127.0.0.61 cloudlist:aws',
        'multi.aws.example.test 127.0.0.67,127.0.0.68 cloudlist:aws',
        'v6.aws2.example.test ::1 cloudlist:aws',
        'w.aws.example.test 127.0.0.60,127.0.0.69 cloudlist:aws',
        '127.0.0.71 127.0.0.71 cloudlist:gcp',
        '127.0.0.72 127.0.0.72 cloudlist:gcp',
        '127.0.0.73 127.0.0.73 cloudlist:gcp',
        'api.gcp.example.test 127.0.0.75,127.0.0.76 cloudlist:gcp',
        'gcp.example.test 127.0.0.74 cloudlist:gcp',
        'v6.gcp2.example.test ::1 cloudlist:gcp',
        '127.0.0.81 127.0.0.81 cloudlist:azure',
        '127.0.0.82 127.0.0.82 cloudlist:azure',
        'api.az.example.test 127.0.0.84,127.0.0.85 cloudlist:azure',
        'az.example.test 127.0.0.83 cloudlist:azure',
        'web-vigil.westeurope.cloudapp.example.test 127.0.0.81 cloudlist:azure',
        '127.0.0.91 127.0.0.91 cloudlist:scw',
        '127.0.0.92 127.0.0.92 cloudlist:scw',
        '127.0.0.93 127.0.0.93 cloudlist:scw',
        'nc.example.test 127.0.0.101 cloudlist:namecheap',
        'v6.nc.example.test ::1 cloudlist:namecheap',
        '127.0.0.111 127.0.0.111 cloudlist:alibaba',
        '127.0.0.112 127.0.0.112 cloudlist:alibaba',
      ].sort(),
    );
    const app = list.data.find((a: any) => a.port === web.port);
    expect(app).toMatchObject({ type: 'http', status_code: 200, title: 'Droplet app', host: '127.0.0.11' });

    // A scan over the enumeration shows it as a cloudlist enumeration with its providers.
    const scan = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        enumeration_ids: [{ id }],
        private_templates: [
          {
            name: 'x.yaml',
            contents:
              'id: x\ninfo:\n  name: x\n  author: v\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}"]\n',
          },
        ],
      },
    });
    expect(scan.statusCode, scan.body).toBe(200);
    const cfg = (await t.request({ method: 'GET', url: `/v1/scans/${scan.json().id}/config` })).json();
    expect(cfg.enumeration_ids).toEqual([
      {
        id,
        name: 'cloud: do,hetzner,linode,cloudflare,aws,gcp,azure,scw,fastly,namecheap,alibaba',
        enumeration_type: 'cloudlist',
        cloudlist_provider_name: 'do,hetzner,linode,cloudflare,aws,gcp,azure,scw,fastly,namecheap,alibaba',
        types: ['hosts', 'ports', 'http'],
        total_assets: 41,
      },
    ]);
    expect(cfg.targets).toEqual([`http://127.0.0.11:${web.port}`]);

    // No credential in any answer about the enumeration (owner or member), notice or log line; members do
    // not see the config's text either (its owner does: that is where it is edited).
    for (const url of [
      `/v1/asset/enumerate/${id}`,
      '/v1/asset/enumerate',
      `/v1/asset/enumerate/${id}/contents`,
      `/v1/scans/${scan.json().id}/config`,
    ]) {
      noSecret((await t.request({ method: 'GET', url })).body);
      noSecret((await t.request({ method: 'GET', url, key: member.key })).body);
    }
    noSecret((await t.request({ method: 'GET', url: '/v1/scans/config', key: member.key })).body);
    expect(logs.length).toBeGreaterThan(0);
    noSecret(logs);
  });

  it('the accounts are read again at each run: an edited config changes what is listed and the providers shown', async () => {
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { name: 'hetzner only', cloudlist_config_ids: [configId], steps: ['dns_resolve'] },
    });
    const id = made.json().id as string;
    const hz = await saveConfig('hz', 'cloudlist', `- provider: hetzner\n  auth_token: ${TOKENS.hetzner}\n`);
    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/asset/enumerate/${id}`,
      payload: { cloudlist_config_ids: [hz] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await runJob(id, 1);
    let data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
    expect(data).toMatchObject({
      total_assets: 2,
      cloudlist_provider_name: 'hetzner',
      cloudlist_config_ids: [hz],
      notices: [],
    });

    // The config now names Linode: the next run lists it, and the enumeration shows the new provider.
    const edit = await t.request({
      method: 'PATCH',
      url: `/v1/scans/config/${hz}`,
      payload: { config: `- provider: linode\n  linode_personal_access_token: ${TOKENS.linode}\n` },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await t.request({ method: 'POST', url: `/v1/asset/enumerate/${id}/rescan` })).statusCode).toBe(200);
    await runJob(id, 2);
    data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
    expect(data).toMatchObject({ total_assets: 2, cloudlist_provider_name: 'linode', rescan_count: 1 });
    const list = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    expect(list.data.map((a: any) => a.host).sort()).toEqual(['127.0.0.41', '127.0.0.42']);
  });

  it('a refused token and a deleted config are notices; the run still finishes', async () => {
    const bad = await saveConfig(
      'bad',
      'cloudlist',
      '- provider: do\n  digitalocean_token: dop_v1_REVOKED_SECRET_TOKEN\n',
    );
    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { cloudlist_config_ids: [bad, configId], steps: ['dns_resolve'] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as string;
    expect((await t.request({ method: 'DELETE', url: `/v1/scans/config/${configId}` })).statusCode).toBe(200);
    await runJob(id, 1);
    const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
    expect(data.status).toBe('finished');
    expect(data.total_assets).toBe(0);
    expect(data.notices).toEqual([
      `cloudlist: config ${configId} not found; its accounts are not listed`,
      'cloudlist: provider do skipped: the API answered HTTP 401: Unable to authenticate you',
    ]);
    expect(JSON.stringify(data)).not.toContain('REVOKED_SECRET');
    expect(logs).not.toContain('REVOKED_SECRET');
  });

  it('refuses unknown, foreign and wrongly typed config ids, and an enumeration with neither roots nor accounts', async () => {
    const sub = await saveConfig('sf', 'subfinder', 'virustotal: [k]\n');
    const foreign = await saveConfig(
      'theirs',
      'cloudlist',
      `- provider: hetzner\n  auth_token: ${TOKENS.hetzner}\n`,
      other.key,
    );
    const before = (await t.request({ method: 'GET', url: '/v1/asset/enumerate' })).json().total_results;
    for (const [payload, param, message] of [
      [{ cloudlist_config_ids: ['nope'] }, 'cloudlist_config_ids[0]', /cloudlist config nope not found/],
      [{ root_domains: ['example.test'], cloudlist_config_ids: [foreign] }, 'cloudlist_config_ids[0]', /not found/],
      [{ cloudlist_config_ids: [sub] }, 'cloudlist_config_ids[0]', /is a subfinder config, not a cloudlist one/],
      [{ steps: ['dns_resolve'] }, 'root_domains', /at least one .*cloudlist_config_ids/],
      [{ root_domains: [], cloudlist_config_ids: [] }, 'root_domains', /at least one/],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/v1/asset/enumerate', payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ param, status: 400 });
      expect(res.json().message).toMatch(message);
    }
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate' })).json().total_results).toBe(before);
  });

  it('filters the list by enum_type', async () => {
    const dom = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { name: 'plain', root_domains: ['example.test'] },
    });
    expect(dom.statusCode, dom.body).toBe(200);
    const names = async (q: string) => {
      const res = await t.request({ method: 'GET', url: `/v1/asset/enumerate?limit=100${q}` });
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json()
        .data.map((e: any) => `${e.name}:${e.enumeration_type}`)
        .sort();
    };
    const all = await names('');
    const cloud = await names('&enum_type=cloudlist');
    const domain = await names('&enum_type=domain');
    expect(cloud.length).toBeGreaterThan(0);
    expect(cloud.every((n: string) => n.endsWith(':cloudlist'))).toBe(true);
    expect(domain).toEqual(['plain:domain']);
    expect([...cloud, ...domain].sort()).toEqual(all);
    expect(await names('&enum_type=domain,cloudlist')).toEqual(all);
    const bad = await t.request({ method: 'GET', url: '/v1/asset/enumerate?enum_type=moon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ param: 'enum_type' });
  });
});
