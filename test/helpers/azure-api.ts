// A local server's answers as Microsoft Entra ID's token endpoint (client credentials grant) and Azure
// Resource Manager give them: public IP addresses, DNS zones and record sets, paged by absolute
// `nextLink`s on https://management.azure.com (as the real API writes them), error bodies of both.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';

export interface AzureCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  subscriptionId: string;
}

export interface AzureInventory {
  publicIps: { name: string; ipAddress?: string; version: 'IPv4' | 'IPv6'; fqdn?: string }[];
  trafficManagerProfiles: { name: string; relativeName: string }[];
  dnsZones: {
    name: string;
    zoneType: 'Public' | 'Private';
    records: { name: string; type: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT'; values: string[] }[];
  }[];
}

/** Answers /azure-login/... and /azure-arm/...; false for other paths. `issued` collects the tokens handed out. */
export function answerAzure(
  inv: AzureInventory,
  creds: AzureCredentials,
  issued: Set<string>,
  pageCap: number,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: string,
): boolean {
  const url = new URL(req.url!, 'http://x');
  const [, prefix, ...rest] = url.pathname.split('/');
  const path = '/' + rest.join('/');
  const json = (status: number, doc: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(doc));
  };
  if (prefix === 'azure-login') {
    const form = new URLSearchParams(body);
    const aad = (status: number, error: string, code: number, text: string) =>
      json(status, {
        error,
        error_description: `AADSTS${code}: ${text}\r\nTrace ID: 0b6f2f49-0000-4000-8000-000000000000\r\nCorrelation ID: 7d1f0000-0000-4000-8000-000000000000\r\nTimestamp: 2026-01-01 00:00:00Z`,
        error_codes: [code],
        timestamp: '2026-01-01 00:00:00Z',
        trace_id: '0b6f2f49-0000-4000-8000-000000000000',
        correlation_id: '7d1f0000-0000-4000-8000-000000000000',
      });
    if (req.method !== 'POST' || path !== `/${creds.tenantId}/oauth2/v2.0/token`)
      return (
        aad(400, 'invalid_request', 90002, 'Tenant not found. Check to make sure you have the correct tenant ID.'),
        true
      );
    if (form.get('grant_type') !== 'client_credentials')
      return (aad(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.'), true);
    if (form.get('scope') !== 'https://management.azure.com/.default')
      return (aad(400, 'invalid_scope', 1002012, 'The provided value for scope is not valid.'), true);
    if (form.get('client_id') !== creds.clientId)
      return (
        aad(
          400,
          'unauthorized_client',
          700016,
          `Application with identifier '${form.get('client_id')}' was not found in the directory.`,
        ),
        true
      );
    if (form.get('client_secret') !== creds.clientSecret)
      return (
        aad(
          401,
          'invalid_client',
          7000215,
          'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        ),
        true
      );
    const token = `eyJ0eXAiOiJKV1Qi.${randomBytes(24).toString('base64url')}`;
    issued.add(token);
    return (json(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token }), true);
  }
  if (prefix !== 'azure-arm') return false;
  const bearer = String(req.headers.authorization ?? '');
  if (!bearer.startsWith('Bearer '))
    return (
      json(401, {
        error: {
          code: 'AuthenticationFailed',
          message: "Authentication failed. The 'Authorization' header is missing.",
        },
      }),
      true
    );
  if (!issued.has(bearer.slice(7)))
    return (
      json(401, { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } }),
      true
    );
  const apiVersion = url.searchParams.get('api-version');
  if (!apiVersion)
    return (
      json(400, {
        error: {
          code: 'MissingApiVersionParameter',
          message: 'The api-version query parameter (?api-version=) is required for all requests.',
        },
      }),
      true
    );
  const sub = `/subscriptions/${creds.subscriptionId}`;
  if (path === '/subscriptions') {
    const subs = [
      { subscriptionId: creds.subscriptionId, state: 'Enabled' },
      { subscriptionId: 'dddddddd-0000-4000-8000-0000000000off', state: 'Disabled' },
    ];
    return (
      json(200, {
        value: subs.map((x) => ({
          id: `/subscriptions/${x.subscriptionId}`,
          ...x,
          displayName: 'Vigil',
          tenantId: creds.tenantId,
        })),
        count: { type: 'Total', value: subs.length },
      }),
      true
    );
  }
  if (!path.startsWith(`${sub}/`))
    return (
      json(404, {
        error: {
          code: 'SubscriptionNotFound',
          message: `The subscription '${path.split('/')[2]}' could not be found.`,
        },
      }),
      true
    );
  const skip = Number(url.searchParams.get('$skiptoken') ?? 0);
  const list = (items: unknown[]) => {
    const part = items.slice(skip, skip + pageCap);
    const more = skip + part.length < items.length;
    json(200, {
      value: part,
      ...(more
        ? { nextLink: `https://management.azure.com${path}?api-version=${apiVersion}&$skiptoken=${skip + part.length}` }
        : {}),
    });
  };
  const rg = `${sub}/resourceGroups/rg-web/providers/Microsoft.Network`;
  if (path === `${sub}/providers/Microsoft.Network/publicIPAddresses`) {
    return (
      list(
        inv.publicIps.map((ip) => ({
          name: ip.name,
          id: `${rg}/publicIPAddresses/${ip.name}`,
          location: 'westeurope',
          type: 'Microsoft.Network/publicIPAddresses',
          properties: {
            provisioningState: 'Succeeded',
            publicIPAddressVersion: ip.version,
            publicIPAllocationMethod: 'Static',
            idleTimeoutInMinutes: 4,
            ...(ip.ipAddress ? { ipAddress: ip.ipAddress } : {}),
            ...(ip.fqdn ? { dnsSettings: { domainNameLabel: ip.fqdn.split('.')[0], fqdn: ip.fqdn } } : {}),
          },
        })),
      ),
      true
    );
  }
  if (path === `${sub}/providers/Microsoft.Network/trafficmanagerprofiles`) {
    return (
      list(
        inv.trafficManagerProfiles.map((p) => ({
          id: `${rg}/trafficmanagerprofiles/${p.name}`,
          name: p.name,
          type: 'Microsoft.Network/trafficManagerProfiles',
          location: 'global',
          properties: {
            profileStatus: 'Enabled',
            trafficRoutingMethod: 'Performance',
            dnsConfig: { relativeName: p.relativeName, fqdn: `${p.relativeName}.trafficmanager.example.test`, ttl: 30 },
            endpoints: [],
          },
        })),
      ),
      true
    );
  }
  if (path === `${sub}/providers/Microsoft.Network/dnszones`) {
    return (
      list(
        inv.dnsZones.map((z) => ({
          id: `${rg}/dnszones/${z.name}`,
          name: z.name,
          type: 'Microsoft.Network/dnszones',
          location: 'global',
          properties: { zoneType: z.zoneType, numberOfRecordSets: z.records.length },
        })),
      ),
      true
    );
  }
  const m = path.match(
    /^\/subscriptions\/[^/]+\/resourceGroups\/rg-web\/providers\/Microsoft\.Network\/dnszones\/([^/]+)\/recordsets$/,
  );
  const zone = m && inv.dnsZones.find((z) => z.name === m[1]);
  if (zone) {
    return (
      list(
        zone.records.map((r) => {
          const fqdn = `${r.name === '@' ? '' : `${r.name}.`}${zone.name}.`;
          const props: Record<string, unknown> = { TTL: 3600, fqdn, provisioningState: 'Succeeded' };
          if (r.type === 'A') props.ARecords = r.values.map((v) => ({ ipv4Address: v }));
          if (r.type === 'AAAA') props.AAAARecords = r.values.map((v) => ({ ipv6Address: v }));
          if (r.type === 'CNAME') props.CNAMERecord = { cname: r.values[0] };
          if (r.type === 'TXT') props.TXTRecords = [{ value: r.values }];
          if (r.type === 'MX') props.MXRecords = r.values.map((v) => ({ preference: 10, exchange: v }));
          return {
            id: `${m![0].replace(/\/recordsets$/, '')}/${r.type}/${r.name}`,
            name: r.name,
            type: `Microsoft.Network/dnszones/${r.type}`,
            properties: props,
          };
        }),
      ),
      true
    );
  }
  return (json(404, { error: { code: 'ResourceNotFound', message: 'The Resource was not found.' } }), true);
}
