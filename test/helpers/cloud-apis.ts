// Local HTTP servers that answer as the cloud providers' public APIs do (paths, auth headers, paging and
// error shapes of DigitalOcean v2, Hetzner Cloud v1, Linode v4, Cloudflare v4, Heroku and Scaleway
// Instances here; AWS, Google Cloud and Azure, whose requests are signed or carry OAuth tokens, in their own
// helpers), serving a fixed inventory. Pages are deliberately small (each API's page size capped at
// `pageCap`) so that every listing spans several pages.
import yaml from 'js-yaml';
import { answerAws, type AwsInventory, type AwsKeys } from './aws-api.ts';
import { answerAzure, type AzureInventory } from './azure-api.ts';
import { answerGcp, gcpAccount, type GcpInventory } from './gcp-api.ts';
import { answerMore, type MoreInventory } from './more-cloud-apis.ts';
import { startHttpServer, type TestServer } from './targets.ts';

export const TOKENS = {
  do: 'dop_v1_0123456789abcdefSECRETDO',
  hetzner: 'hcloud-SECRET-0123456789abcdef',
  linode: 'linode-SECRET-0123456789abcdef',
  cloudflare: 'cf-SECRET-0123456789abcdef',
  cloudflareKey: 'cf-global-SECRET-0123456789',
  cloudflareEmail: 'owner@example.test',
  heroku: 'heroku-SECRET-0123456789abcdef',
  awsAccessKey: 'AKIAVIGILSECRETKEYID',
  awsSecretKey: 'aws-SECRET/0123456789+abcdefghijklmnopq',
  awsSessionToken: 'IQoJb3JpZ2luX2VjSECRETsessiontoken0123456789',
  azureTenant: '72f988bf-0000-4000-8000-00000000tnt1',
  azureClient: '1b2c3d4e-0000-4000-8000-0000000clnt1',
  azureSecret: 'azure~SECRET.client-secret_0123456789',
  azureSubscription: 'aaaabbbb-0000-4000-8000-000000000sub',
  scwAccessKey: 'SCWSECRETACCESSKEY01',
  scwSecretKey: 'scw-SECRET-4f2d0c8e-0000-4000-8000-000000000000',
  fastly: 'fastly-SECRET-0123456789abcdef',
  namecheapUser: 'vigiluser',
  namecheapKey: 'namecheapSECRETapikey0123456789',
  namecheapIp: '203.0.113.7',
  alibabaKey: 'LTAI5tSECRETaccesskeyid',
  alibabaSecret: 'alibaba-SECRET-access-key-secret',
};

/** The Google Cloud service account (a key pair made for this test run). */
export const GCP = gcpAccount();

export interface CloudInventory extends MoreInventory {
  apps: { id: string; live_domain?: string }[];
  herokuApps: { id: string; name: string; web_url: string | null; internal_routing: boolean | null }[];
  droplets: {
    id: number;
    networks: {
      v4: { ip_address: string; type: 'public' | 'private' }[];
      v6: { ip_address: string; type: 'public' | 'private' }[];
    };
  }[];
  domains: { name: string; records: { id: number; type: string; name: string; data: string }[] }[];
  servers: {
    id: number;
    name: string;
    public_net: { ipv4: { ip: string } | null; ipv6: { ip: string } | null };
    private_net: { ip: string }[];
  }[];
  linodes: { id: number; label: string; ipv4: string[]; ipv6: string | null }[];
  zones: {
    id: string;
    name: string;
    records: { id: string; type: string; name: string; content: string; proxied: boolean }[];
  }[];
  aws: AwsInventory;
  gcp: GcpInventory;
  azure: AzureInventory;
  scwServers: Record<
    string,
    {
      id: string;
      name: string;
      public_ip: { address: string } | null;
      public_ips?: { address: string; family: 'inet' | 'inet6' }[];
      ipv6: { address: string } | null;
      private_ip: string | null;
    }[]
  >;
}

export interface CloudApis {
  /** Base URL of each provider's API (all on one server), as VIGIL_CLOUD_ENDPOINTS takes them. */
  baseUrls: Record<string, string>;
  /** VIGIL_CLOUD_ENDPOINTS text for them. */
  endpointsEnv: string;
  server: TestServer;
  close(): Promise<void>;
}

