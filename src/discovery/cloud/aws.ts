// Amazon Web Services: every request is signed with Signature Version 4 (`aws4`) with `aws_access_key`,
// `aws_secret_key` and, for temporary credentials, `aws_session_token` (sent as X-Amz-Security-Token).
// Answers are XML. With `assume_role_name` and `account_ids` (comma separated), each of those accounts is
// listed too, with temporary credentials of that role (STS AssumeRole). Listed, as cloudlist does:
// - EC2 (Query API, POST form to `https://ec2.<region>.amazonaws.com/`, Version 2016-11-15): the regions the
//   account has enabled (DescribeRegions, asked in us-east-1), then in each DescribeInstances pages
//   (MaxResults=1000, `nextToken`): instances' public IPv4 and public DNS name, IPv6 addresses, and the
//   public addresses of their network interfaces;
// - Elastic Load Balancing in each region (Application/Network: Version 2015-12-01; Classic: 2012-06-01;
//   `Marker` / `NextMarker`): the DNS names of internet-facing load balancers;
// - Route 53 (REST, `https://route53.amazonaws.com/2013-04-01`, signed for us-east-1): public hosted zones
//   (`marker` / `NextMarker` while `IsTruncated`) and their A, AAAA and CNAME record sets (`name`, `type`,
//   `identifier` from NextRecordName / NextRecordType / NextRecordIdentifier while `IsTruncated`);
// - CloudFront (REST, `https://cloudfront.amazonaws.com/2020-05-31`, signed for us-east-1): enabled
//   distributions' domain names and aliases (`Marker` / `NextMarker` while `IsTruncated`).
import aws4 from 'aws4';
import { XMLParser } from 'fast-xml-parser';
import { CloudApiError, eachPart } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi } from './types.ts';

// Elements that are lists even when one is present.
const LISTS = new Set([
  'item',
  'member',
  'HostedZone',
  'ResourceRecordSet',
  'ResourceRecord',
  'DistributionSummary',
  'CNAME',
]);
const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => LISTS.has(name) });

const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

interface Signer {
  /** A signed request to url (GET, or POST of a form when body is given); the answer parsed. */
  call(url: string, service: string, region: string, body?: Record<string, string>): Promise<any>;
}

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

function signer(credentials: Credentials, api: ProviderApi): Signer {
  return {
    async call(url, service, region, body) {
      const u = new URL(url);
      const form = body && new URLSearchParams(body).toString();
      const req = aws4.sign(
        {
          host: u.host,
          path: u.pathname + u.search,
          method: form ? 'POST' : 'GET',
          service,
          region,
          ...(form
            ? { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } }
            : {}),
        },
        credentials,
      );
      // fetch sets Host (the URL's host, as signed) and Content-Length (of the same body) itself.
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers ?? {}))
        if (!/^(host|content-length)$/i.test(k)) headers[k] = String(v);
      const res = await api.send(url, { method: req.method, headers, ...(form ? { body: form } : {}) });
      try {
        return xml.parse(res.text);
      } catch {
        throw new CloudApiError('the API answered something that is not XML');
      }
    },
  };
}

/** Route 53 writes characters outside [a-z0-9-_.] of names as \ooo (octal): `\052` is `*`. */
function route53Name(name: string): string {
  return name.replace(/\\(\d{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))).replace(/\.$/, '');
}

async function regions(s: Signer, api: ProviderApi): Promise<string[]> {
  const doc = await s.call(api.url('ec2', { region: 'us-east-1' }) + '/', 'ec2', 'us-east-1', {
    Action: 'DescribeRegions',
    Version: '2016-11-15',
  });
  const names = list(doc?.DescribeRegionsResponse?.regionInfo?.item)
    .map((r) => text(r?.regionName))
    .filter((r) => /^[a-z0-9-]+$/.test(r));
  if (!names.length) throw new CloudApiError('DescribeRegions named no region');
  return names;
}

async function instances(
  s: Signer,
  api: ProviderApi,
  region: string,
  push: (a: Omit<CloudAsset, 'provider'>) => void,
): Promise<void> {
  let token = '';
  for (let page = 0; ; page++) {
    if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
    const doc = await s.call(api.url('ec2', { region }) + '/', 'ec2', region, {
      Action: 'DescribeInstances',
      Version: '2016-11-15',
      MaxResults: '1000',
      ...(token ? { NextToken: token } : {}),
    });
    const answer = doc?.DescribeInstancesResponse;
    for (const reservation of list(answer?.reservationSet?.item)) {
      for (const i of list(reservation?.instancesSet?.item)) {
        const ip = text(i?.ipAddress);
        const dns = text(i?.dnsName);
        if (ip) push({ service: 'instance', ip });
        if (dns) push({ service: 'instance', host: dns, ...(ip ? { ip } : {}) });
        if (text(i?.ipv6Address)) push({ service: 'instance', ip: text(i.ipv6Address) });
        for (const nic of list(i?.networkInterfaceSet?.item)) {
          const publicIp = text(nic?.association?.publicIp);
          if (publicIp) push({ service: 'instance', ip: publicIp });
          for (const v6 of list(nic?.ipv6AddressesSet?.item))
            if (text(v6?.ipv6Address)) push({ service: 'instance', ip: text(v6.ipv6Address) });
        }
      }
    }
    token = text(answer?.nextToken);
    if (!token) return;
  }
}

