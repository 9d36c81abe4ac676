// Linode / Akamai (https://api.linode.com/v4, `Authorization: Bearer <linode_personal_access_token>`):
// instances' public addresses. Lists are paged with `page` / `page_size` (25 to 500); the answer gives
// `page` and `pages`. `ipv4` also holds private addresses (192.168.128.0/17), which are left out; `ipv6`
// is the SLAAC address with its prefix length.
import net from 'node:net';
import { eachPage } from './http.ts';
import type { CloudAsset, CloudProviderClient } from './types.ts';

const privateV4 = new net.BlockList();
privateV4.addSubnet('10.0.0.0', 8);
privateV4.addSubnet('172.16.0.0', 12);
privateV4.addSubnet('192.168.0.0', 16);

export const linode: CloudProviderClient = {
  name: 'linode',
  base: 'https://api.linode.com',
  auth: (e) =>
    e.linode_personal_access_token
      ? { Authorization: `Bearer ${e.linode_personal_access_token}` }
      : 'linode_personal_access_token',
  async list(entry, api) {
    const instances = await eachPage<any>(
      api.get,
      (page) => `/v4/linode/instances?page=${page}&page_size=500`,
      (doc, page) => Number(doc?.pages ?? 1) > page,
      (doc) => (Array.isArray(doc?.data) ? doc.data : []),
      api.maxPages,
    );
    const out: CloudAsset[] = [];
    const base = { provider: 'linode', ...(entry.id ? { id: entry.id } : {}), service: 'instance' };
    for (const i of instances) {
      for (const ip of Array.isArray(i?.ipv4) ? i.ipv4 : []) {
        if (typeof ip === 'string' && net.isIPv4(ip) && !privateV4.check(ip, 'ipv4')) out.push({ ...base, ip });
      }
      const v6 = typeof i?.ipv6 === 'string' ? i.ipv6.split('/')[0] : '';
      if (v6 && net.isIPv6(v6)) out.push({ ...base, ip: v6 });
    }
    return out;
  },
};