function slice<T>(items: T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

export async function startCloudApis(inv: CloudInventory, pageCap = 2): Promise<CloudApis> {
  const azureTokens = new Set<string>();
  const nonces = new Set<string>();
  const more = {
    fastlyKey: TOKENS.fastly,
    namecheap: { user: TOKENS.namecheapUser, apiKey: TOKENS.namecheapKey, clientIp: TOKENS.namecheapIp },
    alibaba: { accessKey: TOKENS.alibabaKey, secret: TOKENS.alibabaSecret },
  };
  // The account's own key, and temporary credentials (with a session token) of the same account.
  const awsKeys: AwsKeys = new Map([
    [TOKENS.awsAccessKey, { creds: { accessKey: TOKENS.awsAccessKey, secretKey: TOKENS.awsSecretKey }, inv: inv.aws }],
    [
      `${TOKENS.awsAccessKey}TMP`,
      {
        creds: {
          accessKey: `${TOKENS.awsAccessKey}TMP`,
          secretKey: TOKENS.awsSecretKey,
          sessionToken: TOKENS.awsSessionToken,
        },
        inv: inv.aws,
      },
    ],
  ]);
  const azure = {
    tenantId: TOKENS.azureTenant,
    clientId: TOKENS.azureClient,
    clientSecret: TOKENS.azureSecret,
    subscriptionId: TOKENS.azureSubscription,
  };
  const server = await startHttpServer((req, res, body) => {
    if (answerAws(awsKeys, pageCap, req, res, body)) return;
    if (answerGcp(inv.gcp, GCP, pageCap, req, res, body)) return;
    if (answerAzure(inv.azure, azure, azureTokens, pageCap, req, res, body)) return;
    if (answerMore(inv, more, nonces, pageCap, req, res)) return;
    const u = new URL(req.url!, 'http://x');
    const [, provider, ...rest] = u.pathname.split('/');
    const path = '/' + rest.join('/');
    const page = Math.max(1, Number(u.searchParams.get('page') ?? 1));
    const json = (status: number, body: unknown) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    const auth = req.headers.authorization ?? '';

    if (provider === 'do') {
      if (auth !== `Bearer ${TOKENS.do}`)
        return json(401, { id: 'Unauthorized', message: 'Unable to authenticate you' });
      const per = Math.min(Number(u.searchParams.get('per_page') ?? 20), 200, pageCap);
      const list = (key: string, items: unknown[]) => {
        const last = Math.max(1, Math.ceil(items.length / per));
        const link = (p: number) => `https://api.digitalocean.com${path}?page=${p}&per_page=${per}`;
        const pages: Record<string, string> = {};
        if (page < last) Object.assign(pages, { next: link(page + 1), last: link(last) });
        if (page > 1) Object.assign(pages, { first: link(1), prev: link(page - 1) });
        json(200, { [key]: slice(items, page, per), links: { pages }, meta: { total: items.length } });
      };
      if (path === '/v2/droplets') return list('droplets', inv.droplets);
      if (path === '/v2/apps') return list('apps', inv.apps);
      if (path === '/v2/domains')
        return list(
          'domains',
          inv.domains.map((d) => ({ name: d.name, ttl: 1800, zone_file: '' })),
        );
      const m = path.match(/^\/v2\/domains\/([^/]+)\/records$/);
      const d = m && inv.domains.find((x) => x.name === decodeURIComponent(m[1]!));
      if (d) return list('domain_records', d.records);
      return json(404, { id: 'not_found', message: 'The resource you were accessing could not be found.' });
    }
    if (provider === 'hetzner') {
      if (auth !== `Bearer ${TOKENS.hetzner}`)
        return json(401, { error: { code: 'unauthorized', message: 'unable to authenticate' } });
      if (path !== '/v1/servers') return json(404, { error: { code: 'not_found', message: 'not found' } });
      const per = Math.min(Number(u.searchParams.get('per_page') ?? 25), 50, pageCap);
      const last = Math.max(1, Math.ceil(inv.servers.length / per));
      return json(200, {
        servers: slice(inv.servers, page, per),
        meta: {
          pagination: {
            page,
            per_page: per,
            previous_page: page > 1 ? page - 1 : null,
            next_page: page < last ? page + 1 : null,
            last_page: last,
            total_entries: inv.servers.length,
          },
        },
      });
    }
    if (provider === 'linode') {
      if (auth !== `Bearer ${TOKENS.linode}`) return json(401, { errors: [{ reason: 'Invalid Token' }] });
      if (path !== '/v4/linode/instances') return json(404, { errors: [{ reason: 'Not found' }] });
      const size = Number(u.searchParams.get('page_size') ?? 100);
      if (size < 25 || size > 500) return json(400, { errors: [{ reason: 'Must be 25-500', field: 'page_size' }] });
      const per = Math.min(size, pageCap);
      return json(200, {
        data: slice(inv.linodes, page, per),
        page,
        pages: Math.max(1, Math.ceil(inv.linodes.length / per)),
        results: inv.linodes.length,
      });
    }
    if (provider === 'cloudflare') {
      const ok =
        auth === `Bearer ${TOKENS.cloudflare}` ||
        (req.headers['x-auth-email'] === TOKENS.cloudflareEmail && req.headers['x-auth-key'] === TOKENS.cloudflareKey);
      if (!ok)
        return json(403, {
          success: false,
          errors: [{ code: 9109, message: 'Invalid access token' }],
          messages: [],
          result: null,
        });
      const list = (items: unknown[], max: number) => {
        const per = Math.min(Number(u.searchParams.get('per_page') ?? 20), max, pageCap);
        const total = Math.max(1, Math.ceil(items.length / per));
        json(200, {
          success: true,
          errors: [],
          messages: [],
          result: slice(items, page, per),
          result_info: {
            page,
            per_page: per,
            count: slice(items, page, per).length,
            total_count: items.length,
            total_pages: total,
          },
        });
      };
      if (path === '/client/v4/zones')
        return list(
          inv.zones.map((z) => ({ id: z.id, name: z.name, status: 'active' })),
          50,
        );
      const m = path.match(/^\/client\/v4\/zones\/([^/]+)\/dns_records$/);
      const z = m && inv.zones.find((x) => x.id === decodeURIComponent(m[1]!));
      if (z)
        return list(
          z.records.map((r) => ({ ...r, zone_id: z.id, zone_name: z.name })),
          5000,
        );
      return json(404, {
        success: false,
        errors: [{ code: 7003, message: 'Could not route to /zones' }],
        messages: [],
        result: null,
      });
    }
    if (provider === 'heroku') {
      if (req.headers.accept !== 'application/vnd.heroku+json; version=3')
        return json(400, {
          id: 'bad_request',
          message: 'Accept header must be application/vnd.heroku+json; version=3',
        });
      if (auth !== `Bearer ${TOKENS.heroku}`)
        return json(401, { id: 'unauthorized', message: 'Invalid credentials provided.' });
      if (path !== '/apps') return json(404, { id: 'not_found', message: "Couldn't find that." });
      // Range: "id ..; max=N" first, then "]<last id>..; max=N" as Next-Range said.
      const m = String(req.headers.range ?? 'id ..; max=200').match(/^id (\])?([^.]*)\.\.(?:; *max=(\d+))?/);
      if (!m) return json(400, { id: 'bad_request', message: 'Invalid Range header' });
      const sorted = [...inv.herokuApps].sort((a, b) => a.id.localeCompare(b.id));
      const after = m[1] ? m[2]! : '';
      const rest = after ? sorted.filter((a) => a.id > after) : sorted;
      const per = Math.min(Number(m[3] ?? 200), 1000, pageCap);
      const part = rest.slice(0, per);
      if (rest.length > per) {
        res.setHeader('Next-Range', `id ]${part[part.length - 1]!.id}..; max=${Number(m[3] ?? 200)}`);
        return json(206, part);
      }
      return json(200, part);
    }
    if (provider === 'scw') {
      if (req.headers['x-auth-token'] !== TOKENS.scwSecretKey)
        return json(401, {
          message: 'authentication is denied',
          method: 'api_key',
          reason: 'invalid_argument',
          type: 'denied_authentication',
        });
      const m = path.match(/^\/instance\/v1\/zones\/([a-z]{2}-[a-z]{3}-\d)\/servers$/);
      if (!m) return json(404, { message: 'resource is not found', resource: 'instance_server', type: 'not_found' });
      const size = Number(u.searchParams.get('per_page') ?? 50);
      if (!(size >= 1 && size <= 100))
        return json(400, {
          message: 'Validation Error',
          type: 'invalid_arguments',
          fields: { per_page: ['must be between 1 and 100'] },
        });
      const all = inv.scwServers[m[1]!] ?? [];
      res.setHeader('X-Total-Count', String(all.length));
      return json(200, {
        servers: slice(all, page, Math.min(size, pageCap)).map((s) => ({
          ...s,
          state: 'running',
          commercial_type: 'DEV1-S',
          zone: m[1],
        })),
      });
    }
    res.statusCode = 404;
    res.end();
  });
  const baseUrls: Record<string, string> = {
    do: `${server.url}/do`,
    hetzner: `${server.url}/hetzner`,
    linode: `${server.url}/linode`,
    cloudflare: `${server.url}/cloudflare`,
    heroku: `${server.url}/heroku`,
    scw: `${server.url}/scw`,
    'aws.ec2': `${server.url}/aws-ec2/{region}`,
    'aws.elb': `${server.url}/aws-elb/{region}`,
    'aws.route53': `${server.url}/aws-route53`,
    'aws.sts': `${server.url}/aws-sts`,
    'aws.cloudfront': `${server.url}/aws-cloudfront`,
    'gcp.oauth': `${server.url}/gcp-oauth/token`,
    'gcp.resourcemanager': `${server.url}/gcp-crm`,
    'gcp.compute': `${server.url}/gcp-compute`,
    'gcp.dns': `${server.url}/gcp-dns`,
    'azure.login': `${server.url}/azure-login`,
    'azure.management': `${server.url}/azure-arm`,
    fastly: `${server.url}/fastly`,
    'namecheap.xml': `${server.url}/namecheap`,
    'alibaba.ecs': `${server.url}/alibaba/{region}`,
  };
  return {
    baseUrls,
    endpointsEnv: Object.entries(baseUrls)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
    server,
    close: () => server.close(),
  };
}