async function loadBalancers(
  s: Signer,
  api: ProviderApi,
  region: string,
  push: (a: Omit<CloudAsset, 'provider'>) => void,
): Promise<void> {
  const url = api.url('elb', { region }) + '/';
  for (const [version, key] of [
    ['2015-12-01', 'LoadBalancers'],
    ['2012-06-01', 'LoadBalancerDescriptions'],
  ] as const) {
    let marker = '';
    for (let page = 0; ; page++) {
      if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const doc = await s.call(url, 'elasticloadbalancing', region, {
        Action: 'DescribeLoadBalancers',
        Version: version,
        PageSize: '400',
        ...(marker ? { Marker: marker } : {}),
      });
      const result = doc?.DescribeLoadBalancersResponse?.DescribeLoadBalancersResult;
      for (const lb of list(result?.[key]?.member)) {
        if (text(lb?.Scheme) === 'internet-facing' && text(lb?.DNSName))
          push({ service: 'elb', host: text(lb.DNSName) });
      }
      marker = text(result?.NextMarker);
      if (!marker) break;
    }
  }
}

async function route53(s: Signer, api: ProviderApi, push: (a: Omit<CloudAsset, 'provider'>) => void): Promise<void> {
  const base = api.url('route53') + '/2013-04-01';
  const zones: string[] = [];
  let marker = '';
  for (let page = 0; ; page++) {
    if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
    const doc = await s.call(
      `${base}/hostedzone?${new URLSearchParams({ maxitems: '100', ...(marker ? { marker } : {}) })}`,
      'route53',
      'us-east-1',
    );
    const answer = doc?.ListHostedZonesResponse;
    for (const z of list(answer?.HostedZones?.HostedZone)) {
      const id = text(z?.Id).replace(/^\/hostedzone\//, '');
      if (id && text(z?.Config?.PrivateZone) !== 'true') zones.push(id);
    }
    marker = text(answer?.NextMarker);
    if (text(answer?.IsTruncated) !== 'true' || !marker) break;
  }
  for (const zone of zones) {
    let next: Record<string, string> = {};
    for (let page = 0; ; page++) {
      if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const doc = await s.call(
        `${base}/hostedzone/${encodeURIComponent(zone)}/rrset?${new URLSearchParams({ maxitems: '300', ...next })}`,
        'route53',
        'us-east-1',
      );
      const answer = doc?.ListResourceRecordSetsResponse;
      for (const r of list(answer?.ResourceRecordSets?.ResourceRecordSet)) {
        const type = text(r?.Type);
        if (type !== 'A' && type !== 'AAAA' && type !== 'CNAME') continue;
        const host = route53Name(text(r?.Name));
        const values = list(r?.ResourceRecords?.ResourceRecord)
          .map((v) => text(v?.Value))
          .filter(Boolean);
        // An alias (to a load balancer, a distribution...) or a CNAME: the name, resolved later.
        if (type === 'CNAME' || !values.length) push({ service: 'dns', host });
        else for (const ip of values) push({ service: 'dns', host, ip });
      }
      if (text(answer?.IsTruncated) !== 'true' || !text(answer?.NextRecordName)) break;
      next = {
        name: text(answer.NextRecordName),
        ...(text(answer.NextRecordType) ? { type: text(answer.NextRecordType) } : {}),
        ...(text(answer.NextRecordIdentifier) ? { identifier: text(answer.NextRecordIdentifier) } : {}),
      };
    }
  }
}

async function cloudfront(s: Signer, api: ProviderApi, push: (a: Omit<CloudAsset, 'provider'>) => void): Promise<void> {
  let marker = '';
  for (let page = 0; ; page++) {
    if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
    const doc = await s.call(
      `${api.url('cloudfront')}/2020-05-31/distribution?${new URLSearchParams({ MaxItems: '100', ...(marker ? { Marker: marker } : {}) })}`,
      'cloudfront',
      'us-east-1',
    );
    const answer = doc?.DistributionList;
    for (const d of list(answer?.Items?.DistributionSummary)) {
      if (text(d?.Enabled) !== 'true') continue;
      if (text(d?.DomainName)) push({ service: 'cloudfront', host: text(d.DomainName) });
      for (const alias of list(d?.Aliases?.Items?.CNAME))
        if (text(alias)) push({ service: 'cloudfront', host: text(alias) });
    }
    marker = text(answer?.NextMarker);
    if (text(answer?.IsTruncated) !== 'true' || !marker) return;
  }
}

/**
 * Temporary credentials of the role `assume_role_name` in another account (STS AssumeRole, signed by the
 * entry's own credentials at `https://sts.amazonaws.com`), as cloudlist does for `account_ids`.
 */
async function assumeRole(s: Signer, api: ProviderApi, account: string, role: string): Promise<Credentials> {
  const doc = await s.call(api.url('sts') + '/', 'sts', 'us-east-1', {
    Action: 'AssumeRole',
    Version: '2011-06-15',
    RoleArn: `arn:aws:iam::${account}:role/${role}`,
    RoleSessionName: 'vigil-cloudlist',
    DurationSeconds: '3600',
  });
  const c = doc?.AssumeRoleResponse?.AssumeRoleResult?.Credentials;
  const out = {
    accessKeyId: text(c?.AccessKeyId),
    secretAccessKey: text(c?.SecretAccessKey),
    sessionToken: text(c?.SessionToken),
  };
  if (!out.accessKeyId || !out.secretAccessKey || !out.sessionToken)
    throw new CloudApiError('AssumeRole gave no credentials');
  for (const v of Object.values(out)) api.secret(v);
  return out;
}

/** Everything one set of credentials sees: EC2 and ELB in each region, Route 53, CloudFront. */
async function listAccount(
  s: Signer,
  api: ProviderApi,
  push: (a: Omit<CloudAsset, 'provider'>) => void,
  notice: (m: string) => void,
): Promise<void> {
  // Asked once for EC2 and ELB (a refusal too).
  let regionNames: Promise<string[]> | undefined;
  const inRegions = async (what: string, fn: (region: string) => Promise<void>) => {
    regionNames ??= regions(s, api);
    await eachPart(
      (m) => notice(`${what}: ${m}`),
      'regions',
      await regionNames,
      (r) => r,
      fn,
    );
  };
  await eachPart(
    notice,
    'services',
    ['ec2', 'elb', 'route53', 'cloudfront'],
    (x) => x,
    async (service) => {
      if (service === 'ec2') await inRegions('ec2', (r) => instances(s, api, r, push));
      if (service === 'elb') await inRegions('elb', (r) => loadBalancers(s, api, r, push));
      if (service === 'route53') await route53(s, api, push);
      if (service === 'cloudfront') await cloudfront(s, api, push);
    },
  );
}

export const aws: CloudProviderClient = {
  name: 'aws',
  base: 'https://ec2.us-east-1.amazonaws.com',
  apis: {
    ec2: 'https://ec2.{region}.amazonaws.com',
    elb: 'https://elasticloadbalancing.{region}.amazonaws.com',
    route53: 'https://route53.amazonaws.com',
    cloudfront: 'https://cloudfront.amazonaws.com',
    sts: 'https://sts.amazonaws.com',
  },
  auth: (e) => (!e.aws_access_key ? 'aws_access_key' : !e.aws_secret_key ? 'aws_secret_key' : {}),
  async list(entry, api) {
    const own = signer(
      {
        accessKeyId: entry.aws_access_key!,
        secretAccessKey: entry.aws_secret_key!,
        ...(entry.aws_session_token ? { sessionToken: entry.aws_session_token } : {}),
      },
      api,
    );
    const out: CloudAsset[] = [];
    const push = (a: Omit<CloudAsset, 'provider'>) =>
      out.push({ provider: 'aws', ...(entry.id ? { id: entry.id } : {}), ...a });
    const others = entry.assume_role_name
      ? [
          ...new Set(
            (entry.account_ids ?? '')
              .split(',')
              .map((a) => a.trim())
              .filter((a) => /^\d{12}$/.test(a)),
          ),
        ]
      : [];
    if (!others.length) {
      await listAccount(own, api, push, api.notice);
      return out;
    }
    // The entry's own account, then each of account_ids through the role: one that fails is a notice.
    await eachPart(
      api.notice,
      'accounts',
      ['', ...others],
      (a) => a || 'own account',
      async (account) => {
        const say = (m: string) => api.notice(account ? `account ${account}: ${m}` : m);
        const s = account ? signer(await assumeRole(own, api, account, entry.assume_role_name!), api) : own;
        await listAccount(s, api, push, say);
      },
    );
    return out;
  },
};
