// Technologies of web assets from fingerprint templates run by the engine: the catalogue's
// http/technologies/tech-detect.yaml (Wappalyzer's fingerprints, one request, a named matcher per
// technology) by default, or the templates enumeration_config.technology_templates names (catalogue
// paths, folders, ids, or the team's private templates).
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../errors.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import { parseTemplate } from '../../engine/template/parse.ts';
import { runScan } from '../../engine/runner.ts';
import type { Template } from '../../engine/template/types.ts';

export const DEFAULT_TECH_TEMPLATES = ['http/technologies/tech-detect.yaml'];

/** A technology's name from a result: the matcher's name, else the template id without its suffix. */
export function techName(templateId: string, matcherName: string | undefined): string {
  return matcherName || templateId.replace(/-(detect|detection|version|fingerprint)$/i, '');
}

export type TechHook = (targets: { url: string; host: string; ip: string }[]) => Promise<Map<string, string[]>>;

/** The hook, or a notice saying why there is none (no such templates stored). */
export async function technologyHook(db: Db, teamId: string, selectors: string[], opts: { timeoutSeconds: number; signal?: AbortSignal; ipUrls: boolean }): Promise<TechHook | string> {
  let rows;
  try {
    rows = await resolveTemplates(db, teamId, { templates: selectors });
  } catch (err) {
    if (err instanceof ApiError) return `technology templates skipped: ${err.message}`;
    throw err;
  }
  const { rows: texts } = await db.query<{ uri: string; raw: string }>('SELECT uri, raw FROM templates WHERE pk = ANY($1::bigint[])', [rows.map((r) => r.pk)]);
  const templates = texts.map((t) => parseTemplate(t.raw, t.uri).template).filter((t): t is Template => !!t);
  if (!templates.length) return 'technology templates skipped: none of them loads';
  return async (targets) => {
    const out = new Map<string, string[]>();
    let next = 0;
    const worker = async () => {
      while (next < targets.length && !opts.signal?.aborted) {
        const t = targets[next++]!;
        // Names found through custom resolvers are not known to the system resolver the engine uses.
        const target = opts.ipUrls ? ipUrl(t.url, t.ip) : t.url;
        const names = new Set<string>();
        await runScan({
          targets: [target], templates, timeout: opts.timeoutSeconds, rateLimit: 0, concurrency: 5, bulkSize: 1, retries: 0,
          signal: opts.signal, onResult: (ev) => names.add(techName(ev['template-id'], ev['matcher-name'])),
        });
        out.set(t.url, [...names]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(10, targets.length) }, worker));
    return out;
  };
}

function ipUrl(url: string, ip: string): string {
  const u = new URL(url);
  u.hostname = ip.includes(':') ? `[${ip}]` : ip;
  return u.href;
}