/**
 * A small estate across the five providers. Droplet, server and instance addresses are loopback ones
 * (127.0.0.x) so that port scans and probes stay on this machine; private addresses must be left out.
 */
export function sampleInventory(): CloudInventory {
  return {
    apps: [{ id: 'a1', live_domain: 'shop-app.ondigitalocean.example.test' }, { id: 'a2' }],
    herokuApps: [
      { id: '01', name: 'web-one', web_url: 'https://web-one.herokuapp.example.test/', internal_routing: null },
      { id: '02', name: 'web-two', web_url: 'https://web-two.herokuapp.example.test/', internal_routing: false },
      { id: '03', name: 'private', web_url: 'https://private.herokuapp.example.test/', internal_routing: true },
      { id: '04', name: 'web-four', web_url: 'https://web-four.herokuapp.example.test/', internal_routing: null },
      { id: '05', name: 'no-url', web_url: null, internal_routing: null },
    ],
    droplets: [
      {
        id: 1,
        networks: {
          v4: [
            { ip_address: '127.0.0.11', type: 'public' },
            { ip_address: '10.10.0.5', type: 'private' },
          ],
          v6: [],
        },
      },
      { id: 2, networks: { v4: [{ ip_address: '127.0.0.12', type: 'public' }], v6: [] } },
      { id: 3, networks: { v4: [{ ip_address: '127.0.0.13', type: 'public' }], v6: [] } },
    ],
    domains: [
      {
        name: 'do.example.test',
        records: [
          { id: 1, type: 'A', name: '@', data: '127.0.0.14' },
          { id: 2, type: 'A', name: 'api', data: '127.0.0.15' },
          { id: 3, type: 'MX', name: '@', data: 'mail.do.example.test' },
          { id: 4, type: 'A', name: '*', data: '127.0.0.16' },
          { id: 5, type: 'TXT', name: '@', data: 'v=spf1 -all' },
        ],
      },
    ],
    servers: [
      {
        id: 11,
        name: 'h1',
        public_net: { ipv4: { ip: '127.0.0.31' }, ipv6: { ip: '2001:db8:1::/64' } },
        private_net: [{ ip: '10.0.1.2' }],
      },
      { id: 12, name: 'h2', public_net: { ipv4: { ip: '127.0.0.32' }, ipv6: null }, private_net: [] },
      { id: 13, name: 'h3-v6-only', public_net: { ipv4: null, ipv6: { ip: '2001:db8:3::/64' } }, private_net: [] },
    ],
    linodes: [
      { id: 21, label: 'l1', ipv4: ['127.0.0.41', '192.168.130.5'], ipv6: null },
      { id: 22, label: 'l2', ipv4: ['127.0.0.42'], ipv6: null },
    ],
    zones: [
      {
        id: 'z1',
        name: 'cf.example.test',
        records: [
          { id: 'r1', type: 'A', name: 'app.cf.example.test', content: '127.0.0.51', proxied: false },
          { id: 'r2', type: 'CNAME', name: 'alias.cf.example.test', content: 'app.cf.example.test', proxied: false },
          { id: 'r3', type: 'TXT', name: 'cf.example.test', content: 'hello', proxied: false },
        ],
      },
      {
        id: 'z2',
        name: 'cf2.example.test',
        records: [
          { id: 'r4', type: 'A', name: 'www.cf2.example.test', content: '127.0.0.52', proxied: true },
          { id: 'r5', type: 'AAAA', name: 'www.cf2.example.test', content: '::1', proxied: true },
        ],
      },
      { id: 'z3', name: 'empty.example.test', records: [] },
    ],
    aws: {
      regions: {
        'us-east-1': {
          instances: [
            {
              id: 'a1',
              ipAddress: '127.0.0.61',
              dnsName: 'ec2-127-0-0-61.compute-1.example.test',
              privateIpAddress: '10.0.0.5',
              nics: [{ publicIp: '127.0.0.61', ipv6: ['::1'] }],
            },
            { id: 'a2', privateIpAddress: '10.0.0.6', nics: [{}] },
            { id: 'a3', ipAddress: '127.0.0.62', privateIpAddress: '10.0.0.7' },
          ],
          loadBalancers: [
            { name: 'web-alb', dnsName: 'web-alb-123.us-east-1.elb.example.test', scheme: 'internet-facing' },
            { name: 'int-alb', dnsName: 'internal-int-alb-9.us-east-1.elb.example.test', scheme: 'internal' },
            { name: 'nlb', dnsName: 'nlb-7.elb.us-east-1.example.test', scheme: 'internet-facing' },
          ],
        },
        'eu-west-1': {
          instances: [
            {
              id: 'b1',
              ipAddress: '127.0.0.63',
              privateIpAddress: '10.1.0.5',
              nics: [{ publicIp: '127.0.0.63' }, { publicIp: '127.0.0.64' }],
            },
          ],
          classicLoadBalancers: [
            { name: 'old-elb', dnsName: 'old-elb-1.eu-west-1.elb.example.test', scheme: 'internet-facing' },
          ],
        },
        'ap-south-1': { instances: [] },
      },
      zones: [
        {
          id: 'Z1PUBLIC',
          name: 'aws.example.test.',
          private: false,
          records: [
            { name: 'aws.example.test.', type: 'A', values: ['127.0.0.65'] },
            { name: 'aws.example.test.', type: 'MX', values: ['10 mail.aws.example.test'] },
            { name: 'aws.example.test.', type: 'TXT', values: ['"v=spf1 -all"'] },
            { name: 'api.aws.example.test.', type: 'A', alias: 'dualstack.web-alb-123.us-east-1.elb.example.test.' },
            { name: 'multi.aws.example.test.', type: 'A', values: ['127.0.0.67', '127.0.0.68'] },
            { name: 'w.aws.example.test.', type: 'A', values: ['127.0.0.69'], setIdentifier: 'one' },
            { name: 'w.aws.example.test.', type: 'A', values: ['127.0.0.60'], setIdentifier: 'two' },
            { name: 'www.aws.example.test.', type: 'CNAME', values: ['aws.example.test'] },
            { name: '\\052.aws.example.test.', type: 'A', values: ['127.0.0.66'] },
          ],
        },
        {
          id: 'Z2PRIVATE',
          name: 'internal.aws.example.test.',
          private: true,
          records: [{ name: 'db.internal.aws.example.test.', type: 'A', values: ['10.1.1.1'] }],
        },
        {
          id: 'Z3PUBLIC',
          name: 'aws2.example.test.',
          private: false,
          records: [{ name: 'v6.aws2.example.test.', type: 'AAAA', values: ['::1'] }],
        },
      ],
      distributions: [
        {
          id: 'E1SITE',
          domainName: 'd111abcdef8.cloudfront.example.test',
          aliases: ['cdn.aws.example.test', 'static.aws.example.test'],
          enabled: true,
        },
        { id: 'E2OFF', domainName: 'd222off.cloudfront.example.test', aliases: [], enabled: false },
        { id: 'E3API', domainName: 'd333api.cloudfront.example.test', aliases: [], enabled: true },
      ],
      otherAccounts: {
        210987654321: {
          role: 'VigilLister',
          inventory: {
            regions: {
              'us-east-1': { instances: [{ id: 'o1', ipAddress: '127.0.0.121', privateIpAddress: '10.9.0.1' }] },
              'eu-central-1': { instances: [{ id: 'o2', ipAddress: '127.0.0.122', privateIpAddress: '10.9.0.2' }] },
            },
            zones: [
              {
                id: 'ZOTHER',
                name: 'other.example.test.',
                private: false,
                records: [{ name: 'other.example.test.', type: 'A', values: ['127.0.0.123'] }],
              },
            ],
          },
        },
      },
    },
    gcp: {
      projects: [
        {
          projectId: 'vigil-proj-1',
          lifecycleState: 'ACTIVE',
          instances: [
            { name: 'vm1', zone: 'us-central1-a', natIPs: ['127.0.0.71'] },
            { name: 'vm2', zone: 'europe-west1-b', natIPs: ['127.0.0.72'], externalIpv6: '::1' },
            { name: 'vm3-internal', zone: 'us-central1-a', natIPs: [] },
            { name: 'vm4', zone: 'us-central1-a', natIPs: ['127.0.0.73'] },
          ],
          zones: [
            {
              name: 'gz1',
              dnsName: 'gcp.example.test.',
              visibility: 'public',
              rrsets: [
                { name: 'gcp.example.test.', type: 'A', rrdatas: ['127.0.0.74'] },
                { name: 'gcp.example.test.', type: 'MX', rrdatas: ['10 mail.gcp.example.test.'] },
                { name: 'www.gcp.example.test.', type: 'CNAME', rrdatas: ['gcp.example.test.'] },
                { name: 'api.gcp.example.test.', type: 'A', rrdatas: ['127.0.0.75', '127.0.0.76'] },
              ],
            },
            {
              name: 'corp',
              dnsName: 'corp.internal.',
              visibility: 'private',
              rrsets: [{ name: 'db.corp.internal.', type: 'A', rrdatas: ['10.2.0.3'] }],
            },
            {
              name: 'gz3',
              dnsName: 'gcp2.example.test.',
              visibility: 'public',
              rrsets: [{ name: 'v6.gcp2.example.test.', type: 'AAAA', rrdatas: ['::1'] }],
            },
          ],
        },
        { projectId: 'vigil-proj-2', lifecycleState: 'ACTIVE', computeDisabled: true, instances: [], zones: [] },
        {
          projectId: 'vigil-old',
          lifecycleState: 'DELETE_REQUESTED',
          instances: [{ name: 'gone', zone: 'us-east1-b', natIPs: ['127.0.0.79'] }],
          zones: [],
        },
      ],
    },
    azure: {
      publicIps: [
        {
          name: 'pip-web',
          ipAddress: '127.0.0.81',
          version: 'IPv4',
          fqdn: 'web-vigil.westeurope.cloudapp.example.test',
        },
        { name: 'pip-v6', ipAddress: '::1', version: 'IPv6' },
        { name: 'pip-unassigned', version: 'IPv4' },
        { name: 'pip-2', ipAddress: '127.0.0.82', version: 'IPv4' },
      ],
      trafficManagerProfiles: [{ name: 'tm-web', relativeName: 'vigil-web' }],
      dnsZones: [
        {
          name: 'az.example.test',
          zoneType: 'Public',
          records: [
            { name: '@', type: 'A', values: ['127.0.0.83'] },
            { name: '@', type: 'TXT', values: ['hello'] },
            { name: 'www', type: 'CNAME', values: ['az.example.test'] },
            { name: 'api', type: 'A', values: ['127.0.0.84', '127.0.0.85'] },
            { name: 'mail', type: 'MX', values: ['mx.az.example.test'] },
          ],
        },
        {
          name: 'private.az.example.test',
          zoneType: 'Private',
          records: [{ name: 'db', type: 'A', values: ['10.3.0.4'] }],
        },
      ],
    },
    scwServers: {
      'fr-par-1': [
        {
          id: 's1',
          name: 'web',
          public_ip: { address: '127.0.0.91' },
          public_ips: [{ address: '127.0.0.91', family: 'inet' }],
          ipv6: null,
          private_ip: '10.4.0.1',
        },
        { id: 's2', name: 'private-only', public_ip: null, public_ips: [], ipv6: null, private_ip: '10.4.0.2' },
        {
          id: 's3',
          name: 'dual',
          public_ip: { address: '127.0.0.92' },
          public_ips: [
            { address: '127.0.0.92', family: 'inet' },
            { address: '::1', family: 'inet6' },
          ],
          ipv6: null,
          private_ip: null,
        },
      ],
      'nl-ams-1': [
        { id: 's4', name: 'legacy', public_ip: { address: '127.0.0.93' }, ipv6: { address: '::1' }, private_ip: null },
      ],
    },
    fastlyServices: [
      {
        id: 'svc1',
        name: 'www',
        version: 3,
        domains: [
          { name: 'www.fastly.example.test', version: 3 },
          { name: 'old.fastly.example.test', version: 2 },
          { name: 'www.fastly.example.test', version: 2 },
        ],
      },
      { id: 'svc2', name: 'api', version: 1, domains: [{ name: 'api.fastly.example.test', version: 1 }] },
      { id: 'svc3', name: 'images', version: 5, domains: [{ name: 'img.fastly.example.test', version: 5 }] },
    ],
    namecheapDomains: [
      {
        name: 'nc.example.test',
        hosts: [
          { Name: '@', Type: 'A', Address: '127.0.0.101' },
          { Name: 'www', Type: 'CNAME', Address: 'nc.example.test.' },
          { Name: '@', Type: 'MX', Address: 'mx.nc.example.test.' },
          { Name: 'v6', Type: 'AAAA', Address: '::1' },
        ],
      },
      { name: 'elsewhere.example.test', externalDns: true, hosts: [] },
      { name: 'expired.example.test', expired: true, hosts: [] },
    ],
    alibabaInstances: {
      'cn-hangzhou': [
        {
          InstanceId: 'i-1',
          PublicIpAddress: { IpAddress: ['127.0.0.111'] },
          EipAddress: { IpAddress: '' },
          NetworkInterfaces: { NetworkInterface: [{ Ipv6Sets: { Ipv6Set: [{ Ipv6Address: '::1' }] } }] },
        },
        {
          InstanceId: 'i-2',
          PublicIpAddress: { IpAddress: [] },
          EipAddress: { IpAddress: '127.0.0.112' },
          NetworkInterfaces: { NetworkInterface: [] },
        },
        {
          InstanceId: 'i-3',
          PublicIpAddress: { IpAddress: [] },
          EipAddress: { IpAddress: '' },
          NetworkInterfaces: { NetworkInterface: [{}] },
        },
      ],
    },
  };
}

