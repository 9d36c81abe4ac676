// Microsoft Azure: an access token for Azure Resource Manager from Microsoft Entra ID (OAuth 2.0 client
// credentials: `client_id`, `client_secret` posted to `https://login.microsoftonline.com/<tenant_id>/oauth2/v2.0/token`
// with scope `https://management.azure.com/.default`), sent as `Authorization: Bearer` to
// `https://management.azure.com`. Listed in `subscription_id` (without it, in every enabled subscription
// the application may read, `/subscriptions`):
// - public IP addresses (`Microsoft.Network/publicIPAddresses`): `properties.ipAddress` and the DNS name
//   `properties.dnsSettings.fqdn`;
// - Traffic Manager profiles (`Microsoft.Network/trafficmanagerprofiles`): `properties.dnsConfig.fqdn`;
// - public DNS zones (`Microsoft.Network/dnszones`) and their A, AAAA (name with each address) and CNAME
//   (name) record sets.
// Lists are paged by `nextLink` (an absolute URL, followed only on the Resource Manager host).
import { CloudApiError, eachPart, json } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi } from './types.ts';

const ARM = 'https://management.azure.com';

async function accessToken(entry: Record<string, string>, api: ProviderApi): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: entry.client_id!,
    client_secret: entry.client_secret!,
    scope: `${ARM}/.default`,
  }).toString();
  const url = `${api.url('login')}/${encodeURIComponent(entry.tenant_id!)}/oauth2/v2.0/token`;
  const res = await api.send(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body,
  });
  const token = json(res.text)?.access_token;
  if (typeof token !== 'string' || !token) throw new CloudApiError('the token endpoint gave no access_token');
  api.secret(token);
  return token;
}

/** Every `value` item of an ARM list, following `nextLink`s (rebased onto a replaced ARM address). */
async function all(api: ProviderApi, token: string, first: string): Promise<any[]> {
  const base = api.url('management');
  const out: any[] = [];
  let url: string = base + first;
  for (let page = 0; ; page++) {
    if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
    const doc = json(
      (await api.send(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })).text,
    );
    if (Array.isArray(doc?.value)) out.push(...doc.value);
    const next = typeof doc?.nextLink === 'string' ? doc.nextLink : '';
    if (!next) return out;
    // The token goes to the Resource Manager only, never to whatever host a nextLink names.
    if (next.startsWith(`${ARM}/`)) url = base + next.slice(ARM.length);
    else if (next.startsWith(`${base}/`)) url = next;
    else throw new CloudApiError('a nextLink pointed outside the Resource Manager API');
  }
}

export const azure: CloudProviderClient = {
  name: 'azure',
  base: ARM,
  apis: { login: 'https://login.microsoftonline.com', management: ARM },
  auth: (e) => ['client_id', 'client_secret', 'tenant_id'].find((k) => !e[k]) ?? {},
  async list(entry, api) {
    const token = await accessToken(entry, api);
    const out: CloudAsset[] = [];
    const push = (a: Omit<CloudAsset, 'provider'>) =>
      out.push({ provider: 'azure', ...(entry.id ? { id: entry.id } : {}), ...a });
    // Without subscription_id, every enabled subscription the application may read (as cloudlist does).
    const subscriptions = entry.subscription_id
      ? [entry.subscription_id]
      : (await all(api, token, '/subscriptions?api-version=2022-12-01'))
          .filter((x) => typeof x?.subscriptionId === 'string' && x.state === 'Enabled')
          .map((x) => x.subscriptionId as string);
    if (!subscriptions.length) throw new CloudApiError('the application sees no enabled subscription');
    await eachPart(
      api.notice,
      'subscriptions',
      subscriptions,
      (x) => x,
      (subscription) =>
        eachPart(
          (m) => api.notice(subscriptions.length > 1 ? `subscription ${subscription}: ${m}` : m),
          'services',
          ['publicip', 'trafficmanager', 'dns'],
          (x) => x,
          async (service) => {
            const sub = `/subscriptions/${encodeURIComponent(subscription)}/providers/Microsoft.Network`;
            if (service === 'publicip') {
              for (const ip of await all(api, token, `${sub}/publicIPAddresses?api-version=2024-05-01`)) {
                const address = ip?.properties?.ipAddress;
                const fqdn = ip?.properties?.dnsSettings?.fqdn;
                if (typeof address === 'string') push({ service: 'publicip', ip: address });
                if (typeof fqdn === 'string')
                  push({ service: 'publicip', host: fqdn, ...(typeof address === 'string' ? { ip: address } : {}) });
              }
              return;
            }
            if (service === 'trafficmanager') {
              for (const p of await all(api, token, `${sub}/trafficmanagerprofiles?api-version=2022-04-01`)) {
                const fqdn = p?.properties?.dnsConfig?.fqdn;
                if (typeof fqdn === 'string') push({ service: 'trafficmanager', host: fqdn });
              }
              return;
            }
            for (const zone of await all(api, token, `${sub}/dnszones?api-version=2018-05-01`)) {
              if (
                typeof zone?.id !== 'string' ||
                !zone.id.startsWith('/subscriptions/') ||
                zone?.properties?.zoneType === 'Private'
              )
                continue;
              for (const r of await all(api, token, `${zone.id}/recordsets?api-version=2018-05-01`)) {
                const type = String(r?.type ?? '')
                  .split('/')
                  .pop();
                const host = r?.properties?.fqdn;
                if (typeof host !== 'string' || (type !== 'A' && type !== 'AAAA' && type !== 'CNAME')) continue;
                const ips =
                  type === 'A'
                    ? (r.properties.ARecords ?? []).map((x: any) => x?.ipv4Address)
                    : type === 'AAAA'
                      ? (r.properties.AAAARecords ?? []).map((x: any) => x?.ipv6Address)
                      : [];
                const good = ips.filter((x: unknown) => typeof x === 'string');
                if (!good.length) push({ service: 'dns', host });
                else for (const ip of good) push({ service: 'dns', host, ip });
              }
            }
          },
        ),
    );
    return out;
  },
};
