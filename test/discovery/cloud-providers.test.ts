// Cloud listing of AWS (SigV4-signed Query and REST APIs, XML), Google Cloud (service account JWT traded for
// an OAuth token), Azure (client credentials token, Resource Manager nextLinks), Scaleway, Fastly, Namecheap
// (XML, credentials in the query) and Alibaba Cloud (signature 1.0), against a local server that checks each
// request's signature, assertion or token as the real APIs do and pages in twos.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCloudAssets, parseCloudConfig, parseCloudEndpoints, type CloudAsset } from '../../src/discovery/index.ts';
import {
  GCP,
  sampleInventory,
  signedProviderConfig,
  startCloudApis,
  TOKENS,
  type CloudApis,
} from '../helpers/cloud-apis.ts';
import aws4 from 'aws4';
import type http from 'node:http';
import { sigv4Problem } from '../helpers/aws-api.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';

const key = (a: CloudAsset) => `${a.provider}${a.id ? `/${a.id}` : ''} ${a.service} ${a.host ?? '-'} ${a.ip ?? '-'}`;
const SECRETS = [
  TOKENS.awsAccessKey,
  TOKENS.awsSecretKey,
  TOKENS.awsSessionToken,
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
  for (const s of SECRETS) for (const form of [s, encodeURIComponent(s)]) expect(text).not.toContain(form);
};

