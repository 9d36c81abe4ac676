// Which fingerprint templates an enumeration runs on its web assets: the catalogue's
// http/technologies/tech-detect.yaml by default, or those enumeration_config.technology_templates names
// (catalogue paths, folders, ids, or the team's private templates). Running them: src/discovery/technologies.ts.
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../errors.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import { parseTemplate } from '../../engine/template/parse.ts';
import type { Template } from '../../engine/template/types.ts';
import { techHook, type TechHook, type TechOptions } from '../../discovery/technologies.ts';

export const DEFAULT_TECH_TEMPLATES = ['http/technologies/tech-detect.yaml'];
export type { TechHook };

/** The hook, or a notice saying why there is none (no such templates stored). */
export async function technologyHook(db: Db, teamId: string, selectors: string[], opts: TechOptions): Promise<TechHook | string> {
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
  return techHook(templates, opts);
}
