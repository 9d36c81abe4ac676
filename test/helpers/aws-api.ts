// A local server's answers as AWS's EC2 and Elastic Load Balancing Query APIs and Route 53's REST API give
// them (XML bodies, error shapes, paging tokens), behind a Signature Version 4 check written here from the
// specification with node:crypto (not with the client's signing library): a request whose signature,
// scope, date or session token is wrong is refused as AWS refuses it.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

export interface AwsCredentials {
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
}

export interface AwsInventory {
  regions: Record<
    string,
    {
      instances: {
        id: string;
        ipAddress?: string;
        dnsName?: string;
        ipv6Address?: string;
        privateIpAddress: string;
        nics?: { publicIp?: string; ipv6?: string[] }[];
      }[];
      loadBalancers?: { name: string; dnsName: string; scheme: 'internet-facing' | 'internal' }[];
      classicLoadBalancers?: { name: string; dnsName: string; scheme: 'internet-facing' | 'internal' }[];
    }
  >;
  zones: {
    id: string;
    name: string;
    private: boolean;
    records: { name: string; type: string; values?: string[]; alias?: string; setIdentifier?: string }[];
  }[];
  distributions?: { id: string; domainName: string; aliases: string[]; enabled: boolean }[];
  /** Other accounts, by id: their role `role` may be assumed by this account's keys. */
  otherAccounts?: Record<string, { role: string; inventory: AwsInventory }>;
}

/** The access keys the server knows (the accounts' own, and the temporary ones STS handed out). */
export type AwsKeys = Map<string, { creds: AwsCredentials; inv: AwsInventory }>;

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const hmac = (key: Buffer | string, v: string) => createHmac('sha256', key).update(v).digest();
const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** URI encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ as %XX. */
const uriEncode = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why the request's SigV4 signature does not hold for the expected service and region, or undefined when it does. */
export function sigv4Problem(
  req: http.IncomingMessage,
  body: string,
  creds: AwsCredentials,
  service: string,
  region: string,
  now = Date.now(),
): { code: string; message: string; status: number } | undefined {
  const auth = String(req.headers.authorization ?? '');
  const m = auth.match(
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/,
  );
  if (!m)
    return {
      status: 403,
      code: 'IncompleteSignature',
      message: 'Authorization header requires Credential, SignedHeaders and Signature.',
    };
  const [, keyId, date, scopeRegion, scopeService, signed, signature] = m as unknown as string[];
  if (keyId !== creds.accessKey)
    return {
      status: 401,
      code: 'AuthFailure',
      message: 'AWS was not able to validate the provided access credentials',
    };
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const t = amzDate.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
  if (
    !t ||
    amzDate.slice(0, 8) !== date ||
    Math.abs(Date.UTC(+t[1]!, +t[2]! - 1, +t[3]!, +t[4]!, +t[5]!, +t[6]!) - now) > 15 * 60_000
  ) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'Signature expired or X-Amz-Date does not match the credential scope.',
    };
  }
  if (scopeRegion !== region || scopeService !== service)
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: `Credential should be scoped to a valid region and service (${region}/${service}).`,
    };
  const names = signed!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date'))
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'host and x-amz-date must be signed.' };
  if (
    creds.sessionToken &&
    (req.headers['x-amz-security-token'] !== creds.sessionToken || !names.includes('x-amz-security-token'))
  ) {
    return {
      status: 403,
      code: 'InvalidClientTokenId',
      message: 'The security token included in the request is invalid.',
    };
  }
  const url = new URL(req.url!, 'http://x');
  const path = url.pathname.split('/').map(uriEncode).join('/');
  const raw = (req.url!.split('?')[1] ?? '')
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const [k, v = ''] = p.split('=');
      const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return [uriEncode(dec(k!)), uriEncode(dec(v))] as const;
    })
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  const query = raw.map(([k, v]) => `${k}=${v}`).join('&');
  const headers = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, path, query, headers, signed, sha256(body)].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${region}/${service}/aws4_request`, sha256(canonical)].join(
    '\n',
  );
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretKey}`, date!), region), service), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature!, 'hex'))) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    };
  }
  return undefined;
}