describe('cloud providers with signed requests, OAuth tokens or XML', () => {
  let apis: CloudApis;
  const entries = () => parseCloudConfig(signedProviderConfig());
  const entry = (provider: string) => entries().find((e) => e.provider === provider)!;
  const list = async (e: Record<string, string>[], baseUrls?: Record<string, string>) => {
    const notices: string[] = [];
    const before = apis.server.requests.length;
    const found = await listCloudAssets(e, { baseUrls: baseUrls ?? apis.baseUrls, notice: (m) => notices.push(m) });
    for (const n of notices) noSecret(n);
    return { found, notices, requests: apis.server.requests.slice(before) };
  };
  beforeAll(async () => {
    apis = await startCloudApis(sampleInventory());
  });
  afterAll(async () => {
    await apis?.close();
  });

  it('AWS: instances of every region, internet-facing load balancers, public Route 53 records and CloudFront distributions, across pages', async () => {
    const { found, notices, requests } = await list([entry('aws')]);
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual([
      'aws/prod cloudfront cdn.aws.example.test -',
      'aws/prod cloudfront d111abcdef8.cloudfront.example.test -',
      'aws/prod cloudfront d333api.cloudfront.example.test -',
      'aws/prod cloudfront static.aws.example.test -',
      'aws/prod dns api.aws.example.test -',
      'aws/prod dns aws.example.test 127.0.0.65',
      'aws/prod dns multi.aws.example.test 127.0.0.67',
      'aws/prod dns multi.aws.example.test 127.0.0.68',
      'aws/prod dns v6.aws2.example.test ::1',
      'aws/prod dns w.aws.example.test 127.0.0.60',
      'aws/prod dns w.aws.example.test 127.0.0.69',
      'aws/prod dns www.aws.example.test -',
      'aws/prod elb nlb-7.elb.us-east-1.example.test -',
      'aws/prod elb old-elb-1.eu-west-1.elb.example.test -',
      'aws/prod elb web-alb-123.us-east-1.elb.example.test -',
      'aws/prod instance - 127.0.0.61',
      'aws/prod instance - 127.0.0.62',
      'aws/prod instance - 127.0.0.63',
      'aws/prod instance - 127.0.0.64',
      'aws/prod instance - ::1',
      'aws/prod instance ec2-127-0-0-61.compute-1.example.test 127.0.0.61',
    ]);
    // DescribeRegions first (in us-east-1), then DescribeInstances in each region it named, the second page by nextToken.
    const ec2 = requests
      .filter((r) => r.url.startsWith('/aws-ec2/'))
      .map(
        (r) =>
          `${r.url} ${new URLSearchParams(r.body).get('Action')}${new URLSearchParams(r.body).get('NextToken') ? ' +token' : ''}`,
      );
    expect(ec2).toEqual([
      '/aws-ec2/us-east-1/ DescribeRegions',
      '/aws-ec2/us-east-1/ DescribeInstances',
      '/aws-ec2/us-east-1/ DescribeInstances +token',
      '/aws-ec2/eu-west-1/ DescribeInstances',
      '/aws-ec2/ap-south-1/ DescribeInstances',
    ]);
    // Route 53: zones in two pages (marker), no record request for the private zone, record pages resumed
    // by name, type and set identifier.
    const r53 = requests
      .filter((r) => r.url.startsWith('/aws-route53/'))
      .map((r) => decodeURIComponent(r.url.slice('/aws-route53/2013-04-01/'.length)));
    expect(r53).toEqual([
      'hostedzone?maxitems=100',
      'hostedzone?maxitems=100&marker=Z3PUBLIC',
      'hostedzone/Z1PUBLIC/rrset?maxitems=300',
      'hostedzone/Z1PUBLIC/rrset?maxitems=300&name=aws.example.test.&type=TXT',
      'hostedzone/Z1PUBLIC/rrset?maxitems=300&name=multi.aws.example.test.&type=A',
      'hostedzone/Z1PUBLIC/rrset?maxitems=300&name=w.aws.example.test.&type=A&identifier=two',
      'hostedzone/Z1PUBLIC/rrset?maxitems=300&name=\\052.aws.example.test.&type=A',
      'hostedzone/Z3PUBLIC/rrset?maxitems=300',
    ]);
    expect(requests.filter((r) => r.url.startsWith('/aws-cloudfront/')).map((r) => r.url)).toEqual([
      '/aws-cloudfront/2020-05-31/distribution?MaxItems=100',
      '/aws-cloudfront/2020-05-31/distribution?MaxItems=100&Marker=E3API',
    ]);
    for (const r of requests)
      expect(r.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAVIGILSECRETKEYID\/\d{8}\/[a-z0-9-]+\/(ec2|elasticloadbalancing|route53|cloudfront)\/aws4_request, SignedHeaders=[^,]*host;x-amz-date, Signature=[0-9a-f]{64}$/,
      );
  });

  it('AWS: temporary credentials send their session token; a wrong secret or a missing token is refused and named', async () => {
    const tmp = { provider: 'aws', aws_access_key: `${TOKENS.awsAccessKey}TMP`, aws_secret_key: TOKENS.awsSecretKey };
    const ok = await list([{ ...tmp, aws_session_token: TOKENS.awsSessionToken }]);
    expect(ok.notices).toEqual([]);
    expect(ok.found.length).toBe(21);
    expect(ok.requests.every((r) => r.headers['x-amz-security-token'] === TOKENS.awsSessionToken)).toBe(true);

    const refused = await list([
      tmp,
      {
        provider: 'aws',
        id: 'bad',
        aws_access_key: TOKENS.awsAccessKey,
        aws_secret_key: 'aws-SECRET-wrong-secret-key',
      },
    ]);
    expect(refused.found).toEqual([]);
    expect(refused.notices).toEqual([
      'cloudlist: provider aws skipped: the API answered HTTP 403: InvalidClientTokenId: The security token included in the request is invalid.',
      'cloudlist: provider aws (id bad) skipped: the API answered HTTP 403: SignatureDoesNotMatch: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    ]);
  });

  it("AWS: with assume_role_name and account_ids, each account is listed with the role's temporary credentials", async () => {
    const { found, notices, requests } = await list([
      { ...entry('aws'), id: 'org', assume_role_name: 'VigilLister', account_ids: '210987654321,123123123123' },
    ]);
    expect(notices).toEqual([
      'cloudlist: provider aws (id org): 1 of 3 accounts not listed (123123123123: the API answered HTTP 403: AccessDenied: User: arn:aws:iam::123456789012:user/lister is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123123123123:role/VigilLister)',
    ]);
    const other = found
      .filter((a) => /127\.0\.0\.12\d/.test(a.ip ?? ''))
      .map(key)
      .sort();
    expect(other).toEqual([
      'aws/org dns other.example.test 127.0.0.123',
      'aws/org instance - 127.0.0.121',
      'aws/org instance - 127.0.0.122',
    ]);
    expect(found.length).toBe(21 + 3);
    const sts = requests
      .filter((r) => r.url.startsWith('/aws-sts/'))
      .map((r) => new URLSearchParams(r.body).get('RoleArn'));
    expect(sts).toEqual(['arn:aws:iam::210987654321:role/VigilLister', 'arn:aws:iam::123123123123:role/VigilLister']);
    // The other account's requests are signed with the temporary key and carry its session token.
    const assumed = requests.filter((r) => String(r.headers.authorization).includes('Credential=ASIA'));
    expect(assumed.length).toBeGreaterThan(3);
    expect(assumed.every((r) => String(r.headers['x-amz-security-token']).startsWith('FwoGZXIvYXdzE'))).toBe(true);
  });

  it("Google Cloud: a signed JWT traded for a token, then instances' external addresses and public DNS records of each active project", async () => {
    const { found, notices, requests } = await list([{ ...entry('gcp'), id: 'g' }]);
    expect(notices).toEqual([
      'cloudlist: provider gcp (id g): compute: 1 of 2 projects not listed (vigil-proj-2: the API answered HTTP 403: Compute Engine API has not been used in project vigil-proj-2 before or it is disabled.)',
    ]);
    expect(found.map(key).sort()).toEqual([
      'gcp/g dns api.gcp.example.test 127.0.0.75',
      'gcp/g dns api.gcp.example.test 127.0.0.76',
      'gcp/g dns gcp.example.test 127.0.0.74',
      'gcp/g dns v6.gcp2.example.test ::1',
      'gcp/g dns www.gcp.example.test -',
      'gcp/g instance - 127.0.0.71',
      'gcp/g instance - 127.0.0.72',
      'gcp/g instance - 127.0.0.73',
      'gcp/g instance - ::1',
    ]);
    const urls = requests.map((r) => r.url);
    expect(urls[0]).toBe('/gcp-oauth/token');
    expect(requests.filter((r) => r.url === '/gcp-oauth/token').length).toBe(1);
    expect(urls).toContain(
      '/gcp-compute/compute/v1/projects/vigil-proj-1/aggregated/instances?maxResults=500&pageToken=Mg',
    );
    expect(urls).toContain('/gcp-dns/dns/v1/projects/vigil-proj-1/managedZones/gz1/rrsets?pageToken=Mg');
    expect(urls.filter((u) => u.includes('vigil-old') || u.includes('/corp/'))).toEqual([]);
    const claims = JSON.parse(
      Buffer.from(new URLSearchParams(requests[0]!.body).get('assertion')!.split('.')[1]!, 'base64url').toString(),
    );
    expect(claims).toMatchObject({
      iss: GCP.email,
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    for (const r of requests.slice(1)) expect(GCP.issued.has(String(r.headers.authorization).slice(7))).toBe(true);
  });

  it('Google Cloud: a key signed by another key pair, or not JSON, is refused and named', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const forged = JSON.stringify({ ...JSON.parse(GCP.keyJson), private_key: other });
    // A key naming another token_uri: the JWT still goes to Google's (here: the gcp.oauth address), with Google's as its aud.
    const elsewhere = JSON.stringify({ ...JSON.parse(GCP.keyJson), token_uri: 'http://169.254.169.254/token' });
    const { found, notices } = await list([
      { provider: 'gcp', gcp_service_account_key: forged },
      { provider: 'gcp', id: 'x', gcp_service_account_key: 'not json SECRET' },
    ]);
    expect(found).toEqual([]);
    const redirected = await list([{ provider: 'gcp', gcp_service_account_key: elsewhere }]);
    expect(redirected.found.length).toBe(9);
    expect(redirected.requests[0]!.url).toBe('/gcp-oauth/token');
    expect(notices).toEqual([
      'cloudlist: provider gcp skipped: the API answered HTTP 400: Invalid JWT Signature.',
      'cloudlist: provider gcp (id x) skipped: gcp_service_account_key is not JSON (a service account key file)',
    ]);
  });

  it("Azure: a client credentials token, then public IPs, Traffic Manager profiles and public DNS zones' records, following nextLinks", async () => {
    const { found, notices, requests } = await list([entry('azure')]);
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual([
      'azure dns api.az.example.test 127.0.0.84',
      'azure dns api.az.example.test 127.0.0.85',
      'azure dns az.example.test 127.0.0.83',
      'azure dns www.az.example.test -',
      'azure publicip - 127.0.0.81',
      'azure publicip - 127.0.0.82',
      'azure publicip - ::1',
      'azure publicip web-vigil.westeurope.cloudapp.example.test 127.0.0.81',
      'azure trafficmanager vigil-web.trafficmanager.example.test -',
    ]);
    const urls = requests.map((r) => decodeURIComponent(r.url));
    const sub = `/azure-arm/subscriptions/${TOKENS.azureSubscription}`;
    expect(urls).toEqual([
      `/azure-login/${TOKENS.azureTenant}/oauth2/v2.0/token`,
      `${sub}/providers/Microsoft.Network/publicIPAddresses?api-version=2024-05-01`,
      `${sub}/providers/Microsoft.Network/publicIPAddresses?api-version=2024-05-01&$skiptoken=2`,
      `${sub}/providers/Microsoft.Network/trafficmanagerprofiles?api-version=2022-04-01`,
      `${sub}/providers/Microsoft.Network/dnszones?api-version=2018-05-01`,
      `${sub}/resourceGroups/rg-web/providers/Microsoft.Network/dnszones/az.example.test/recordsets?api-version=2018-05-01`,
      `${sub}/resourceGroups/rg-web/providers/Microsoft.Network/dnszones/az.example.test/recordsets?api-version=2018-05-01&$skiptoken=2`,
      `${sub}/resourceGroups/rg-web/providers/Microsoft.Network/dnszones/az.example.test/recordsets?api-version=2018-05-01&$skiptoken=4`,
    ]);
    expect(new URLSearchParams(requests[0]!.body).get('scope')).toBe('https://management.azure.com/.default');

    // Without subscription_id: the enabled subscriptions the application sees.
    const { subscription_id: _, ...noSub } = entry('azure');
    const all = await list([noSub]);
    expect(all.notices).toEqual([]);
    expect(all.found.map(key).sort()).toEqual(found.map(key).sort());
    expect(decodeURIComponent(all.requests[1]!.url)).toBe('/azure-arm/subscriptions?api-version=2022-12-01');
    expect(all.requests.filter((r) => r.url.includes('0000000000off'))).toEqual([]);

    const bad = await list([{ ...entry('azure'), client_secret: 'azure-wrong-SECRET-value' }]);
    expect(bad.notices).toEqual([
      expect.stringMatching(
        /^cloudlist: provider azure skipped: the API answered HTTP 401: AADSTS7000215: Invalid client secret provided\./,
      ),
    ]);
  });

  it('Azure: a nextLink to another host is not followed with the token', async () => {
    const evil = await startHttpServer((req, res) => {
      if (req.url!.includes('/oauth2/'))
        return res.end(JSON.stringify({ token_type: 'Bearer', access_token: 'eyJ-azure-ACCESS-token-value' }));
      res.end(
        JSON.stringify({
          value: [{ properties: { ipAddress: '127.0.0.88' } }],
          nextLink: 'https://attacker.example.test/steal',
        }),
      );
    });
    try {
      const { found, notices } = await list([entry('azure')], {
        'azure.login': evil.url,
        'azure.management': evil.url,
      });
      expect(found).toEqual([]);
      expect(notices).toEqual([
        'cloudlist: provider azure skipped: a nextLink pointed outside the Resource Manager API',
      ]);
      expect(evil.requests.length).toBe(4); // the token, then one page of each of the three lists
    } finally {
      await evil.close();
    }
  });

  it("Scaleway: servers' public addresses in every zone, paged by X-Total-Count", async () => {
    const { found, notices, requests } = await list([entry('scw')]);
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual([
      'scw instance - 127.0.0.91',
      'scw instance - 127.0.0.92',
      'scw instance - 127.0.0.93',
      'scw instance - ::1',
    ]);
    expect(requests.map((r) => r.url)).toEqual([
      '/scw/instance/v1/zones/fr-par-1/servers?page=1&per_page=100',
      '/scw/instance/v1/zones/fr-par-1/servers?page=2&per_page=100',
      ...[
        'fr-par-2',
        'fr-par-3',
        'nl-ams-1',
        'nl-ams-2',
        'nl-ams-3',
        'pl-waw-1',
        'pl-waw-2',
        'pl-waw-3',
        'it-mil-1',
      ].map((z) => `/scw/instance/v1/zones/${z}/servers?page=1&per_page=100`),
    ]);
    expect(requests.every((r) => r.headers['x-auth-token'] === TOKENS.scwSecretKey)).toBe(true);
    const bad = await list([{ ...entry('scw'), scaleway_access_token: 'scw-wrong-SECRET' }]);
    expect(bad.notices).toEqual([
      'cloudlist: provider scw skipped: the API answered HTTP 401: authentication is denied',
    ]);
  });

  it("Fastly: the active version's domains of every service, services paged by Link headers", async () => {
    const { found, notices, requests } = await list([entry('fastly')]);
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual([
      'fastly cdn api.fastly.example.test -',
      'fastly cdn img.fastly.example.test -',
      'fastly cdn www.fastly.example.test -',
    ]);
    expect(requests.map((r) => r.url)).toEqual([
      '/fastly/service?page=1&per_page=100',
      '/fastly/service?page=2&per_page=100',
      '/fastly/service/svc1/domain',
      '/fastly/service/svc2/domain',
      '/fastly/service/svc3/domain',
    ]);
    expect(requests.every((r) => r.headers['fastly-key'] === TOKENS.fastly)).toBe(true);
    const bad = await list([{ provider: 'fastly', fastly_api_key: 'fastly-wrong-SECRET' }]);
    expect(bad.notices).toEqual([
      'cloudlist: provider fastly skipped: the API answered HTTP 401: Provided credentials are missing or invalid',
    ]);
  });

  it('Namecheap: domains across pages and the host records of those whose DNS it serves; Status="ERROR" answers are refusals', async () => {
    const { found, notices, requests } = await list([entry('namecheap')]);
    expect(notices).toEqual([
      'cloudlist: provider namecheap: dns hosts: 1 of 2 domains not listed (elsewhere.example.test: the API refused the request: Cannot complete this command as this domain is not using proper DNS servers (2030288))',
    ]);
    expect(found.map(key).sort()).toEqual([
      'namecheap dns nc.example.test 127.0.0.101',
      'namecheap dns v6.nc.example.test ::1',
      'namecheap dns www.nc.example.test -',
      'namecheap domain elsewhere.example.test -',
      'namecheap domain nc.example.test -',
    ]);
    const commands = requests
      .map((r) => new URL(r.url, 'http://x').searchParams)
      .map((q) => `${q.get('Command')} ${q.get('Page') ?? q.get('SLD')}`);
    expect(commands).toEqual([
      'namecheap.domains.getList 1',
      'namecheap.domains.getList 2',
      'namecheap.domains.dns.getHosts nc',
      'namecheap.domains.dns.getHosts elsewhere',
    ]);
    const bad = await list([
      { ...entry('namecheap'), namecheap_client_ip: '198.51.100.9' },
      { ...entry('namecheap'), id: 'k', namecheap_api_key: 'nc-wrong-SECRET' },
      { provider: 'namecheap', namecheap_api_key: 'k1234', namecheap_user_name: 'u' },
    ]);
    expect(bad.notices).toEqual([
      'cloudlist: provider namecheap skipped: the API refused the request: Invalid request IP: 198.51.100.9 (1011150)',
      'cloudlist: provider namecheap (id k) skipped: the API refused the request: Parameter APIKey is invalid (1011102)',
      'cloudlist: provider namecheap skipped: namecheap_client_ip is not set',
    ]);
  });

  it("Alibaba Cloud: instances' public, elastic and IPv6 addresses in the entry's region, with signature 1.0 requests", async () => {
    const { found, notices, requests } = await list([entry('alibaba')]);
    expect(notices).toEqual([]);
    expect(found.map(key).sort()).toEqual([
      'alibaba instance - 127.0.0.111',
      'alibaba instance - 127.0.0.112',
      'alibaba instance - ::1',
    ]);
    const qs = requests.map((r) => new URL(r.url, 'http://x'));
    expect(qs.map((u) => `${u.pathname} ${u.searchParams.get('Action')} ${u.searchParams.get('PageNumber')}`)).toEqual([
      '/alibaba/cn-hangzhou/ DescribeInstances 1',
      '/alibaba/cn-hangzhou/ DescribeInstances 2',
    ]);
    expect(new Set(qs.map((u) => u.searchParams.get('SignatureNonce'))).size).toBe(2);
    const bad = await list([
      { ...entry('alibaba'), alibaba_access_key_secret: 'alibaba-wrong-SECRET' },
      { ...entry('alibaba'), id: 'x', alibaba_region_id: 'cn hangzhou' },
    ]);
    expect(bad.notices).toEqual([
      'cloudlist: provider alibaba skipped: the API answered HTTP 400: SignatureDoesNotMatch: Specified signature is not matched with our calculation.',
      'cloudlist: provider alibaba (id x) skipped: alibaba_region_id is not a region id (such as cn-hangzhou)',
    ]);
  });

  it('a missing key is named; VIGIL_CLOUD_ENDPOINTS takes provider.api keys', () => {
    expect(
      parseCloudEndpoints(
        'aws.ec2=http://127.0.0.1:9/ec2/{region},aws.s3=http://x,gcp.dns=https://dns.mirror,scw=http://127.0.0.1:8/,moon.x=http://y,aws.ec2.x=http://z',
      ),
    ).toEqual({
      'aws.ec2': 'http://127.0.0.1:9/ec2/{region}',
      'gcp.dns': 'https://dns.mirror',
      scw: 'http://127.0.0.1:8',
    });
  });

  it('never puts a credential or a handed-out token in a notice, even when the API repeats it', async () => {
    const echo: TestServer = await startHttpServer((req, res, body) => {
      res.statusCode = req.url!.includes('/token') && req.url!.startsWith('/ok') ? 200 : 401;
      if (res.statusCode === 200) return res.end(JSON.stringify({ access_token: 'ya29.HANDED-OUT-ACCESS-TOKEN' }));
      const said = `${req.headers.authorization ?? ''} ${req.headers['x-auth-token'] ?? ''} ${req.headers['x-amz-security-token'] ?? ''} ${req.headers['fastly-key'] ?? ''} ${body} ${req.url}`;
      if (req.url!.startsWith('/aws'))
        return res.end(
          `<Response><Errors><Error><Code>AuthFailure</Code><Message>${said}</Message></Error></Errors></Response>`,
        );
      res.end(JSON.stringify({ error: { code: 401, message: `you sent ${said}` } }));
    });
    try {
      const urls = {
        'aws.ec2': `${echo.url}/aws`,
        'aws.elb': `${echo.url}/aws`,
        'aws.route53': `${echo.url}/aws`,
        'aws.cloudfront': `${echo.url}/aws`,
        scw: echo.url,
        'azure.login': echo.url,
        'gcp.oauth': `${echo.url}/ok/token`,
        'gcp.resourcemanager': echo.url,
        'gcp.compute': echo.url,
        'gcp.dns': echo.url,
        fastly: echo.url,
        'namecheap.xml': echo.url,
        'alibaba.ecs': echo.url,
      };
      const { notices } = await list(
        [
          { ...entry('aws'), aws_session_token: TOKENS.awsSessionToken },
          entry('azure'),
          entry('scw'),
          entry('gcp'),
          entry('fastly'),
          entry('namecheap'),
          entry('alibaba'),
        ],
        urls,
      );
      expect(notices.length).toBe(8);
      noSecret(notices.join('\n'));
      expect(notices.join('\n')).not.toContain('HANDED-OUT');
      expect(notices.every((n) => n.includes('****'))).toBe(true);
    } finally {
      await echo.close();
    }
  });

  it('temporary keys from AssumeRole stay out of notices when an API repeats them', async () => {
    const echo = await startHttpServer((req, res) => {
      if (req.url!.startsWith('/sts')) {
        return res.end(
          '<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>ASIAECHOEDTEMPKEY1</AccessKeyId><SecretAccessKey>echoed-temp-SECRET-key</SecretAccessKey>' +
            '<SessionToken>FwoECHOEDsessionTOKEN</SessionToken></Credentials></AssumeRoleResult></AssumeRoleResponse>',
        );
      }
      res.statusCode = 403;
      res.end(
        `<Response><Errors><Error><Code>AuthFailure</Code><Message>${req.headers.authorization} ${req.headers['x-amz-security-token'] ?? ''}</Message></Error></Errors></Response>`,
      );
    });
    try {
      const { notices } = await list([{ ...entry('aws'), assume_role_name: 'R', account_ids: '210987654321' }], {
        'aws.sts': `${echo.url}/sts`,
        'aws.ec2': `${echo.url}/x`,
        'aws.elb': `${echo.url}/x`,
        'aws.route53': `${echo.url}/x`,
        'aws.cloudfront': `${echo.url}/x`,
      });
      expect(
        echo.requests.some((r) => String(r.headers.authorization).includes('Credential=ASIAECHOEDTEMPKEY1/')),
      ).toBe(true);
      expect(notices.length).toBe(1);
      for (const s of ['ASIAECHOEDTEMPKEY1', 'FwoECHOEDsessionTOKEN', TOKENS.awsAccessKey])
        expect(notices[0]).not.toContain(s);
    } finally {
      await echo.close();
    }
  });

  it("the test server's SigV4 check refuses a changed body, another region and an old date", () => {
    const creds = { accessKey: TOKENS.awsAccessKey, secretKey: TOKENS.awsSecretKey };
    const signed = (body: string, region = 'eu-west-1', date?: string) => {
      const o = aws4.sign(
        {
          host: '127.0.0.1:9',
          path: '/aws-ec2/eu-west-1/',
          method: 'POST',
          service: 'ec2',
          region,
          body,
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
            ...(date ? { 'X-Amz-Date': date } : {}),
          },
        },
        { accessKeyId: creds.accessKey, secretAccessKey: creds.secretKey },
      );
      const headers = Object.fromEntries(Object.entries(o.headers!).map(([k, v]) => [k.toLowerCase(), String(v)]));
      return { method: 'POST', url: '/aws-ec2/eu-west-1/', headers } as unknown as http.IncomingMessage;
    };
    const body = 'Action=DescribeInstances&Version=2016-11-15';
    expect(sigv4Problem(signed(body), body, creds, 'ec2', 'eu-west-1')).toBeUndefined();
    expect(sigv4Problem(signed(body), body + '&MaxResults=5', creds, 'ec2', 'eu-west-1')?.code).toBe(
      'SignatureDoesNotMatch',
    );
    expect(sigv4Problem(signed(body, 'us-east-1'), body, creds, 'ec2', 'eu-west-1')?.code).toBe(
      'SignatureDoesNotMatch',
    );
    expect(
      sigv4Problem(signed(body, 'eu-west-1', '20200101T000000Z'), body, creds, 'ec2', 'eu-west-1')?.message,
    ).toMatch(/expired/);
    expect(sigv4Problem(signed(body), body, { ...creds, secretKey: 'other' }, 'ec2', 'eu-west-1')?.code).toBe(
      'SignatureDoesNotMatch',
    );
  });
});
