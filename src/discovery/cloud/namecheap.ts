// Namecheap (https://api.namecheap.com/xml.response): the account's domains (`namecheap.domains.getList`,
// `Page` / `PageSize=100` until `Paging/TotalItems` is reached), and the A, AAAA and CNAME host records of
// each domain whose DNS Namecheap serves (`namecheap.domains.dns.getHosts`). The API takes its credentials
// in the query (`ApiUser` and `UserName` = `namecheap_user_name`, `ApiKey` = `namecheap_api_key`) with
// `ClientIp`, the public IPv4 address calls come from (whitelisted in the account): `namecheap_client_ip`
// (cloudlist asks a what-is-my-IP service; Vigil does not call third parties for it). Answers are XML with
// `Status="ERROR"` and `<Errors>` on failure, even with HTTP 200.
import { XMLParser } from 'fast-xml-parser';
import { CloudApiError, eachPart } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi, ProviderEntry } from './types.ts';

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (n) => ['Domain', 'Error', 'host'].includes(n),
});

async function command(
  api: ProviderApi,
  entry: ProviderEntry,
  cmd: string,
  params: Record<string, string>,
): Promise<any> {
  const q = new URLSearchParams({
    ApiUser: entry.namecheap_user_name!,
    ApiKey: entry.namecheap_api_key!,
    UserName: entry.namecheap_user_name!,
    ClientIp: entry.namecheap_client_ip!,
    Command: cmd,
    ...params,
  });
  const { text } = await api.send(`${api.url('xml')}/xml.response?${q}`, { headers: { Accept: 'application/xml' } });
  let doc: any;
  try {
    doc = xml.parse(text)?.ApiResponse;
  } catch {
    throw new CloudApiError('the API answered something that is not XML');
  }
  if (!doc) throw new CloudApiError('the API answered something that is not an ApiResponse');
  if (doc['@_Status'] !== 'OK') {
    const e = doc.Errors?.Error?.[0];
    const message = typeof e === 'string' ? e : String(e?.['#text'] ?? 'no reason given');
    throw new CloudApiError(
      `the API refused the request: ${message.replace(/\s+/g, ' ').slice(0, 300)}${e?.['@_Number'] ? ` (${e['@_Number']})` : ''}`,
    );
  }
  return doc.CommandResponse;
}

export const namecheap: CloudProviderClient = {
  name: 'namecheap',
  base: 'https://api.namecheap.com',
  apis: { xml: 'https://api.namecheap.com' },
  auth: (e) => ['namecheap_api_key', 'namecheap_user_name', 'namecheap_client_ip'].find((k) => !e[k]) ?? {},
  async list(entry, api) {
    const out: CloudAsset[] = [];
    const push = (a: Omit<CloudAsset, 'provider'>) =>
      out.push({ provider: 'namecheap', ...(entry.id ? { id: entry.id } : {}), ...a });
    const domains: string[] = [];
    for (let page = 1; ; page++) {
      if (page > api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
      const res = await command(api, entry, 'namecheap.domains.getList', { Page: String(page), PageSize: '100' });
      const found = (res?.DomainGetListResult?.Domain ?? []).filter(
        (d: any) => typeof d?.['@_Name'] === 'string' && d['@_IsExpired'] !== 'true',
      );
      domains.push(...found.map((d: any) => d['@_Name'] as string));
      const total = Number(res?.Paging?.TotalItems ?? 0);
      if (!found.length || page * Number(res?.Paging?.PageSize ?? 100) >= total) break;
    }
    for (const d of domains) push({ service: 'domain', host: d });
    await eachPart(
      (m) => api.notice(`dns hosts: ${m}`),
      'domains',
      domains,
      (d) => d,
      async (domain) => {
        const [sld, ...tld] = domain.split('.');
        const res = await command(api, entry, 'namecheap.domains.dns.getHosts', { SLD: sld!, TLD: tld.join('.') });
        for (const h of res?.DomainDNSGetHostsResult?.host ?? []) {
          const type = h?.['@_Type'];
          const name = String(h?.['@_Name'] ?? '');
          if (type !== 'A' && type !== 'AAAA' && type !== 'CNAME') continue;
          const host = name === '@' || name === '' ? domain : `${name}.${domain}`;
          push(
            type === 'CNAME' ? { service: 'dns', host } : { service: 'dns', host, ip: String(h['@_Address'] ?? '') },
          );
        }
      },
    ).catch((e: unknown) => {
      if (!(e instanceof CloudApiError)) throw e;
      api.notice(`dns hosts not listed: ${e.message}`);
    });
    return out;
  },
};
