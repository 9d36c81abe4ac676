// Cloud asset listing against local servers that answer as DigitalOcean, Hetzner Cloud, Linode, Heroku and
// Cloudflare's APIs do (auth headers checked, small pages): every public host and address is listed,
// private ones are not, failures and unsupported providers become notices without credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCloudAssets, parseCloudConfig, runDiscovery, type CloudAsset } from '../../src/discovery/index.ts';
import {
  sampleInventory,
  sampleProviderConfig,
  startCloudApis,
  TOKENS,
  type CloudApis,
} from '../helpers/cloud-apis.ts';
import { startDnsServer, type DnsTestServer } from '../helpers/dns-server.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const key = (a: CloudAsset) => `${a.provider}${a.id ? `/${a.id}` : ''} ${a.service} ${a.host ?? '-'} ${a.ip ?? '-'}`;

describe('cloud asset listing', () => {
  let apis: CloudApis;
  let echo: TestServer;
  beforeAll(async () => {
    apis = await startCloudApis(sampleInventory());
    // An API that repeats the credential it got in its error message: notices must still not show it.
    echo = await startHttpServer((req, res) => {
      res.statusCode = 401;
      res.end(
        JSON.stringify({
          id: 'Unauthorized',
          message: `token ${String(req.headers.authorization).slice(7)} is not valid`,
        }),
      );
    });
  });
  afterAll(async () => {
    await apis?.close();
    await echo?.close();
  });

  it('lists droplets, domain records, servers, instances and zone records across pages', async () => {
    const notices: string[] = [];
    const found = await listCloudAssets(parseCloudConfig(sampleProviderConfig()), {
      baseUrls: apis.baseUrls,
      notice: (m) => notices.push(m),
    });
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual(
      [
        'cloudflare dns alias.cf.example.test -',
        'cloudflare dns app.cf.example.test 127.0.0.51',
        'cloudflare dns www.cf2.example.test 127.0.0.52',
        'cloudflare dns www.cf2.example.test ::1',
        'do/main-do app shop-app.ondigitalocean.example.test -',
        'do/main-do dns api.do.example.test 127.0.0.15',
        'do/main-do dns do.example.test -',
        'do/main-do dns do.example.test 127.0.0.14',
        'do/main-do droplet - 127.0.0.11',
        'do/main-do droplet - 127.0.0.12',
        'do/main-do droplet - 127.0.0.13',
        'hetzner instance - 127.0.0.31',
        'hetzner instance - 127.0.0.32',
        'linode instance - 127.0.0.41',
        'linode instance - 127.0.0.42',
      ].sort(),
    );
    // Every request carried its provider's credential; each listing took every page.
    const urls = apis.server.requests.map((r) => r.url);
    expect(urls).toContain('/do/v2/droplets?page=2&per_page=200');
    expect(urls).not.toContain('/do/v2/droplets?page=3&per_page=200');
    expect(urls).toContain('/hetzner/v1/servers?page=2&per_page=50');
    expect(urls).toContain('/linode/v4/linode/instances?page=1&page_size=500');
    expect(urls).toContain('/cloudflare/client/v4/zones?page=2&per_page=50');
    expect(urls).toContain('/do/v2/domains/do.example.test/records?page=3&per_page=200');
    expect(urls).toContain('/do/v2/apps?page=1&per_page=200');
    for (const r of apis.server.requests) expect(r.headers.authorization ?? r.headers['x-auth-key']).toBeTruthy();
  });

  it("lists Heroku apps' hosts through Range / Next-Range pages, leaving out internal ones", async () => {
    const notices: string[] = [];
    const before = apis.server.requests.length;
    const found = await listCloudAssets([{ provider: 'heroku', id: 'h', heroku_api_token: TOKENS.heroku }], {
      baseUrls: apis.baseUrls,
      notice: (m) => notices.push(m),
    });
    expect(notices).toEqual([]);
    expect(found.map(key)).toEqual([
      'heroku/h app web-one.herokuapp.example.test -',
      'heroku/h app web-two.herokuapp.example.test -',
      'heroku/h app web-four.herokuapp.example.test -',
    ]);
    expect(apis.server.requests.slice(before).map((r) => r.headers.range)).toEqual([
      'id ..; max=1000',
      'id ]02..; max=1000',
      'id ]04..; max=1000',
    ]);
    const refused: string[] = [];
    await listCloudAssets([{ provider: 'heroku', heroku_api_token: 'heroku-wrong-SECRET' }], {
      baseUrls: apis.baseUrls,
      notice: (m) => refused.push(m),
    });
    expect(refused).toEqual([
      'cloudlist: provider heroku skipped: the API answered HTTP 401: Invalid credentials provided.',
    ]);
  });

  it('uses Cloudflare legacy keys (X-Auth-Email, X-Auth-Key)', async () => {
    const notices: string[] = [];
    const found = await listCloudAssets(
      [{ provider: 'cloudflare', email: TOKENS.cloudflareEmail, api_key: TOKENS.cloudflareKey }],
      {
        baseUrls: apis.baseUrls,
        notice: (m) => notices.push(m),
      },
    );
    expect(notices).toEqual([]);
    expect(
      found
        .filter((a) => a.ip)
        .map((a) => a.ip)
        .sort(),
    ).toEqual(['127.0.0.51', '127.0.0.52', '::1']);
  });

  it('a refused credential, an unsupported provider and a missing key are notices; the rest is listed', async () => {
    const notices: string[] = [];
    const found = await listCloudAssets(
      [
        { provider: 'do', digitalocean_token: 'dop_v1_wrong_SECRET_value' },
        { provider: 'cloudflare', api_token: 'cf-wrong-SECRET-token' },
        { provider: 'linode', linode_personal_access_token: 'linode-wrong-SECRET' },
        { provider: 'kubernetes', kubeconfig_file: '/SECRET/kubeconfig' },
        { provider: 'hetzner' },
        { provider: 'hetzner', id: 'ok', auth_token: TOKENS.hetzner },
      ],
      { baseUrls: apis.baseUrls, notice: (m) => notices.push(m) },
    );
    expect(found.map(key)).toEqual(['hetzner/ok instance - 127.0.0.31', 'hetzner/ok instance - 127.0.0.32']);
    expect(notices).toEqual([
      'cloudlist: provider do skipped: the API answered HTTP 401: Unable to authenticate you',
      'cloudlist: provider cloudflare skipped: the API answered HTTP 403: Invalid access token',
      'cloudlist: provider linode skipped: the API answered HTTP 401: Invalid Token',
      'cloudlist: provider kubernetes skipped: not supported (supported: do, hetzner, linode, cloudflare, heroku, aws, gcp, azure, scw, fastly, namecheap, alibaba)',
      'cloudlist: provider hetzner skipped: auth_token is not set',
    ]);
  });

  it('never puts a credential in a notice, even when the API repeats it', async () => {
    const notices: string[] = [];
    await listCloudAssets([{ provider: 'do', digitalocean_token: 'dop_v1_ECHOED_SECRET_123' }], {
      baseUrls: { do: echo.url },
      notice: (m) => notices.push(m),
    });
    expect(echo.requests[0]!.headers.authorization).toBe('Bearer dop_v1_ECHOED_SECRET_123');
    expect(notices).toEqual(['cloudlist: provider do skipped: the API answered HTTP 401: token **** is not valid']);
  });

  it('an unreachable API and an API that never stops paging are notices', async () => {
    const notices: string[] = [];
    const endless = await startHttpServer((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      res.end(JSON.stringify({ data: [{ id: page, ipv4: [`127.0.1.${page % 250}`] }], page, pages: page + 1 }));
    });
    try {
      const found = await listCloudAssets(
        [
          { provider: 'hetzner', auth_token: 'x-token-unreachable' },
          { provider: 'linode', linode_personal_access_token: 'y-token-endless' },
        ],
        {
          baseUrls: { hetzner: 'http://127.0.0.1:1', linode: endless.url },
          notice: (m) => notices.push(m),
          maxPages: 5,
        },
      );
      expect(found).toEqual([]);
      expect(notices[0]).toMatch(/^cloudlist: provider hetzner skipped: the API is unreachable/);
      expect(notices[1]).toBe('cloudlist: provider linode skipped: the listing did not end after 5 pages');
      expect(endless.requests.length).toBe(5);
    } finally {
      await endless.close();
    }
  });
});

