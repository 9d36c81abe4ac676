import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { RECOMMENDED_EXCLUDED_TAGS, resolveTemplates } from '../../../src/platform/templates/resolve.ts';
import { digestOf } from '../../../src/platform/templates/record.ts';
import { createPrivate } from '../../../src/platform/templates/service.ts';
import { createTeamWithOwner } from '../../../src/platform/auth/service.ts';
import { ApiError } from '../../../src/platform/shared/errors.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

describe.each(dbKinds())('resolveTemplates on %s', (kind) => {
  let t: TestDb;
  let cat: Catalogue;
  let early: Catalogue;
  let teamId: string;
  let otherTeam: string;
  let privateId: string;
  const uris = (list: { uri: string }[]) => list.map((r) => r.uri);

  beforeAll(async () => {
    t = await freshDb(kind);
    cat = makeCatalogue(SMALL);
    early = makeCatalogue({
      'http/cves/2025/CVE-2025-0001.yaml': { id: 'CVE-2025-0001', severity: 'high', tags: ['cve'] },
    });
    await importCatalogue(t.db, cat.dir);
    await importCatalogue(t.db, early.dir, { early: true });
    teamId = (await createTeamWithOwner(t.db, 'a@localhost', 'A')).teamId;
    otherTeam = (await createTeamWithOwner(t.db, 'b@localhost', 'B')).teamId;
    privateId = (await createPrivate(t.db, teamId, { template: templateText({ id: 'team-check', severity: 'high' }) }))
      .template_id as string;
  });
  afterAll(async () => {
    cat.cleanup();
    early.cleanup();
    await t.drop();
  });

  it('resolves catalogue ids, paths and folders to {id, uri, pk, digest}, de-duplicated and ordered by uri', async () => {
    const got = await resolveTemplates(t.db, teamId, {
      templates: ['CVE-2021-44228', 'http/cves/2022/CVE-2022-1388.yaml', 'http/cves', 'dns/', './network'],
    });
    expect(uris(got)).toEqual([
      'dns/caa-fingerprint.yaml',
      'http/cves/2021/CVE-2021-44228.yaml',
      'http/cves/2022/CVE-2022-1388.yaml',
      'network/redis-unauth.yaml',
    ]);
    // A reference to the store row, not a copy of the text.
    expect(Object.keys(got[0]!).sort()).toEqual(['digest', 'id', 'pk', 'uri']);
    expect(got[1]!.digest).toBe(digestOf(templateText(SMALL['http/cves/2021/CVE-2021-44228.yaml']!)));
    // A folder is a whole path segment: "http/cve" is not a prefix of "http/cves/...".
    await expect(resolveTemplates(t.db, teamId, { templates: ['http/cve'] })).rejects.toThrow(ApiError);
  });

  it("resolves the team's private templates by template_id or id, never another team's", async () => {
    const byId = await resolveTemplates(t.db, teamId, { templates: [privateId] });
    expect(byId).toEqual([
      {
        id: 'team-check',
        uri: privateId,
        pk: expect.any(Number),
        digest: digestOf(templateText({ id: 'team-check', severity: 'high' })),
      },
    ]);
    expect(uris(await resolveTemplates(t.db, teamId, { templates: ['team-check'] }))).toEqual([privateId]);
    await expect(resolveTemplates(t.db, otherTeam, { templates: [privateId] })).rejects.toMatchObject({
      status: 400,
      param: 'templates',
    });
  });

  it('all = every generally available catalogue template; recommended follows its rules', async () => {
    const all = await resolveTemplates(t.db, teamId, { all: true });
    expect(uris(all)).toEqual(Object.keys(SMALL).sort());
    const rec = await resolveTemplates(t.db, teamId, { recommended: true });
    const expected = Object.entries(SMALL)
      .filter(([, s]) => (s.severity ?? 'unknown') !== 'info')
      .filter(([, s]) => ['http'].includes(s.protocol ?? 'http')) // only what the engine runs
      .filter(([, s]) => !(s.tags ?? []).some((tag) => RECOMMENDED_EXCLUDED_TAGS.includes(tag)))
      .map(([uri]) => uri)
      .sort();
    expect(uris(rec)).toEqual(expected);
    expect(uris(rec)).not.toContain('http/misc/dos-check.yaml');
  });

  it('early templates only through early_templates', async () => {
    expect(uris(await resolveTemplates(t.db, teamId, { all: true }))).not.toContain(
      'http/cves/2025/CVE-2025-0001.yaml',
    );
    await expect(resolveTemplates(t.db, teamId, { templates: ['CVE-2025-0001'] })).rejects.toMatchObject({
      param: 'templates',
    });
    expect(uris(await resolveTemplates(t.db, teamId, { early_templates: ['CVE-2025-0001'] }))).toEqual([
      'http/cves/2025/CVE-2025-0001.yaml',
    ]);
    expect(uris(await resolveTemplates(t.db, teamId, { early_templates: ['all'], templates: ['dns'] }))).toEqual([
      'dns/caa-fingerprint.yaml',
      'http/cves/2025/CVE-2025-0001.yaml',
    ]);
  });

  it('names every selector that matches nothing', async () => {
    const err = await resolveTemplates(t.db, teamId, { templates: ['CVE-2021-44228', 'nope-1', 'http/none/'] }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toContain('"nope-1"');
    expect(err.message).toContain('"http/none"');
    expect(err.message).not.toContain('CVE-2021-44228');
    expect(await resolveTemplates(t.db, teamId, {})).toEqual([]);
  });
});
