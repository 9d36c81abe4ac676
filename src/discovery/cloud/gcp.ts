// Google Cloud: `gcp_service_account_key` is a service account's JSON key. The client signs a JWT (RS256,
// `iss` the account's email, `aud` the key's `token_uri`, scope cloud-platform, one hour) and trades it at
// `token_uri` for an access token (OAuth 2.0 JWT bearer grant), sent as `Authorization: Bearer`. Listed,
// as cloudlist does, in every ACTIVE project the account sees (Cloud Resource Manager v1 `projects`; the
// key's own project when that API says nothing):
// - Compute Engine `aggregated/instances`: the external addresses of the instances' network interfaces
//   (`accessConfigs[].natIP`, `ipv6AccessConfigs[].externalIpv6`);
// - Cloud DNS public `managedZones` and their A, AAAA (name with each address) and CNAME (name) `rrsets`.
// Every list is paged with `pageToken` / `nextPageToken`.
import { createSign } from 'node:crypto';
import { CloudApiError, eachPart, json } from './http.ts';
import type { CloudAsset, CloudProviderClient, ProviderApi, ProviderEntry } from './types.ts';

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
  project_id?: string;
}

function parseKey(text: string): ServiceAccountKey {
  let k: any;
  try {
    k = JSON.parse(text);
  } catch {
    throw new CloudApiError('gcp_service_account_key is not JSON (a service account key file)');
  }
  if (typeof k?.client_email !== 'string' || typeof k?.private_key !== 'string')
    throw new CloudApiError('gcp_service_account_key has no client_email or private_key');
  return { ...k, token_uri: googleTokenUri(k.token_uri) };
}

/**
 * The key's token_uri when it is one of Google's (https, *.googleapis.com or accounts.google.com), else
 * Google's usual one: the key file is user input, and the server must not post to addresses it names.
 */
function googleTokenUri(v: unknown): string {
  try {
    const u = new URL(String(v));
    if (u.protocol === 'https:' && (u.hostname.endsWith('.googleapis.com') || u.hostname === 'accounts.google.com'))
      return u.href;
  } catch {
    // Not a URL: the default.
  }
  return 'https://oauth2.googleapis.com/token';
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** The signed assertion of the JWT bearer grant (RFC 7523). */
export function serviceAccountJwt(key: ServiceAccountKey, now = Math.floor(Date.now() / 1000)): string {
  const header = b64url(
    JSON.stringify({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) }),
  );
  const claims = b64url(
    JSON.stringify({ iss: key.client_email, scope: SCOPE, aud: key.token_uri, iat: now, exp: now + 3600 }),
  );
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(key.private_key);
  } catch {
    throw new CloudApiError('the private_key of gcp_service_account_key is not a usable RSA key');
  }
  return `${header}.${claims}.${b64url(signature)}`;
}

async function accessToken(key: ServiceAccountKey, api: ProviderApi): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: serviceAccountJwt(key),
  }).toString();
  const res = await api.send(api.url('oauth', { token_uri: key.token_uri }), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body,
  });
  const token = json(res.text)?.access_token;
  if (typeof token !== 'string' || !token) throw new CloudApiError('the token endpoint gave no access_token');
  api.secret(token);
  return token;
}

