// A local server's answers as Fastly's REST API (Fastly-Key, Link header paging), Namecheap's XML API
// (credentials and ClientIp in the query, Status="ERROR" answers with HTTP 200) and Alibaba Cloud ECS's RPC
// API (signature version 1.0 recomputed here with node:crypto, nonce reuse and stale timestamps refused)
// give them.
import { createHmac } from 'node:crypto';
import type http from 'node:http';

export interface MoreInventory {
  fastlyServices: { id: string; name: string; version: number; domains: { name: string; version: number }[] }[];
  namecheapDomains: {
    name: string;
    expired?: boolean;
    externalDns?: boolean;
    hosts: { Name: string; Type: string; Address: string }[];
  }[];
  alibabaInstances: Record<
    string,
    {
      InstanceId: string;
      PublicIpAddress: { IpAddress: string[] };
      EipAddress: { IpAddress: string };
      NetworkInterfaces: { NetworkInterface: { Ipv6Sets?: { Ipv6Set: { Ipv6Address: string }[] } }[] };
    }[]
  >;
}

export interface MoreCredentials {
  fastlyKey: string;
  namecheap: { user: string; apiKey: string; clientIp: string };
  alibaba: { accessKey: string; secret: string };
}

const enc = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function answerMore(
  inv: MoreInventory,
  creds: MoreCredentials,
  nonces: Set<string>,
  pageCap: number,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  const url = new URL(req.url!, 'http://x');
  const [, prefix, ...rest] = url.pathname.split('/');
  const path = '/' + rest.join('/');
  const json = (status: number, doc: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(doc));
  };
  if (prefix === 'fastly') {
    if (req.headers['fastly-key'] !== creds.fastlyKey)
      return (json(401, { msg: 'Provided credentials are missing or invalid' }), true);
    if (path === '/service') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const per = Math.min(Number(url.searchParams.get('per_page') ?? 20), pageCap);
      const part = inv.fastlyServices.slice((page - 1) * per, page * per);
      const last = Math.max(1, Math.ceil(inv.fastlyServices.length / per));
      const link = (p: number, rel: string) =>
        `<https://api.fastly.com/service?page=${p}&per_page=${per}>; rel="${rel}"`;
      res.setHeader(
        'Link',
        [link(1, 'first'), link(last, 'last'), ...(page < last ? [link(page + 1, 'next')] : [])].join(', '),
      );
      return (
        json(
          200,
          part.map((s) => ({
            id: s.id,
            name: s.name,
            type: 'vcl',
            version: s.version,
            customer_id: 'cust1',
            versions: [],
          })),
        ),
        true
      );
    }
    const m = path.match(/^\/service\/([^/]+)\/domain$/);
    const s = m && inv.fastlyServices.find((x) => x.id === m[1]);
    if (!s) return (json(404, { msg: 'Record not found', detail: 'Cannot find service' }), true);
    return (
      json(
        200,
        s.domains.map((d) => ({ name: d.name, version: d.version, service_id: s.id, comment: '', deleted_at: null })),
      ),
      true
    );
  }
  if (prefix === 'namecheap') {
    const q = url.searchParams;
    const xml = (body: string) => {
      res.setHeader('content-type', 'text/xml; charset=utf-8');
      res.end(
        `<?xml version="1.0" encoding="utf-8"?>\n<ApiResponse Status="${body.startsWith('<Errors><Error') ? 'ERROR' : 'OK'}" xmlns="http://api.namecheap.com/xml.response">${body}</ApiResponse>`,
      );
    };
    const error = (n: number, text: string) =>
      xml(
        `<Errors><Error Number="${n}">${text}</Error></Errors><Warnings /><RequestedCommand>${q.get('Command')}</RequestedCommand><Server>WEB1</Server><GMTTimeDifference>--5:00</GMTTimeDifference><ExecutionTime>0.01</ExecutionTime>`,
      );
    if (path !== '/xml.response') return ((res.statusCode = 404), res.end(), true);
    if (q.get('ApiUser') !== creds.namecheap.user || q.get('UserName') !== creds.namecheap.user)
      return (error(1011102, 'Parameter ApiUser is invalid'), true);
    if (q.get('ApiKey') !== creds.namecheap.apiKey) return (error(1011102, 'Parameter APIKey is invalid'), true);
    if (q.get('ClientIp') !== creds.namecheap.clientIp)
      return (error(1011150, `Invalid request IP: ${q.get('ClientIp')}`), true);
    if (q.get('Command') === 'namecheap.domains.getList') {
      const size = Number(q.get('PageSize') ?? 20);
      if (!(size >= 10 && size <= 100)) return (error(2011312, 'PageSize should be between 10 and 100'), true);
      const page = Number(q.get('Page') ?? 1);
      const per = Math.min(size, pageCap);
      const part = inv.namecheapDomains.slice((page - 1) * per, page * per);
      const domains = part
        .map(
          (d, i) =>
            `<Domain ID="${1000 + i}" Name="${d.name}" User="${creds.namecheap.user}" Created="01/01/2025" Expires="01/01/2027" IsExpired="${!!d.expired}" IsLocked="false" AutoRenew="true" WhoisGuard="ENABLED" IsPremium="false" IsOurDNS="${!d.externalDns}"/>`,
        )
        .join('');
      return (
        xml(
          `<Errors /><Warnings /><RequestedCommand>namecheap.domains.getlist</RequestedCommand><CommandResponse Type="namecheap.domains.getList"><DomainGetListResult>${domains}</DomainGetListResult><Paging><TotalItems>${inv.namecheapDomains.length}</TotalItems><CurrentPage>${page}</CurrentPage><PageSize>${per}</PageSize></Paging></CommandResponse>`,
        ),
        true
      );
    }
    if (q.get('Command') === 'namecheap.domains.dns.getHosts') {
      const d = inv.namecheapDomains.find((x) => x.name === `${q.get('SLD')}.${q.get('TLD')}`);
      if (!d) return (error(2019166, 'Domain not found'), true);
      if (d.externalDns)
        return (error(2030288, 'Cannot complete this command as this domain is not using proper DNS servers'), true);
      const hosts = d.hosts
        .map(
          (h, i) =>
            `<host HostId="${i + 1}" Name="${h.Name}" Type="${h.Type}" Address="${h.Address}" MXPref="10" TTL="1800" />`,
        )
        .join('');
      return (
        xml(
          `<Errors /><Warnings /><RequestedCommand>namecheap.domains.dns.gethosts</RequestedCommand><CommandResponse Type="namecheap.domains.dns.getHosts"><DomainDNSGetHostsResult Domain="${d.name}" IsUsingOurDNS="true">${hosts}</DomainDNSGetHostsResult></CommandResponse>`,
        ),
        true
      );
    }
    return (error(1010101, 'Command is invalid'), true);
  }
  if (prefix === 'alibaba') {
    const region = rest[0] ?? '';
    const q = url.searchParams;
    const error = (status: number, Code: string, Message: string) =>
      json(status, {
        RequestId: 'E7D0B9F0-0000-4000-8000-000000000000',
        HostId: `ecs.${region}.aliyuncs.com`,
        Code,
        Message,
        Recommend: 'https://api.aliyun.com/troubleshoot',
      });
    if (q.get('AccessKeyId') !== creds.alibaba.accessKey)
      return (error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.'), true);
    if (q.get('SignatureMethod') !== 'HMAC-SHA1' || q.get('SignatureVersion') !== '1.0')
      return (
        error(400, 'InvalidParameter', 'The specified SignatureMethod or SignatureVersion is not supported.'),
        true
      );
    const params = [...q.entries()].filter(([k]) => k !== 'Signature').sort(([a], [b]) => (a < b ? -1 : 1));
    const canonical = params.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
    const expected = createHmac('sha1', `${creds.alibaba.secret}&`)
      .update(`${req.method}&%2F&${enc(canonical)}`)
      .digest('base64');
    if (q.get('Signature') !== expected)
      return (error(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.'), true);
    const at = Date.parse(q.get('Timestamp') ?? '');
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(q.get('Timestamp') ?? '') || Math.abs(at - Date.now()) > 15 * 60_000)
      return (error(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.'), true);
    const nonce = q.get('SignatureNonce') ?? '';
    if (!nonce || nonces.has(nonce))
      return (error(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.'), true);
    nonces.add(nonce);
    if (q.get('Action') !== 'DescribeInstances' || q.get('Version') !== '2014-05-26')
      return (
        error(400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.'),
        true
      );
    if (q.get('RegionId') !== region)
      return (error(400, 'InvalidRegionId.MalFormed', 'The specified parameter RegionId is not valid.'), true);
    const all = inv.alibabaInstances[region] ?? [];
    const size = Number(q.get('PageSize') ?? 10);
    if (!(size >= 1 && size <= 100))
      return (error(400, 'InvalidParameter.PageSize', 'The specified parameter PageSize is not valid.'), true);
    const page = Number(q.get('PageNumber') ?? 1);
    const per = Math.min(size, pageCap);
    return (
      json(200, {
        RequestId: 'A1B2',
        TotalCount: all.length,
        PageNumber: page,
        PageSize: per,
        Instances: {
          Instance: all.slice((page - 1) * per, page * per).map((i) => ({ ...i, RegionId: region, Status: 'Running' })),
        },
      }),
      true
    );
  }
  return false;
}
