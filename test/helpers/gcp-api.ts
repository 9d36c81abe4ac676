// A local server's answers as Google's OAuth token endpoint (JWT bearer grant: the assertion's RS256
// signature is checked with the public key of the service account's key pair, made by the test, and its
// claims), Cloud Resource Manager v1, Compute Engine v1 and Cloud DNS v1 give them (paths, shapes,
// `pageToken` paging, error bodies).
import { createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type http from 'node:http';

export interface GcpInventory {
  projects: {
    projectId: string;
    lifecycleState: string;
    computeDisabled?: boolean;
    dnsDisabled?: boolean;
    instances: { name: string; zone: string; natIPs: string[]; externalIpv6?: string }[];
    zones: {
      name: string;
      dnsName: string;
      visibility: 'public' | 'private';
      rrsets: { name: string; type: string; rrdatas: string[] }[];
    }[];
  }[];
}

export interface GcpAccount {
  /** The JSON key file's text, as gcp_service_account_key holds it. */
  keyJson: string;
  email: string;
  publicKey: KeyObject;
  /** Access tokens the token endpoint handed out. */
  issued: Set<string>;
}

export const GCP_TOKEN_URI = 'https://oauth2.googleapis.com/token';

export function gcpAccount(projectId = 'vigil-proj-1'): GcpAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `lister@${projectId}.iam.gserviceaccount.com`;
  const keyJson = JSON.stringify(
    {
      type: 'service_account',
      project_id: projectId,
      private_key_id: 'a1b2c3d4e5f6SECRETKID',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: email,
      client_id: '109876543210987654321',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: GCP_TOKEN_URI,
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      universe_domain: 'googleapis.com',
    },
    null,
    2,
  );
  return { keyJson, email, publicKey, issued: new Set() };
}

/** Why a JWT bearer assertion is refused, or undefined. */
function assertionProblem(assertion: string, account: GcpAccount): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.';
  const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString());
  if (header.alg !== 'RS256' || header.kid !== 'a1b2c3d4e5f6SECRETKID') return 'Invalid JWT header.';
  if (
    !createVerify('RSA-SHA256')
      .update(`${parts[0]}.${parts[1]}`)
      .verify(account.publicKey, Buffer.from(parts[2]!, 'base64url'))
  )
    return 'Invalid JWT Signature.';
  const now = Date.now() / 1000;
  if (claims.iss !== account.email) return 'Invalid JWT: iss is not the service account.';
  if (claims.aud !== GCP_TOKEN_URI) return 'Invalid JWT: Failed audience check.';
  if (
    !String(claims.scope ?? '')
      .split(' ')
      .includes('https://www.googleapis.com/auth/cloud-platform')
  )
    return 'Invalid OAuth scope or ID token audience provided.';
  if (Math.abs(claims.iat - now) > 300 || claims.exp - claims.iat > 3600 || claims.exp < now)
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  return undefined;
}

