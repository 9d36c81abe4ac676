// SQL for template_shares: the read-only links to a team's private templates. Only the token's hash is
// stored; a link is found by that hash, a team's shares by the private template's id.
import type { Db } from '../../db/connection.ts';
import type { TemplateRow } from './store.ts';

export interface ShareRow {
  template_pk: number;
  team_id: string;
  share_type: string;
  ttl: string;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** A shared template's columns with its share's, as one row (the template's own columns are those asked). */
export type SharedRow = Partial<TemplateRow> & {
  share_type: string;
  ttl: string;
  share_expires_at: Date;
  template_id: string;
};

const SHARE_COLUMNS = 's.share_type, s.ttl, s.expires_at AS share_expires_at';
const prefixed = (columns: string) =>
  columns
    .split(',')
    .map((c) => `t.${c.trim()}`)
    .join(', ');

/** Shares the team's private template (replacing an earlier link of it); undefined when the team has no such template. */
export async function upsert(
  db: Db,
  teamId: string,
  templateId: string,
  share: { tokenHash: string; shareType: string; ttl: string; expiresAt: Date },
): Promise<ShareRow | undefined> {
  const res = await db.query<ShareRow>(
    `INSERT INTO template_shares (template_pk, team_id, token_hash, share_type, ttl, expires_at)
       SELECT pk, team_id, $3, $4, $5, $6 FROM templates WHERE team_id = $1 AND template_id = $2
     ON CONFLICT (template_pk) DO UPDATE SET token_hash = EXCLUDED.token_hash, share_type = EXCLUDED.share_type,
       ttl = EXCLUDED.ttl, expires_at = EXCLUDED.expires_at, created_at = now(), updated_at = now()
     RETURNING template_pk, team_id, share_type, ttl, expires_at, created_at, updated_at`,
    [teamId, templateId, share.tokenHash, share.shareType, share.ttl, share.expiresAt],
  );
  return res.rows[0];
}

/** Changes a share's lifetime (the token stays); undefined when the template is not shared. */
export async function update(
  db: Db,
  teamId: string,
  templateId: string,
  change: { ttl: string; expiresAt: Date },
): Promise<ShareRow | undefined> {
  const res = await db.query<ShareRow>(
    `UPDATE template_shares s SET ttl = $3, expires_at = $4, updated_at = now()
       FROM templates t WHERE t.pk = s.template_pk AND s.team_id = $1 AND t.template_id = $2
     RETURNING s.template_pk, s.team_id, s.share_type, s.ttl, s.expires_at, s.created_at, s.updated_at`,
    [teamId, templateId, change.ttl, change.expiresAt],
  );
  return res.rows[0];
}

/** Revokes the link of the team's template; false when it was not shared. */
export async function remove(db: Db, teamId: string, templateId: string): Promise<boolean> {
  const res = await db.query(
    'DELETE FROM template_shares s USING templates t WHERE t.pk = s.template_pk AND s.team_id = $1 AND t.template_id = $2',
    [teamId, templateId],
  );
  return res.rowCount > 0;
}

/** The template a link's token hash opens, with its share (expired ones too: the caller tells them apart). */
export async function findByTokenHash(db: Db, tokenHash: string, columns: string): Promise<SharedRow | undefined> {
  const res = await db.query<SharedRow>(
    `SELECT ${prefixed(columns)}, ${SHARE_COLUMNS} FROM template_shares s JOIN templates t ON t.pk = s.template_pk WHERE s.token_hash = $1`,
    [tokenHash],
  );
  return res.rows[0];
}

/** Sort keys of a team's share list, and the SQL they order by. */
export const SORTS: Record<string, string> = {
  created_at: 's.created_at',
  updated_at: 's.updated_at',
  expires_at: 's.expires_at',
  name: 't.name',
  template_id: 't.template_id',
};

/** One page of the team's shares, newest first unless an order is given (keys of SORTS, checked by the caller). */
export async function list(
  db: Db,
  teamId: string,
  page: { offset: number; limit: number; columns: string; order: { key: string; desc: boolean }[] },
): Promise<{ rows: SharedRow[]; total: number }> {
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM template_shares WHERE team_id = $1', [
    teamId,
  ]);
  const order = [
    ...page.order.map((o) => `${SORTS[o.key]!} ${o.desc ? 'DESC' : 'ASC'}`),
    's.created_at DESC',
    's.template_pk DESC',
  ].join(', ');
  const res = await db.query<SharedRow>(
    `SELECT ${prefixed(page.columns)}, ${SHARE_COLUMNS} FROM template_shares s JOIN templates t ON t.pk = s.template_pk
     WHERE s.team_id = $1 ORDER BY ${order} OFFSET $2 LIMIT $3`,
    [teamId, page.offset, page.limit],
  );
  return { rows: res.rows, total: total.rows[0]!.n };
}
