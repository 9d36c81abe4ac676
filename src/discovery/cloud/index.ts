// Cloud asset listing: the hosts and public addresses that a cloudlist provider-config.yaml's accounts
// hold, read from each provider's public REST API. A provider that is not supported, lacks a key, or
// fails is skipped with a notice; the others go on. Notices never carry a credential.
import net from 'node:net';
import yaml from 'js-yaml';
import { isDomain } from '../scope.ts';
import { apiGetter, apiRequester, apiSender } from './http.ts';
import { digitalocean } from './digitalocean.ts';
import { hetzner } from './hetzner.ts';
import { linode } from './linode.ts';
import { cloudflare } from './cloudflare.ts';
import { heroku } from './heroku.ts';
import { aws } from './aws.ts';
import { gcp } from './gcp.ts';
import { azure } from './azure.ts';
import { scaleway } from './scaleway.ts';
import { fastly } from './fastly.ts';
import { namecheap } from './namecheap.ts';
import { alibaba } from './alibaba.ts';
import type { CloudAsset, CloudListOptions, CloudProviderClient, ProviderEntry } from './types.ts';

export type { CloudAsset, CloudListOptions, ProviderEntry } from './types.ts';

export const CLOUD_CLIENTS: Record<string, CloudProviderClient> = Object.fromEntries(
  [digitalocean, hetzner, linode, cloudflare, heroku, aws, gcp, azure, scaleway, fastly, namecheap, alibaba].map(
    (c) => [c.name, c],
  ),
);

/** The entries of a provider-config.yaml text (a YAML list of mappings); throws when it is not one. */
export function parseCloudConfig(text: string): ProviderEntry[] {
  const doc = yaml.load(text);
  if (!Array.isArray(doc)) throw new Error('a cloudlist provider config is a YAML list of providers');
  return doc.map((e, i) => {
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw new Error(`entry ${i} is not a mapping`);
    return Object.fromEntries(
      Object.entries(e as Record<string, unknown>)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
  });
}

/** Whether a VIGIL_CLOUD_ENDPOINTS key names a provider (`do`) or one of a provider's APIs (`aws.ec2`). */
function knownEndpoint(key: string): boolean {
  const [provider, api, ...rest] = key.split('.');
  const client = CLOUD_CLIENTS[provider!];
  return !!client && !rest.length && (api === undefined || Object.hasOwn(client.apis ?? {}, api));
}

/**
 * API base URLs from "provider=URL" or "provider.api=URL" pairs separated by commas
 * (VIGIL_CLOUD_ENDPOINTS): known providers and APIs and http(s) URLs only, without trailing slashes.
 */
export function parseCloudEndpoints(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const url = pair
      .slice(at + 1)
      .trim()
      .replace(/\/+$/, '');
    if (at > 0 && knownEndpoint(name) && /^https?:\/\/\S+$/.test(url)) out[name] = url;
  }
  return out;
}

/** Keys of an entry that hold no credential: they may appear in notices. */
const PLAIN_KEYS = new Set([
  'provider',
  'id',
  'alibaba_region_id',
  'namecheap_client_ip',
  'assume_role_name',
  'account_ids',
]);

/** Replaces every credential value of the entries (anything but the plain keys), and the extra values, in a text. */
export function redact(text: string, entries: ProviderEntry[], extra: string[] = []): string {
  const values = entries.flatMap((e) =>
    Object.entries(e)
      .filter(([k]) => !PLAIN_KEYS.has(k))
      .map(([, v]) => v),
  );
  // Each value also as it is written in a URL or a form body (an API may repeat what it was sent).
  const forms = [...values, ...extra]
    .filter((x) => x.length >= 4)
    .flatMap((v) => [
      v,
      encodeURIComponent(v),
      new URLSearchParams({ v }).toString().slice(2),
      JSON.stringify(v).slice(1, -1),
    ]);
  let out = text;
  // Longest first, so that a value inside another (a key inside a JSON key file) leaves no part behind.
  for (const v of [...new Set(forms)].sort((a, b) => b.length - a.length)) out = out.split(v).join('****');
  return out;
}

const label = (e: ProviderEntry) => `${e.provider ?? '(no provider)'}${e.id ? ` (id ${e.id})` : ''}`;

/** A name or address as it goes into the inventory, or undefined when it is neither (e.g. a wildcard record). */
function clean(a: CloudAsset): CloudAsset | undefined {
  const ip = a.ip?.trim();
  if (ip !== undefined && !net.isIP(ip)) return undefined;
  const host = a.host?.trim().toLowerCase().replace(/\.$/, '');
  if (host !== undefined && !isDomain(host)) return undefined;
  return { ...a, ...(host !== undefined ? { host } : {}), ...(ip !== undefined ? { ip } : {}) };
}

/** Lists every entry's assets (entries one after the other; a provider's pages in order). */
export async function listCloudAssets(
  entries: ProviderEntry[],
  opts: CloudListOptions & { notice: (m: string) => void; secrets?: ProviderEntry[] },
): Promise<CloudAsset[]> {
  const out: CloudAsset[] = [];
  const seen = new Set<string>();
  const secrets = opts.secrets ?? entries;
  for (const entry of entries) {
    if (opts.signal?.aborted) break;
    const client = CLOUD_CLIENTS[entry.provider ?? ''];
    if (!client) {
      opts.notice(
        `cloudlist: provider ${label(entry)} skipped: not supported (supported: ${Object.keys(CLOUD_CLIENTS).join(', ')})`,
      );
      continue;
    }
    const headers = client.auth(entry);
    if (typeof headers === 'string') {
      opts.notice(`cloudlist: provider ${label(entry)} skipped: ${headers} is not set`);
      continue;
    }
    const base = (opts.baseUrls?.[client.name] ?? client.base).replace(/\/+$/, '');
    const handedOut: string[] = [];
    try {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const found = await client.list(entry, {
        get: apiGetter(base, headers, timeoutMs, opts.signal),
        request: apiRequester(base, headers, timeoutMs, opts.signal),
        maxPages: opts.maxPages ?? 1000,
        send: apiSender(timeoutMs, opts.signal),
        url: (api, vars = {}) => {
          const template = (opts.baseUrls?.[`${client.name}.${api}`] ?? client.apis?.[api] ?? base).replace(/\/+$/, '');
          return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
        },
        secret: (v) => handedOut.push(v),
        notice: (m) => opts.notice(redact(`cloudlist: provider ${label(entry)}: ${m}`, secrets, handedOut)),
      });
      let n = 0;
      for (const raw of found) {
        const a = clean(raw);
        const key = a && `${a.provider}|${a.id ?? ''}|${a.host ?? ''}|${a.ip ?? ''}`;
        if (!a || seen.has(key!)) continue;
        seen.add(key!);
        out.push(a);
        n++;
      }
      if (n === 0) opts.notice(`cloudlist: provider ${label(entry)} listed no hosts or public addresses`);
    } catch (e) {
      opts.notice(redact(`cloudlist: provider ${label(entry)} skipped: ${(e as Error).message}`, secrets, handedOut));
    }
  }
  return out;
}
