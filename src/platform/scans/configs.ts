// Scan configurations as the scans area uses them: the engine settings a scan runs with and the names of
// the configs it references. The configs area owns the `configs` table; until it exists, config ids are
// stored as given and shown with their id as name, and scans run with the defaults below.
import yaml from 'js-yaml';
import type { Db } from '../../db/connection.ts';
import type { ScanOptions } from '../../engine/runner/types.ts';

/** Engine settings of one scan: the runner's own options, plus how many chunks run at once. */
export interface EngineOptions
  extends Pick<ScanOptions, 'concurrency' | 'bulkSize' | 'rateLimit' | 'timeout' | 'retries' | 'maxHostErrors' | 'vars'> {
  /** Chunks of the scan that run at once across all workers; each gets rateLimit / parallelism. */
  parallelism?: number;
}

/** Platform defaults, overridable per deployment (VIGIL_SCAN_RATE_LIMIT and so on). */
export function defaultEngineOptions(env: NodeJS.ProcessEnv = process.env): EngineOptions {
  const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    concurrency: num(env.VIGIL_SCAN_CONCURRENCY, 25),
    bulkSize: num(env.VIGIL_SCAN_BULK_SIZE, 25),
    rateLimit: num(env.VIGIL_SCAN_RATE_LIMIT, 150),
    timeout: num(env.VIGIL_SCAN_TIMEOUT, 10),
    retries: num(env.VIGIL_SCAN_RETRIES, 1),
    // Fixed when the scan is created, so every worker agrees on the scan's slot count.
    parallelism: num(env.VIGIL_SCAN_CHUNK_PARALLELISM, 4),
  };
}

interface ConfigRow {
  id: string;
  name: string;
  config_type: string;
  config: string | null;
  provider_name?: string | null;
}

async function hasConfigsTable(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ t: string | null }>(`SELECT to_regclass('configs')::text AS t`);
  return !!rows[0]?.t;
}

/** The team's configs of the given ids (none while the configs area's table does not exist). */
export async function loadConfigs(db: Db, teamId: string, ids: string[]): Promise<ConfigRow[]> {
  if (ids.length === 0 || !(await hasConfigsTable(db))) return [];
  try {
    const { rows } = await db.query<ConfigRow>(
      'SELECT id::text AS id, name, config_type, config FROM configs WHERE team_id = $1 AND id::text = ANY($2::text[])',
      [teamId, ids],
    );
    return rows;
  } catch {
    return [];
  }
}

// Scan config keys (nuclei's config file names) mapped to runner options.
const KEYS: Record<string, keyof EngineOptions> = {
  'rate-limit': 'rateLimit', ratelimit: 'rateLimit', rate_limit: 'rateLimit',
  concurrency: 'concurrency', c: 'concurrency',
  'bulk-size': 'bulkSize', bulk_size: 'bulkSize',
  timeout: 'timeout', retries: 'retries',
  'max-host-error': 'maxHostErrors', mhe: 'maxHostErrors',
  'chunk-parallelism': 'parallelism', chunk_parallelism: 'parallelism', parallelism: 'parallelism',
};

/** The engine settings for a new scan: defaults, then each scan config in order. */
export async function engineOptionsFor(
  db: Db,
  teamId: string,
  body: { scan_config_ids?: string[]; disable_global_scan_config?: boolean },
): Promise<EngineOptions> {
  const out = defaultEngineOptions();
  for (const c of await loadConfigs(db, teamId, body.scan_config_ids ?? [])) {
    let doc: unknown;
    try {
      doc = yaml.load(c.config ?? '');
    } catch {
      continue;
    }
    if (!doc || typeof doc !== 'object') continue;
    for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
      const key = KEYS[k];
      if (key && key !== 'vars' && Number.isFinite(Number(v))) (out as Record<string, number>)[key] = Number(v);
    }
  }
  return out;
}

/** ConfigRef records ({id, name, config_type, provider_name}) for the given ids, in request order. */
export async function configRefs(db: Db, teamId: string, ids: string[], type: string) {
  const found = new Map((await loadConfigs(db, teamId, ids)).map((c) => [c.id, c]));
  return ids.map((id) => {
    const c = found.get(id);
    return { id, name: c?.name ?? id, config_type: c?.config_type ?? type, provider_name: c?.provider_name ?? '' };
  });
}
