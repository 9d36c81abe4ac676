// The cloud accounts of an enumeration: its cloudlist configs (named by cloudlist_config_ids), checked when
// the enumeration is saved and read when it runs, and VIGIL_CLOUD_ENDPOINTS (provider=URL pairs that
// replace the providers' API addresses: mirrors, proxies, tests).
import type { Db } from '../../db/connection.ts';
import { parseCloudConfig, parseCloudEndpoints, type ProviderEntry } from '../../discovery/index.ts';
import { badRequest } from '../errors.ts';
import { loadConfigs } from '../scans/configs.ts';

/** Every id must be a cloudlist config of the team (a 400 naming the index); returns their providers, e.g. "do,cloudflare". */
export async function cloudProviderName(db: Db, teamId: string, ids: string[]): Promise<string> {
  const found = new Map((await loadConfigs(db, teamId, ids)).map((c) => [c.id, c]));
  const names: string[] = [];
  ids.forEach((id, i) => {
    const c = found.get(id);
    if (!c) throw badRequest(`cloudlist config ${id} not found`, `cloudlist_config_ids[${i}]`);
    if (c.config_type !== 'cloudlist') throw badRequest(`config ${id} is a ${c.config_type} config, not a cloudlist one`, `cloudlist_config_ids[${i}]`);
    for (const e of safeEntries(c.config)) if (e.provider && !names.includes(e.provider)) names.push(e.provider);
  });
  return names.join(',');
}

function safeEntries(text: string): ProviderEntry[] {
  try {
    return parseCloudConfig(text);
  } catch {
    return [];
  }
}

/** VIGIL_CLOUD_ENDPOINTS: "do=https://mirror.example/do,cloudflare=http://127.0.0.1:8080" (known providers only). */
export const cloudEndpoints = (env: NodeJS.ProcessEnv = process.env) => parseCloudEndpoints(env.VIGIL_CLOUD_ENDPOINTS ?? '');

/** The accounts of the enumeration's cloudlist configs still there; a missing or unreadable one is a notice. */
export async function cloudSettings(db: Db, teamId: string, ids: string[], notices: string[]): Promise<{ providers: ProviderEntry[]; baseUrls: Record<string, string> } | undefined> {
  if (!ids.length) return undefined;
  const found = new Map((await loadConfigs(db, teamId, ids)).filter((c) => c.config_type === 'cloudlist').map((c) => [c.id, c]));
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