/** Answers /gcp-oauth/token, /gcp-crm/..., /gcp-compute/..., /gcp-dns/...; false for other paths. */
export function answerGcp(
  inv: GcpInventory,
  account: GcpAccount,
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
    res.setHeader('content-type', 'application/json; charset=UTF-8');
    res.end(JSON.stringify(doc));
  };
  const apiError = (code: number, status: string, message: string) =>
    json(code, {
      error: { code, message, errors: [{ message, domain: 'global', reason: status.toLowerCase() }], status },
    });
  if (prefix === 'gcp-oauth') {
    const form = new URLSearchParams(body);
    if (req.method !== 'POST' || path !== '/token') return (json(404, { error: 'not_found' }), true);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return (
        json(400, {
          error: 'unsupported_grant_type',
          error_description: 'Invalid grant_type: ' + form.get('grant_type'),
        }),
        true
      );
    const problem = assertionProblem(form.get('assertion') ?? '', account);
    if (problem) return (json(400, { error: 'invalid_grant', error_description: problem }), true);
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    account.issued.add(token);
    return (json(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' }), true);
  }
  if (prefix !== 'gcp-crm' && prefix !== 'gcp-compute' && prefix !== 'gcp-dns') return false;
  const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!account.issued.has(bearer)) {
    return (
      apiError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      ),
      true
    );
  }
  const from = Number(
    url.searchParams.get('pageToken') ? Buffer.from(url.searchParams.get('pageToken')!, 'base64url').toString() : 0,
  );
  const page = <T>(items: T[], max: number) => {
    const part = items.slice(from, from + Math.min(max, pageCap));
    const next =
      from + part.length < items.length
        ? { nextPageToken: Buffer.from(String(from + part.length)).toString('base64url') }
        : {};
    return { part, next };
  };
  if (prefix === 'gcp-crm') {
    if (path !== '/v1/projects') return (apiError(404, 'NOT_FOUND', 'Not found'), true);
    const { part, next } = page(inv.projects, Number(url.searchParams.get('pageSize') ?? 500));
    return (
      json(200, {
        projects: part.map((p, i) => ({
          projectNumber: String(100000 + i),
          projectId: p.projectId,
          lifecycleState: p.lifecycleState,
          name: p.projectId,
        })),
        ...next,
      }),
      true
    );
  }
  const m = path.match(/^\/(?:compute\/v1|dns\/v1)\/projects\/([^/]+)\/(.*)$/);
  const project = m && inv.projects.find((p) => p.projectId === decodeURIComponent(m[1]!));
  if (!project) return (apiError(403, 'PERMISSION_DENIED', 'The caller does not have permission'), true);
  if (prefix === 'gcp-compute') {
    if (m![2] !== 'aggregated/instances') return (apiError(404, 'NOT_FOUND', 'Not found'), true);
    if (project.computeDisabled)
      return (
        apiError(
          403,
          'PERMISSION_DENIED',
          `Compute Engine API has not been used in project ${project.projectId} before or it is disabled.`,
        ),
        true
      );
    const max = Number(url.searchParams.get('maxResults') ?? 500);
    if (!(max >= 0 && max <= 500))
      return (
        apiError(400, 'INVALID_ARGUMENT', "Invalid value for field 'maxResults'. Must be less than or equal to 500"),
        true
      );
    const { part, next } = page(project.instances, max);
    const items: Record<string, unknown> = {
      'zones/asia-east1-a': {
        warning: {
          code: 'NO_RESULTS_ON_PAGE',
          message: "There are no results for scope 'zones/asia-east1-a' on this page.",
        },
      },
    };
    for (const i of part) {
      const scope = items[`zones/${i.zone}`] as { instances?: unknown[] } | undefined;
      const instance = {
        kind: 'compute#instance',
        name: i.name,
        status: 'RUNNING',
        networkInterfaces: [
          {
            name: 'nic0',
            networkIP: '10.128.0.2',
            accessConfigs: i.natIPs.map((ip) => ({
              kind: 'compute#accessConfig',
              type: 'ONE_TO_ONE_NAT',
              name: 'External NAT',
              natIP: ip,
            })),
            ...(i.externalIpv6
              ? {
                  ipv6AccessConfigs: [
                    { type: 'DIRECT_IPV6', externalIpv6: i.externalIpv6, externalIpv6PrefixLength: 96 },
                  ],
                }
              : {}),
          },
        ],
      };
      items[`zones/${i.zone}`] = { instances: [...(scope?.instances ?? []), instance] };
    }
    return (
      json(200, {
        kind: 'compute#instanceAggregatedList',
        id: `projects/${project.projectId}/aggregated/instances`,
        items,
        ...next,
      }),
      true
    );
  }
  if (project.dnsDisabled)
    return (
      apiError(
        403,
        'PERMISSION_DENIED',
        `Cloud DNS API has not been used in project ${project.projectId} before or it is disabled.`,
      ),
      true
    );
  if (m![2] === 'managedZones') {
    const { part, next } = page(project.zones, Number(url.searchParams.get('maxResults') ?? 1000));
    return (
      json(200, {
        kind: 'dns#managedZonesListResponse',
        managedZones: part.map((z) => ({
          kind: 'dns#managedZone',
          name: z.name,
          dnsName: z.dnsName,
          visibility: z.visibility,
        })),
        ...next,
      }),
      true
    );
  }
  const r = m![2]!.match(/^managedZones\/([^/]+)\/rrsets$/);
  const zone = r && project.zones.find((z) => z.name === decodeURIComponent(r[1]!));
  if (!zone)
    return (apiError(404, 'NOT_FOUND', "The 'parameters.managedZone' resource named 'x' does not exist."), true);
  const { part, next } = page(zone.rrsets, Number(url.searchParams.get('maxResults') ?? 1000));
  return (
    json(200, {
      kind: 'dns#resourceRecordSetsListResponse',
      rrsets: part.map((s) => ({ kind: 'dns#resourceRecordSet', ttl: 300, ...s })),
      ...next,
    }),
    true
  );
}
