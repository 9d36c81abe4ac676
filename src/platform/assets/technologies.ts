// Which fingerprint templates an enumeration runs on its web assets: the catalogue's
// http/technologies/tech-detect.yaml by default, or those enumeration_config.technology_templates names
// (catalogue paths, folders, ids, or the team's private templates). They are read here and handed as
// texts to the run's discovery thread, which parses and runs them (src/discovery/technologies.ts).
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../shared/errors.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import { textsByPk } from '../templates/store.ts';

export const DEFAULT_TECH_TEMPLATES = ['http/technologies/tech-detect.yaml'];

/** The templates' texts, or a notice saying why there are none (no such templates stored). */
export async function technologyTemplates(
  db: Db,
  teamId: string,
  selectors: string[],
): Promise<{ raw: string; uri: string }[] | string> {
  let rows;
  try {
    rows = await resolveTemplates(db, teamId, { templates: selectors });
  } catch (err) {
    if (err instanceof ApiError) return `technology templates skipped: ${err.message}`;
    throw err;
  }
  return textsByPk(
    db,
    rows.map((r) => r.pk),
  );
}
