// Alibaba Cloud ECS (RPC API 2014-05-26 at `https://ecs.<alibaba_region_id>.aliyuncs.com`): the public
// addresses (`PublicIpAddress.IpAddress[]`, `EipAddress.IpAddress`, network interfaces' IPv6) of the
// instances of the entry's region, as cloudlist lists them. Requests are GETs signed with signature
// version 1.0: the sorted, percent-encoded parameters (with `AccessKeyId`, `Timestamp`, a fresh
// `SignatureNonce`) are signed by HMAC-SHA1 with `<alibaba_access_key_secret>&`. Paged with `PageNumber` /
// `PageSize=100` until `TotalCount` is reached. Errors are JSON `Code` and `Message`.
import { createHmac, randomUUID } from 'node:crypto';
import { CloudApiError, json } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

/** Alibaba's percent-encoding: RFC 3986 unreserved characters stay, everything else is %XX (space is %20). */
export const percentEncode = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function signedQuery(params: Record<string, string>, secret: string, method = 'GET'): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
  const signature = createHmac('sha1', `${secret}&`)
    .update(`${method}&${percentEncode('/')}&${percentEncode(canonical)}`)
    .digest('base64');
  return `${canonical}&Signature=${percentEncode(signature)}`;
}

export const alibaba: CloudProviderClient = {
  name: 'alibaba',
  base: 'https://ecs.aliyuncs.com',
  apis: { ecs: 'https://ecs.{region}.aliyuncs.com' },
  auth: (e) => ['alibaba_region_id', 'alibaba_access_key', 'alibaba_access_key_secret'].find((k) => !e[k]) ?? {},
  async list(entry, api) {
    const region = entry.alibaba_region_id!;
    if (!/^[a-z0-9-]+$/.test(region))
      throw new CloudApiError('alibaba_region_id is not a region id (such as cn-hangzhou)');
    const out: CloudAsset[] = [];
    const push = (ip: unknown) => {
      if (typeof ip === 'string' && ip)
        out.push({ provider: 'alibaba', ...(entry.id ? { id: entry.id } : {}), service: 'instance', ip });
    };
    let seen = 0;
    for (let page = 1; ; page++) {
      if (page > api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const query = signedQuery(
        {
          Action: 'DescribeInstances',
          Version: '2014-05-26',
          RegionId: region,
          PageNumber: String(page),
          PageSize: '100',
          Format: 'JSON',
          AccessKeyId: entry.alibaba_access_key!,
          SignatureMethod: 'HMAC-SHA1',
          SignatureVersion: '1.0',
          SignatureNonce: randomUUID(),
          Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        },
        entry.alibaba_access_key_secret!,
      );
      const doc = json(
        (await api.send(`${api.url('ecs', { region })}/?${query}`, { headers: { Accept: 'application/json' } })).text,
      );
      const instances: any[] = Array.isArray(doc?.Instances?.Instance) ? doc.Instances.Instance : [];
      for (const i of instances) {
        for (const ip of Array.isArray(i?.PublicIpAddress?.IpAddress) ? i.PublicIpAddress.IpAddress : []) push(ip);
        push(i?.EipAddress?.IpAddress);
        for (const nic of Array.isArray(i?.NetworkInterfaces?.NetworkInterface)
          ? i.NetworkInterfaces.NetworkInterface
          : []) {
          for (const v6 of Array.isArray(nic?.Ipv6Sets?.Ipv6Set) ? nic.Ipv6Sets.Ipv6Set : []) push(v6?.Ipv6Address);
        }
      }
      seen += instances.length;
      if (!instances.length || seen >= Number(doc?.TotalCount ?? 0)) break;
    }
    return out;
  },
};
