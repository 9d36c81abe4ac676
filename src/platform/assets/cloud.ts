// The cloud accounts of an enumeration: its cloudlist configs (named by cloudlist_config_ids), checked when
// the enumeration is saved and read when it runs, and VIGIL_CLOUD_ENDPOINTS (provider=URL pairs that
// replace the providers' API addresses: mirrors, proxies, tests).
import type { Db } from '../../db/connection.ts';
import { parseCloudConfig, parseCloudEndpoints, type ProviderEntry } from '../../discovery/index.ts';
import { badRequest } from '../shared/errors.ts';
import { loadConfigs } from '../configs/resolve.ts';

/** The providers of some accounts, once each in order: "do,cloudflare" (an enumeration's cloudlist_provider_name). */
export function providerNames(entries: ProviderEntry[]): string {
  return [...new Set(entries.map((e) => e.provider).filter(Boolean))].join(',');
}

/**
 * Sets an enumeration's cloud accounts on its config: the ids (each a cloudlist config of the team, else a
 * 400 naming its index), once each, and their providers; no ids removes both.
 */
export async function setCloudAccounts(
  db: Db,
  teamId: string,
  config: { cloudlist_config_ids?: string[]; cloudlist_provider_name?: string },
  ids: string[] | undefined,
): Promise<void> {
  delete config.cloudlist_provider_name;
  if (!ids?.length) {
    delete config.cloudlist_config_ids;
    return;
  }
  config.cloudlist_config_ids = [...new Set(ids)];
  const found = new Map((await loadConfigs(db, teamId, config.cloudlist_config_ids)).map((c) => [c.id, c]));
  const entries: ProviderEntry[] = [];
  config.cloudlist_config_ids.forEach((id, i) => {
    const c = found.get(id);
    if (!c) throw badRequest(`cloudlist config ${id} not found`, `cloudlist_config_ids[${i}]`);
    if (c.config_type !== 'cloudlist')
      throw badRequest(`config ${id} is a ${c.config_type} config, not a cloudlist one`, `cloudlist_config_ids[${i}]`);
    entries.push(...safeEntries(c.config));
  });
  config.cloudlist_provider_name = providerNames(entries);
}

function safeEntries(text: string): ProviderEntry[] {
  try {
    return parseCloudConfig(text);
  } catch {
    return [];
  }
}

/** VIGIL_CLOUD_ENDPOINTS: "do=https://mirror.example/do,cloudflare=http://127.0.0.1:8080" (known providers only). */
export const cloudEndpoints = (env: NodeJS.ProcessEnv = process.env) =>
  parseCloudEndpoints(env.VIGIL_CLOUD_ENDPOINTS ?? '');

/** The accounts of the enumeration's cloudlist configs still there; a missing or unreadable one is a notice. */
export async function cloudSettings(
  db: Db,
  teamId: string,
  ids: string[],
  notices: string[],
): Promise<{ providers: ProviderEntry[]; baseUrls: Record<string, string> } | undefined> {
  if (!ids.length) return undefined;
  const found = new Map(
    (await loadConfigs(db, teamId, ids)).filter((c) => c.config_type === 'cloudlist').map((c) => [c.id, c]),
  );
  const providers: ProviderEntry[] = [];
  for (const id of ids) {
    const c = found.get(id);
    if (!c) {
      notices.push(`cloudlist: config ${id} not found; its accounts are not listed`);
      continue;
    }
    try {
      providers.push(...parseCloudConfig(c.config));
    } catch {
      notices.push(`cloudlist: config ${id} is not a provider list (YAML); its accounts are not listed`);
    }
  }
  return { providers, baseUrls: cloudEndpoints() };
}