/** A provider-config.yaml naming the AWS, Google Cloud, Azure, Scaleway, Fastly, Namecheap and Alibaba accounts with the right credentials. */
export function signedProviderConfig(): string {
  return yaml.dump(
    [
      { provider: 'aws', id: 'prod', aws_access_key: TOKENS.awsAccessKey, aws_secret_key: TOKENS.awsSecretKey },
      { provider: 'gcp', gcp_service_account_key: GCP.keyJson },
      {
        provider: 'azure',
        client_id: TOKENS.azureClient,
        client_secret: TOKENS.azureSecret,
        tenant_id: TOKENS.azureTenant,
        subscription_id: TOKENS.azureSubscription,
      },
      { provider: 'scw', scaleway_access_key: TOKENS.scwAccessKey, scaleway_access_token: TOKENS.scwSecretKey },
      { provider: 'fastly', fastly_api_key: TOKENS.fastly },
      {
        provider: 'namecheap',
        namecheap_api_key: TOKENS.namecheapKey,
        namecheap_user_name: TOKENS.namecheapUser,
        namecheap_client_ip: TOKENS.namecheapIp,
      },
      {
        provider: 'alibaba',
        alibaba_region_id: 'cn-hangzhou',
        alibaba_access_key: TOKENS.alibabaKey,
        alibaba_access_key_secret: TOKENS.alibabaSecret,
      },
    ],
    { lineWidth: -1 },
  );
}

/** A cloudlist provider-config.yaml naming four of the accounts (not Heroku) with the right tokens. */
export function sampleProviderConfig(): string {
  return (
    [
      `- provider: do\n  id: main-do\n  digitalocean_token: ${TOKENS.do}`,
      `- provider: hetzner\n  auth_token: ${TOKENS.hetzner}`,
      `- provider: linode\n  linode_personal_access_token: ${TOKENS.linode}`,
      `- provider: cloudflare\n  api_token: ${TOKENS.cloudflare}`,
    ].join('\n') + '\n'
  );
}