/** Every item of a Google list: `pageToken` from each answer's `nextPageToken` until there is none. */
async function pages(api: ProviderApi, token: string, url: string, take: (doc: any) => void): Promise<void> {
  let pageToken = '';
  for (let page = 0; ; page++) {
    if (page >= api.maxPages) throw new CloudApiError(`the listing did not end after ${api.maxPages} pages`);
    const sep = url.includes('?') ? '&' : '?';
    const res = await api.send(url + (pageToken ? `${sep}pageToken=${encodeURIComponent(pageToken)}` : ''), {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    const doc = json(res.text);
    take(doc);
    pageToken = typeof doc?.nextPageToken === 'string' ? doc.nextPageToken : '';
    if (!pageToken) return;
  }
}

async function projects(api: ProviderApi, token: string, key: ServiceAccountKey): Promise<string[]> {
  const out: string[] = [];
  try {
    await pages(api, token, `${api.url('resourcemanager')}/v1/projects?pageSize=500`, (doc) => {
      for (const p of Array.isArray(doc?.projects) ? doc.projects : []) {
        if (typeof p?.projectId === 'string' && (p.lifecycleState ?? 'ACTIVE') === 'ACTIVE') out.push(p.projectId);
      }
    });
  } catch (e) {
    if (!(e instanceof CloudApiError) || !key.project_id) throw e;
    api.notice(`projects not listed (${e.message}); listing the key's project ${key.project_id}`);
  }
  if (!out.length && key.project_id) out.push(key.project_id);
  return out;
}

export const gcp: CloudProviderClient = {
  name: 'gcp',
  base: 'https://compute.googleapis.com',
  apis: {
    oauth: '{token_uri}',
    resourcemanager: 'https://cloudresourcemanager.googleapis.com',
    compute: 'https://compute.googleapis.com',
    dns: 'https://dns.googleapis.com',
  },
  auth: (e: ProviderEntry) => (e.gcp_service_account_key ? {} : 'gcp_service_account_key'),
  async list(entry, api) {
    const key = parseKey(entry.gcp_service_account_key!);
    api.secret(key.private_key);
    const token = await accessToken(key, api);
    const out: CloudAsset[] = [];
    const push = (a: Omit<CloudAsset, 'provider'>) =>
      out.push({ provider: 'gcp', ...(entry.id ? { id: entry.id } : {}), ...a });
    const ids = await projects(api, token, key);
    if (!ids.length) throw new CloudApiError('the account sees no project');
    await eachPart(
      api.notice,
      'services',
      ['compute', 'dns'],
      (x) => x,
      (service) =>
        eachPart(
          (m) => api.notice(`${service}: ${m}`),
          'projects',
          ids,
          (p) => p,
          async (project) => {
            const p = encodeURIComponent(project);
            if (service === 'compute') {
              await pages(
                api,
                token,
                `${api.url('compute')}/compute/v1/projects/${p}/aggregated/instances?maxResults=500`,
                (doc) => {
                  for (const scoped of Object.values(doc?.items ?? {}) as any[]) {
                    for (const i of Array.isArray(scoped?.instances) ? scoped.instances : []) {
                      for (const nic of Array.isArray(i?.networkInterfaces) ? i.networkInterfaces : []) {
                        for (const c of Array.isArray(nic?.accessConfigs) ? nic.accessConfigs : [])
                          if (typeof c?.natIP === 'string') push({ service: 'instance', ip: c.natIP });
                        for (const c of Array.isArray(nic?.ipv6AccessConfigs) ? nic.ipv6AccessConfigs : [])
                          if (typeof c?.externalIpv6 === 'string') push({ service: 'instance', ip: c.externalIpv6 });
                      }
                    }
                  }
                },
              );
              return;
            }
            const zones: string[] = [];
            const dns = `${api.url('dns')}/dns/v1/projects/${p}/managedZones`;
            await pages(api, token, dns, (doc) => {
              for (const z of Array.isArray(doc?.managedZones) ? doc.managedZones : [])
                if (typeof z?.name === 'string' && z.visibility !== 'private') zones.push(z.name);
            });
            for (const zone of zones) {
              await pages(api, token, `${dns}/${encodeURIComponent(zone)}/rrsets`, (doc) => {
                for (const r of Array.isArray(doc?.rrsets) ? doc.rrsets : []) {
                  if ((r?.type !== 'A' && r?.type !== 'AAAA' && r?.type !== 'CNAME') || typeof r.name !== 'string')
                    continue;
                  const datas = Array.isArray(r.rrdatas) ? r.rrdatas.filter((d: unknown) => typeof d === 'string') : [];
                  if (r.type === 'CNAME' || !datas.length) push({ service: 'dns', host: r.name });
                  else for (const ip of datas) push({ service: 'dns', host: r.name, ip });
                }
              });
            }
          },
        ),
    );
    return out;
  },
};
