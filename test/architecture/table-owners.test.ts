// Table ownership (src/platform/areas.ts): each table is written only by its owning area's stores, and a
// store reads another area's table only when that area is below its own. Reads the stores' SQL as text.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const platform = path.join(root, 'src/platform');

/** The layering of areas.ts, lowest first. */
const ORDER = [
  'shared',
  'auth',
  'templates',
  'worker',
  'configs',
  'intel',
  'scans',
  'agents',
  'updates',
  'assets',
  'monitor',
  'team',
  'admin',
];

const OWNERS: Record<string, string> = {
  users: 'auth',
  teams: 'auth',
  team_members: 'auth',
  api_keys: 'auth',
  sessions: 'auth',
  team_invites: 'team',
  team_audit_log: 'team',
  templates: 'templates',
  template_changes: 'templates',
  template_facet_counts: 'templates',
  template_records: 'templates',
  template_shares: 'templates',
  configs: 'configs',
  scans: 'scans',
  platform_secrets: 'shared',
  scan_schedules: 'monitor',
  enumeration_schedules: 'monitor',
  team_default_members: 'team',
  scan_events: 'monitor',
  deliveries: 'monitor',
  report_tickets: 'monitor',
  remediation_runs: 'monitor',
  update_runs: 'updates',
  agents: 'agents',
  workers: 'worker',
  assets: 'assets',
  enumeration_found: 'assets',
};

function ownerOf(table: string): string | undefined {
  if (OWNERS[table]) return OWNERS[table];
  if (table.startsWith('intel_')) return 'intel';
  if (table.startsWith('scan_')) return 'scans';
  if (table.startsWith('asset_')) return 'assets';
  return undefined; // a CTE, a function (unnest, jsonb_to_recordset) or a column
}

/** Every breach as "file: VERB table (owner)". */
function breaches(): string[] {
  const out: string[] = [];
  for (const area of readdirSync(platform, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)) {
    for (const file of readdirSync(path.join(platform, area)).filter((f) => /(^|-)store\.ts$/.test(f))) {
      const text = readFileSync(path.join(platform, area, file), 'utf8');
      for (const m of text.matchAll(/\b(INSERT INTO|UPDATE|DELETE FROM|FROM|JOIN)\s+([a-z_]+)/g)) {
        const owner = ownerOf(m[2]!);
        if (!owner || owner === area) continue;
        const write = m[1] !== 'FROM' && m[1] !== 'JOIN';
        if (write || ORDER.indexOf(owner) >= ORDER.indexOf(area))
          out.push(`${area}/${file}: ${m[1]} ${m[2]} (${owner})`);
      }
    }
  }
  return out;
}

describe('table ownership', () => {
  it('only the owner writes a table; a store reads only tables of areas below its own', () => {
    expect(breaches()).toEqual([]);
  });

  it('every table the migrations create has an owner', () => {
    const dir = path.join(root, 'src/db/migrations');
    const tables = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .flatMap((f) =>
        [...readFileSync(path.join(dir, f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/gi)].map(
          (m) => m[1]!,
        ),
      );
    expect(tables.length).toBeGreaterThan(30);
    expect(tables.filter((t) => !ownerOf(t))).toEqual([]);
  });

  it('every area of the layering that has stores is known', () => {
    const areas = readdirSync(platform, { withFileTypes: true })
      .filter((d) => d.isDirectory() && readdirSync(path.join(platform, d.name)).some((f) => /(^|-)store\.ts$/.test(f)))
      .map((d) => d.name);
    expect(areas.filter((a) => !ORDER.includes(a))).toEqual([]);
  });
});