describe('discovery with cloud accounts', () => {
  let apis: CloudApis;
  let dns: DnsTestServer;
  let web: TestServer;
  beforeAll(async () => {
    web = await startHttpServer((_req, res) => res.end('<html><head><title>Droplet app</title></head></html>'), {
      host: '127.0.0.11',
    });
    const inv = sampleInventory();
    apis = await startCloudApis(inv);
    dns = await startDnsServer({
      records: {
        'alias.cf.example.test': [{ type: 'CNAME', data: 'app.cf.example.test' }],
        'app.cf.example.test': [{ type: 'A', data: '127.0.0.51' }],
      },
    });
  });
  afterAll(async () => {
    await Promise.all([apis?.close(), dns?.close(), web?.close()]);
  });

  it('runs with no roots: cloud hosts and addresses are resolved, scanned and probed', async () => {
    const notices: string[] = [];
    const found = await runDiscovery(
      {
        roots: [],
        steps: ['dns_resolve', 'port_scan', 'http_probe'],
        ports: String(web.port),
        resolvers: [dns.resolver],
        exclusions: ['127.0.0.42'],
        cloud: { providers: parseCloudConfig(sampleProviderConfig()), baseUrls: apis.baseUrls },
        limits: { timeoutMs: 1500 },
      },
      (e) => {
        if (e.type === 'notice') notices.push(e.message);
      },
    );
    expect(notices).toEqual([]);
    const hosts = found
      .filter((a) => a.port === undefined)
      .map((a) => `${a.host} ${a.ip.join(',')} ${a.sources.join(',')}`)
      .sort();
    expect(hosts).toEqual([
      '127.0.0.11 127.0.0.11 cloudlist:do',
      '127.0.0.12 127.0.0.12 cloudlist:do',
      '127.0.0.13 127.0.0.13 cloudlist:do',
      '127.0.0.31 127.0.0.31 cloudlist:hetzner',
      '127.0.0.32 127.0.0.32 cloudlist:hetzner',
      '127.0.0.41 127.0.0.41 cloudlist:linode',
      'alias.cf.example.test 127.0.0.51 cloudlist:cloudflare',
      'api.do.example.test 127.0.0.15 cloudlist:do',
      'app.cf.example.test 127.0.0.51 cloudlist:cloudflare',
      'do.example.test 127.0.0.14 cloudlist:do',
      'www.cf2.example.test 127.0.0.52,::1 cloudlist:cloudflare',
    ]);
    const services = found.filter((a) => a.port !== undefined);
    expect(services.map((a) => `${a.host}:${a.port}`)).toEqual([`127.0.0.11:${web.port}`]);
    expect(services[0]!.http).toMatchObject({ status_code: 200, title: 'Droplet app' });
  });

  it('does not even resolve a cloud name that the exclusions leave out', async () => {
    const before = dns.queries.length;
    const found = await runDiscovery({
      roots: [],
      steps: ['dns_resolve'],
      resolvers: [dns.resolver],
      exclusions: ['alias.cf.example.test'],
      cloud: { providers: [{ provider: 'cloudflare', api_token: TOKENS.cloudflare }], baseUrls: apis.baseUrls },
      limits: { timeoutMs: 1500 },
    });
    expect(found.map((a) => a.host).sort()).toEqual(['app.cf.example.test', 'www.cf2.example.test']);
    expect(dns.queries.slice(before).map((q) => q.questions?.[0]?.name)).toEqual([]);
  });
});
