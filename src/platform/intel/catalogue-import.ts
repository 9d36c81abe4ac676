// Importing the public template catalogue touches two areas: the template store, and the vulnerability
// records whose template group points at catalogue templates. Every caller (vigil templates import,
// vigil serve with VIGIL_TEMPLATES_DIR) goes through here so the two never disagree.
import type { Db } from '../../db/connection.ts';
import { importCatalogue, type ImportOptions, type ImportSummary } from '../templates/catalogue.ts';
import { relinkTemplates } from './template-link.ts';

export async function importCatalogueAndRelink(
  db: Db,
  dir: string,
  opts: ImportOptions = {},
): Promise<ImportSummary & { intel: { links_changed: number; records_changed: number } }> {
  const summary = await importCatalogue(db, dir, opts);
  return { ...summary, intel: await relinkTemplates(db) };
}