const token = (n: number) => Buffer.from(`offset:${n}`).toString('base64');
const untoken = (t: string | null) => (t ? Number(Buffer.from(t, 'base64').toString().split(':')[1] ?? 'x') : 0);

/**
 * Answers a request under /aws-ec2/<region>, /aws-elb/<region> or /aws-route53 (the prefixes the
 * baseUrls give); returns false when the path is none of them.
 */
export function answerAws(
  keys: AwsKeys,
  pageCap: number,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: string,
): boolean {
  const url = new URL(req.url!, 'http://x');
  const keyId = String(req.headers.authorization ?? '').match(/Credential=([^/]+)\//)?.[1] ?? '';
  const known = keys.get(keyId);
  // An unknown key is checked against a secret nobody has: refused as AWS refuses it.
  const creds = known?.creds ?? { accessKey: keyId, secretKey: '\0unknown' };
  const inv = known?.inv ?? { regions: {}, zones: [] };
  const [, prefix, region = '', ...rest] = url.pathname.split('/');
  const send = (status: number, xml: string) => {
    res.statusCode = status;
    res.setHeader('content-type', 'text/xml;charset=UTF-8');
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}`);
  };
  const requestId = '5ba3c9b6-0000-4000-8000-000000000000';
  const queryError = (status: number, code: string, message: string) =>
    send(
      status,
      `<Response><Errors><Error><Code>${code}</Code><Message>${esc(message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`,
    );
  const restError = (status: number, code: string, message: string, ns: string) =>
    send(
      status,
      `<ErrorResponse xmlns="${ns}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${esc(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
    );

  if (prefix === 'aws-ec2' || prefix === 'aws-elb') {
    const service = prefix === 'aws-ec2' ? 'ec2' : 'elasticloadbalancing';
    const ns =
      prefix === 'aws-ec2'
        ? 'http://ec2.amazonaws.com/doc/2016-11-15/'
        : 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';
    if (rest.join('/') !== '' || req.method !== 'POST')
      return (queryError(400, 'InvalidAction', 'The action or operation requested is invalid.'), true);
    const problem = known
      ? sigv4Problem(req, body, creds, service, region)
      : { status: 401, code: 'AuthFailure', message: 'AWS was not able to validate the provided access credentials' };
    if (problem)
      return (
        prefix === 'aws-ec2'
          ? queryError(problem.status, problem.code, problem.message)
          : restError(problem.status, problem.code, problem.message, ns),
        true
      );
    const form = new URLSearchParams(body);
    const r = inv.regions[region];
    if (!r)
      return (queryError(401, 'AuthFailure', 'AWS was not able to validate the provided access credentials'), true);
    if (prefix === 'aws-ec2') {
      if (form.get('Version') !== '2016-11-15')
        return (queryError(400, 'InvalidParameterValue', 'Unsupported Version'), true);
      if (form.get('Action') === 'DescribeRegions') {
        const items = Object.keys(inv.regions)
          .map(
            (n) =>
              `<item><regionName>${n}</regionName><regionEndpoint>ec2.${n}.amazonaws.com</regionEndpoint><optInStatus>opt-in-not-required</optInStatus></item>`,
          )
          .join('');
        return (
          send(
            200,
            `<DescribeRegionsResponse xmlns="${ns}"><requestId>${requestId}</requestId><regionInfo>${items}</regionInfo></DescribeRegionsResponse>`,
          ),
          true
        );
      }
      if (form.get('Action') !== 'DescribeInstances')
        return (
          queryError(400, 'InvalidAction', `The action ${form.get('Action')} is not valid for this web service.`),
          true
        );
      const max = Number(form.get('MaxResults') ?? 1000);
      if (!(max >= 5 && max <= 1000))
        return (
          queryError(
            400,
            'InvalidParameterValue',
            'Value for parameter maxResults is invalid. Expecting a value between 5 and 1000.',
          ),
          true
        );
      const from = untoken(form.get('NextToken'));
      const page = r.instances.slice(from, from + Math.min(max, pageCap));
      // One reservation per instance (as instances launched one at a time are).
      const reservations = page
        .map(
          (i) =>
            `<item><reservationId>r-${i.id}</reservationId><ownerId>123456789012</ownerId><groupSet/><instancesSet><item><instanceId>i-${i.id}</instanceId><instanceState><code>16</code><name>running</name></instanceState>` +
            `<privateDnsName>ip-${i.privateIpAddress.replace(/\./g, '-')}.ec2.internal</privateDnsName><dnsName>${i.dnsName ?? ''}</dnsName><privateIpAddress>${i.privateIpAddress}</privateIpAddress>` +
            (i.ipAddress ? `<ipAddress>${i.ipAddress}</ipAddress>` : '') +
            (i.ipv6Address ? `<ipv6Address>${i.ipv6Address}</ipv6Address>` : '') +
            `<networkInterfaceSet>${(i.nics ?? [])
              .map(
                (n, k) =>
                  `<item><networkInterfaceId>eni-${i.id}${k}</networkInterfaceId><privateIpAddress>${i.privateIpAddress}</privateIpAddress>` +
                  (n.publicIp
                    ? `<association><publicIp>${n.publicIp}</publicIp><ipOwnerId>amazon</ipOwnerId></association>`
                    : '') +
                  `<ipv6AddressesSet>${(n.ipv6 ?? []).map((a) => `<item><ipv6Address>${a}</ipv6Address></item>`).join('')}</ipv6AddressesSet></item>`,
              )
              .join('')}</networkInterfaceSet>` +
            `</item></instancesSet></item>`,
        )
        .join('');
      const next = from + page.length < r.instances.length ? `<nextToken>${token(from + page.length)}</nextToken>` : '';
      return (
        send(
          200,
          `<DescribeInstancesResponse xmlns="${ns}"><requestId>${requestId}</requestId><reservationSet>${reservations}</reservationSet>${next}</DescribeInstancesResponse>`,
        ),
        true
      );
    }
    if (form.get('Action') !== 'DescribeLoadBalancers')
      return (restError(400, 'InvalidAction', 'Could not find operation', ns), true);
    const classic = form.get('Version') === '2012-06-01';
    if (!classic && form.get('Version') !== '2015-12-01')
      return (restError(400, 'InvalidParameterValue', 'Unsupported Version', ns), true);
    const size = Number(form.get('PageSize') ?? 400);
    if (!(size >= 1 && size <= 400))
      return (restError(400, 'ValidationError', 'PageSize must be between 1 and 400', ns), true);
    const all = (classic ? r.classicLoadBalancers : r.loadBalancers) ?? [];
    const from = untoken(form.get('Marker'));
    const page = all.slice(from, from + Math.min(size, pageCap));
    const next = from + page.length < all.length ? `<NextMarker>${token(from + page.length)}</NextMarker>` : '';
    const members = page
      .map(
        (lb) =>
          `<member><LoadBalancerName>${lb.name}</LoadBalancerName><DNSName>${lb.dnsName}</DNSName><Scheme>${lb.scheme}</Scheme></member>`,
      )
      .join('');
    const list = classic
      ? `<LoadBalancerDescriptions>${members}</LoadBalancerDescriptions>`
      : `<LoadBalancers>${members}</LoadBalancers>`;
    return (
      send(
        200,
        `<DescribeLoadBalancersResponse xmlns="${ns}"><DescribeLoadBalancersResult>${list}${next}</DescribeLoadBalancersResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></DescribeLoadBalancersResponse>`,
      ),
      true
    );
  }

  if (prefix === 'aws-sts') {
    const ns = 'https://sts.amazonaws.com/doc/2011-06-15/';
    const problem = known
      ? sigv4Problem(req, body, creds, 'sts', 'us-east-1')
      : {
          status: 403,
          code: 'InvalidClientTokenId',
          message: 'The security token included in the request is invalid.',
        };
    if (problem)
      return (restError(problem.status === 401 ? 403 : problem.status, problem.code, problem.message, ns), true);
    const form = new URLSearchParams(body);
    if (form.get('Action') !== 'AssumeRole' || form.get('Version') !== '2011-06-15')
      return (restError(400, 'InvalidAction', 'Could not find operation', ns), true);
    if (!form.get('RoleSessionName'))
      return (restError(400, 'ValidationError', 'RoleSessionName is required', ns), true);
    const arn = form.get('RoleArn') ?? '';
    const target = Object.entries(inv.otherAccounts ?? {}).find(
      ([id, a]) => arn === `arn:aws:iam::${id}:role/${a.role}`,
    );
    if (!target)
      return (
        restError(
          403,
          'AccessDenied',
          `User: arn:aws:iam::123456789012:user/lister is not authorized to perform: sts:AssumeRole on resource: ${arn}`,
          ns,
        ),
        true
      );
    const tmp = {
      accessKey: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secretKey: randomBytes(20).toString('base64'),
      sessionToken: `FwoGZXIvYXdzE${randomBytes(24).toString('base64url')}`,
    };
    keys.set(tmp.accessKey, { creds: tmp, inv: target[1].inventory });
    return (
      send(
        200,
        `<AssumeRoleResponse xmlns="${ns}"><AssumeRoleResult><AssumedRoleUser><AssumedRoleId>AROA3XFRBF535PLBIFPI4:${form.get('RoleSessionName')}</AssumedRoleId><Arn>arn:aws:sts::${target[0]}:assumed-role/${target[1].role}/${form.get('RoleSessionName')}</Arn></AssumedRoleUser>` +
          `<Credentials><AccessKeyId>${tmp.accessKey}</AccessKeyId><SecretAccessKey>${tmp.secretKey}</SecretAccessKey><SessionToken>${tmp.sessionToken}</SessionToken><Expiration>${new Date(Date.now() + 3600_000).toISOString()}</Expiration></Credentials>` +
          `</AssumeRoleResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></AssumeRoleResponse>`,
      ),
      true
    );
  }

  if (prefix === 'aws-cloudfront') {
    const ns = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
    const problem = known
      ? sigv4Problem(req, body, creds, 'cloudfront', 'us-east-1')
      : {
          status: 403,
          code: 'InvalidClientTokenId',
          message: 'The security token included in the request is invalid.',
        };
    if (problem)
      return (restError(problem.status === 401 ? 403 : problem.status, problem.code, problem.message, ns), true);
    if ([region, ...rest].join('/') !== '2020-05-31/distribution')
      return (restError(404, 'NoSuchResource', 'The specified resource does not exist.', ns), true);
    const all = inv.distributions ?? [];
    const max = Number(url.searchParams.get('MaxItems') ?? 100);
    const from = url.searchParams.get('Marker') ? all.findIndex((d) => d.id === url.searchParams.get('Marker')) : 0;
    if (from < 0) return (restError(400, 'InvalidArgument', 'Invalid marker', ns), true);
    const page = all.slice(from, from + Math.min(max, pageCap));
    const next = all[from + page.length];
    const items = page
      .map(
        (d) =>
          `<DistributionSummary><Id>${d.id}</Id><ARN>arn:aws:cloudfront::123456789012:distribution/${d.id}</ARN><Status>Deployed</Status><DomainName>${d.domainName}</DomainName>` +
          `<Aliases><Quantity>${d.aliases.length}</Quantity>${d.aliases.length ? `<Items>${d.aliases.map((a) => `<CNAME>${a}</CNAME>`).join('')}</Items>` : ''}</Aliases><Enabled>${d.enabled}</Enabled></DistributionSummary>`,
      )
      .join('');
    return (
      send(
        200,
        `<DistributionList xmlns="${ns}"><Marker>${url.searchParams.get('Marker') ?? ''}</Marker>${next ? `<NextMarker>${next.id}</NextMarker>` : ''}<MaxItems>${max}</MaxItems><IsTruncated>${!!next}</IsTruncated><Quantity>${page.length}</Quantity>${page.length ? `<Items>${items}</Items>` : ''}</DistributionList>`,
      ),
      true
    );
  }

  if (prefix === 'aws-route53') {
    const ns = 'https://route53.amazonaws.com/doc/2013-04-01/';
    const problem = known
      ? sigv4Problem(req, body, creds, 'route53', 'us-east-1')
      : {
          status: 403,
          code: 'InvalidClientTokenId',
          message: 'The security token included in the request is invalid.',
        };
    if (problem)
      return (
        restError(
          problem.status === 401 ? 403 : problem.status,
          problem.code === 'AuthFailure' ? 'InvalidClientTokenId' : problem.code,
          problem.message,
          ns,
        ),
        true
      );
    const p = [region, ...rest].join('/');
    const max = Number(url.searchParams.get('maxitems') ?? 100);
    if (p === '2013-04-01/hostedzone') {
      const from = url.searchParams.get('marker')
        ? inv.zones.findIndex((z) => z.id === url.searchParams.get('marker'))
        : 0;
      if (from < 0) return (restError(400, 'InvalidInput', 'Invalid marker', ns), true);
      const page = inv.zones.slice(from, from + Math.min(max, pageCap));
      const more = from + page.length < inv.zones.length;
      const zones = page
        .map(
          (z) =>
            `<HostedZone><Id>/hostedzone/${z.id}</Id><Name>${z.name}</Name><CallerReference>ref-${z.id}</CallerReference><Config><PrivateZone>${z.private}</PrivateZone></Config><ResourceRecordSetCount>${z.records.length}</ResourceRecordSetCount></HostedZone>`,
        )
        .join('');
      return (
        send(
          200,
          `<ListHostedZonesResponse xmlns="${ns}"><HostedZones>${zones}</HostedZones><IsTruncated>${more}</IsTruncated>${more ? `<NextMarker>${inv.zones[from + page.length]!.id}</NextMarker>` : ''}<MaxItems>${max}</MaxItems></ListHostedZonesResponse>`,
        ),
        true
      );
    }
    const m = p.match(/^2013-04-01\/hostedzone\/([^/]+)\/rrset$/);
    const zone = m && inv.zones.find((z) => z.id === m[1]);
    if (!zone) return (restError(404, 'NoSuchHostedZone', `No hosted zone found with ID: ${m?.[1]}`, ns), true);
    const name = url.searchParams.get('name');
    const type = url.searchParams.get('type');
    if (type && !name) return (restError(400, 'InvalidInput', 'The input is not valid: type requires name', ns), true);
    const from = name
      ? zone.records.findIndex(
          (r) =>
            r.name === name &&
            (!type || r.type === type) &&
            (r.setIdentifier ?? null) === url.searchParams.get('identifier'),
        )
      : 0;
    if (from < 0) return (restError(400, 'InvalidInput', 'The input is not valid', ns), true);
    const page = zone.records.slice(from, from + Math.min(max, pageCap));
    const nextRecord = zone.records[from + page.length];
    const sets = page
      .map(
        (r) =>
          `<ResourceRecordSet><Name>${r.name}</Name><Type>${r.type}</Type>${r.setIdentifier ? `<SetIdentifier>${r.setIdentifier}</SetIdentifier><Weight>10</Weight>` : ''}` +
          (r.alias
            ? `<AliasTarget><HostedZoneId>Z35SXDOTRQ7X7K</HostedZoneId><DNSName>${r.alias}</DNSName><EvaluateTargetHealth>false</EvaluateTargetHealth></AliasTarget>`
            : `<TTL>300</TTL><ResourceRecords>${(r.values ?? []).map((v) => `<ResourceRecord><Value>${esc(v)}</Value></ResourceRecord>`).join('')}</ResourceRecords>`) +
          '</ResourceRecordSet>',
      )
      .join('');
    const next = nextRecord
      ? `<NextRecordName>${nextRecord.name}</NextRecordName><NextRecordType>${nextRecord.type}</NextRecordType>${nextRecord.setIdentifier ? `<NextRecordIdentifier>${nextRecord.setIdentifier}</NextRecordIdentifier>` : ''}`
      : '';
    return (
      send(
        200,
        `<ListResourceRecordSetsResponse xmlns="${ns}"><ResourceRecordSets>${sets}</ResourceRecordSets><IsTruncated>${!!nextRecord}</IsTruncated>${next}<MaxItems>${max}</MaxItems></ListResourceRecordSetsResponse>`,
      ),
      true
    );
  }
  return false;
}
