// SQL of named configurations (configs).
import type { Db } from '../../db/connection.ts';

export interface ConfigRow {
  id: string;
  team_id: string;
  name: string;
  config_type: string;
  config: string;
  provider_name: string;
  is_global: boolean;
  read_only: boolean;
  created_at: Date;
  updated_at: Date;
}

export async function insertConfig(db: Db, c: Omit<ConfigRow, 'created_at' | 'updated_at'>): Promise<void> {
  await db.query(
    `INSERT INTO configs (id, team_id, name, config_type, config, provider_name, is_global, read_only)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [c.id, c.team_id, c.name, c.config_type, c.config, c.provider_name, c.is_global, c.read_only],
  );
}

export async function listConfigs(
  db: Db,
  teamId: string,
  f: { type?: string; search?: string; limit: number; offset: number },
): Promise<ConfigRow[]> {
  const where = ['team_id = $1'];
  const params: unknown[] = [teamId];
  if (f.type) {
    params.push(f.type);
    where.push(`config_type = $${params.length}`);
  }
  if (f.search) {
    params.push(`%${f.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    where.push(`name ILIKE $${params.length}`);
  }
  params.push(f.limit, f.offset);
  const { rows } = await db.query<ConfigRow>(
    `SELECT * FROM configs WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows;
}

export async function getConfig(db: Db, teamId: string, id: string): Promise<ConfigRow | undefined> {
  const { rows } = await db.query<ConfigRow>('SELECT * FROM configs WHERE team_id = $1 AND id = $2', [teamId, id]);
  return rows[0];
}

export async function getConfigById(db: Db, id: string): Promise<ConfigRow | undefined> {
  const { rows } = await db.query<ConfigRow>('SELECT * FROM configs WHERE id = $1', [id]);
  return rows[0];
}

/** The team's configs with these ids (any order) and, unless excluded, its global ones of the type. */
export async function configsFor(
  db: Db,
  teamId: string,
  ids: string[],
  types: string[],
  withGlobal: boolean,
): Promise<ConfigRow[]> {
  const { rows } = await db.query<ConfigRow>(
    `SELECT * FROM configs WHERE team_id = $1 AND config_type = ANY($2::text[])
       AND (id = ANY($3::text[]) OR ($4 AND is_global)) ORDER BY created_at, id`,
    [teamId, types, ids, withGlobal],
  );
  return rows;
}

export async function updateConfig(
  db: Db,
  teamId: string,
  id: string,
  c: { name?: string; config?: string; provider_name?: string; is_global?: boolean },
): Promise<boolean> {
  const res = await db.query(
    `UPDATE configs SET name = COALESCE($3, name), config = COALESCE($4, config), provider_name = COALESCE($5, provider_name),
       is_global = COALESCE($6, is_global), updated_at = now()
     WHERE team_id = $1 AND id = $2 AND NOT read_only`,
    [teamId, id, c.name ?? null, c.config ?? null, c.provider_name ?? null, c.is_global ?? null],
  );
  return res.rowCount > 0;
}

export async function deleteConfig(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM configs WHERE team_id = $1 AND id = $2 AND NOT read_only', [teamId, id]);
  return res.rowCount > 0;
}
