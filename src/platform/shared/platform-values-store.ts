// platform_secrets: the database-wide name/value table. Holds derived-key secrets (scans' download links,
// made once and then read by every process) and the catalogue's scan profiles (templates). Owned here so
// every area above shared can use it; each caller keeps to its own names.
import type { Db } from '../../db/connection.ts';

/** The named value, made from `fresh` on first use (every process then reads the same). */
export async function valueOnce(db: Db, name: string, fresh: string): Promise<string> {
  await db.query(`INSERT INTO platform_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    fresh,
  ]);
  return (await readValue(db, name))!;
}

/** Sets the named value, replacing any earlier one. */
export async function writeValue(db: Db, name: string, value: string): Promise<void> {
  await db.query(
    `INSERT INTO platform_secrets (name, value) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, created_at = now()`,
    [name, value],
  );
}

export async function readValue(db: Db, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM platform_secrets WHERE name = $1', [name]);
  return rows[0]?.value;
}
