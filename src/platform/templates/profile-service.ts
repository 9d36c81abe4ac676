// The catalogue's scan profiles over the API: the list with what each selects, and one profile resolved to
// its templates' catalogue paths (what POST /v1/scans takes as `templates`).
import type { Db } from '../../db/connection.ts';
import { notFound } from '../shared/errors.ts';
import { cachedFacets } from './facet-cache.ts';
import { selects, type Candidate, type Profile } from './profiles.ts';
import * as store from './store.ts';

export interface ProfileSummary {
  name: string;
  file: string;
  description: string | null;
  selectors: Profile['selectors'];
  unsupported: string[];
  template_count: number;
}

/** Public catalogue templates as profiles see them; cached until the templates table changes. */
async function candidates(db: Db): Promise<Candidate[]> {
  const version = await store.changeVersion(db);
  return cachedFacets(db, 'profile-candidates', version, () => store.profileCandidates(db));
}

function summary(p: Profile, count: number): ProfileSummary {
  return {
    name: p.name,
    file: p.file,
    description: p.description,
    selectors: p.selectors,
    unsupported: p.unsupported,
    template_count: count,
  };
}

export async function listProfiles(db: Db) {
  const [profiles, all] = await Promise.all([store.loadProfiles(db), candidates(db)]);
  const results = profiles
    .map((p) =>
      summary(
        p,
        all.reduce((n, t) => (selects(p, t) ? n + 1 : n), 0),
      ),
    )
    .sort((a, b) => a.name.localeCompare(b.name));
  return { message: 'ok', results, count: results.length };
}

export async function resolveProfile(db: Db, name: string) {
  const [profiles, all] = await Promise.all([store.loadProfiles(db), candidates(db)]);
  const profile = profiles.find((p) => p.name === name);
  if (!profile) throw notFound(`no scan profile ${name} in the catalogue (import a checkout with profiles/)`, 'name');
  const picked = all.filter((t) => selects(profile, t));
  return {
    message: 'ok',
    profile: summary(profile, picked.length),
    templates: picked.map((t) => t.uri),
    template_ids: picked.map((t) => t.template_id),
  };
}
