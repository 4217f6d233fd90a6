import { recordAudit } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { chooseSurvivor, mergedClientFields, type MergeableClient } from './identity';

/** Why rows were found to be one Mindbody client (kept in the audit entry). */
export type MergeReason = 'same_unique_id' | 'same_client_id' | 'same_visit';

export interface MergeIdentity {
  siteId: number;
  mbClientId: string;
  uniqueId: number | null;
}

const MERGEABLE_COLUMNS = `id, vod_access_level, purchase_access_level, admin_updated_expiration, admin_replaced_access_level,
  first_login, revenue_cat_user_id, automated_messages_opt_out, created_at, mb_client_id, mb_unique_id, email_address`;

type ClientRow = MergeableClient & { mb_client_id: string | null; mb_unique_id: number | string | null; email_address: string | null };

const asDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
const asRow = (row: Record<string, unknown>): ClientRow => ({
  id: Number(row.id),
  vod_access_level: row.vod_access_level === null ? null : Number(row.vod_access_level),
  purchase_access_level: row.purchase_access_level === null ? null : Number(row.purchase_access_level),
  admin_updated_expiration: asDate(row.admin_updated_expiration),
  admin_replaced_access_level: row.admin_replaced_access_level === null ? null : Number(row.admin_replaced_access_level),
  first_login: asDate(row.first_login),
  revenue_cat_user_id: row.revenue_cat_user_id as string | null,
  automated_messages_opt_out: row.automated_messages_opt_out === true,
  created_at: asDate(row.created_at)!,
  mb_client_id: row.mb_client_id as string | null,
  mb_unique_id: row.mb_unique_id as number | null,
  email_address: row.email_address as string | null,
});

/**
 * Every table that refers to a client, and how a merged row's rows move onto the survivor. Rows
 * that would collide with one the survivor has (same favorite, same contract sale, same automated
 * message event, same day's push count) keep the survivor's.
 */
async function moveClientRows(tx: Queryable, survivorId: number, mergedId: number): Promise<Record<string, number>> {
  const moved: Record<string, number> = {};
  const count = async (table: string, sqlText: string) => {
    moved[table] = (await tx.query(sqlText, [survivorId, mergedId])).length;
  };
  await count(
    'favorites',
    `INSERT INTO favorites (client_id, video_id, video_category_id, created_at)
     SELECT $1, video_id, video_category_id, created_at FROM favorites WHERE client_id = $2
     ON CONFLICT (client_id, video_id) DO UPDATE SET created_at = LEAST(favorites.created_at, EXCLUDED.created_at)
     RETURNING video_id`,
  );
  await tx.query('DELETE FROM favorites WHERE client_id = $1', [mergedId]);
  await tx.query(`DELETE FROM contracts m WHERE m.client_id = $2 AND EXISTS (SELECT 1 FROM contracts s WHERE s.client_id = $1 AND s.id = m.id)`, [
    survivorId,
    mergedId,
  ]);
  await tx.query(
    `DELETE FROM automated_pushes m WHERE m.client_id = $2
       AND EXISTS (SELECT 1 FROM automated_pushes s WHERE s.client_id = $1 AND s.message_type = m.message_type AND s.event_key = m.event_key)`,
    [survivorId, mergedId],
  );
  // Both rows were meant for one broadcast: the survivor's outcome stands (one row per client and broadcast).
  await tx.query(
    `DELETE FROM message_outcomes m WHERE m.client_id = $2 AND m.broadcast_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM message_outcomes s WHERE s.client_id = $1 AND s.broadcast_id = m.broadcast_id)`,
    [survivorId, mergedId],
  );
  await tx.query(
    `INSERT INTO automated_push_days (client_id, local_day, sent) SELECT $1, local_day, sent FROM automated_push_days WHERE client_id = $2
     ON CONFLICT (client_id, local_day) DO UPDATE SET sent = automated_push_days.sent + EXCLUDED.sent`,
    [survivorId, mergedId],
  );
  await tx.query('DELETE FROM automated_push_days WHERE client_id = $1', [mergedId]);
  // Tags: the survivor carries both rows' tags, each once.
  await tx.query('INSERT INTO client_tags (client_id, tag) SELECT $1, tag FROM client_tags WHERE client_id = $2 ON CONFLICT DO NOTHING', [
    survivorId,
    mergedId,
  ]);
  await tx.query('DELETE FROM client_tags WHERE client_id = $1', [mergedId]);
  const known = [
    'purchases',
    'access_override_history',
    'video_views',
    'contracts',
    'mindbody_visits',
    'debug_records',
    'pushes',
    'automated_pushes',
    'revenuecat_events',
    'audit_log',
  ];
  for (const table of known) {
    await count(table, `UPDATE ${table} SET client_id = $1 WHERE client_id = $2 RETURNING client_id`);
  }
  // A table added later that refers to clients must not lose its rows to ON DELETE CASCADE when the
  // merged row goes: whatever still points at it moves too (a conflict fails the merge, naming the table).
  const others = await tx.query<{ table_name: string; column_name: string }>(
    `SELECT c.conrelid::regclass::text AS table_name, quote_ident(a.attname) AS column_name
     FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
     WHERE c.contype = 'f' AND c.confrelid = 'clients'::regclass AND cardinality(c.conkey) = 1
     ORDER BY 1, 2`,
  );
  for (const other of others.filter(
    (row) => !known.includes(row.table_name) && !['favorites', 'automated_push_days', 'client_tags'].includes(row.table_name),
  )) {
    await count(other.table_name, `UPDATE ${other.table_name} SET ${other.column_name} = $1 WHERE ${other.column_name} = $2 RETURNING 1`);
  }
  return Object.fromEntries(Object.entries(moved).filter(([, n]) => n > 0));
}

/**
 * Merges rows that are one Mindbody client into the oldest of them (chooseSurvivor), which then
 * carries the given Mindbody identity. One transaction and one audit entry per merged row.
 * Returns the surviving id.
 */
export async function mergeClients(database: Database, ids: readonly number[], identity: MergeIdentity, reason: MergeReason, at: Date): Promise<number> {
  const unique = [...new Set(ids)];
  const survivorId = chooseSurvivor(unique);
  for (const mergedId of unique.filter((id) => id !== survivorId)) {
    await database.transaction(async (tx) => {
      const rows = (
        await tx.query<Record<string, unknown>>(`SELECT ${MERGEABLE_COLUMNS} FROM clients WHERE id = ANY($1::bigint[]) FOR UPDATE`, [[survivorId, mergedId]])
      ).map(asRow);
      const survivor = rows.find((row) => row.id === survivorId);
      const merged = rows.find((row) => row.id === mergedId);
      if (!survivor || !merged) return; // already merged or deleted meanwhile
      const moved = await moveClientRows(tx, survivorId, mergedId);
      const fields = mergedClientFields(survivor, merged);
      // The merged row goes first: the survivor takes over its (site, UniqueId).
      await tx.query('DELETE FROM clients WHERE id = $1', [mergedId]);
      await tx.query(
        `UPDATE clients SET vod_access_level = $2, purchase_access_level = $3, admin_updated_expiration = $4, admin_replaced_access_level = $5,
                first_login = $6, revenue_cat_user_id = $7, automated_messages_opt_out = $8, created_at = $9,
                mb_site_id = $10, mb_client_id = $11, mb_unique_id = COALESCE($12, mb_unique_id), updated_at = $13
         WHERE id = $1`,
        [
          survivorId,
          fields.vod_access_level,
          fields.purchase_access_level,
          fields.admin_updated_expiration?.toISOString() ?? null,
          fields.admin_replaced_access_level,
          fields.first_login?.toISOString() ?? null,
          fields.revenue_cat_user_id,
          fields.automated_messages_opt_out,
          fields.created_at.toISOString(),
          identity.siteId,
          identity.mbClientId,
          identity.uniqueId,
          at.toISOString(),
        ],
      );
      await recordAudit(tx, {
        staff: null,
        action: 'client.merge',
        target_type: 'client',
        target_id: survivorId,
        client_id: survivorId,
        before: {
          merged_client_id: mergedId,
          mb_client_id: merged.mb_client_id,
          mb_unique_id: merged.mb_unique_id === null ? null : Number(merged.mb_unique_id),
          email_address: merged.email_address,
          survivor_mb_client_id: survivor.mb_client_id,
        },
        after: { client_id: survivorId, mb_site_id: identity.siteId, mb_client_id: identity.mbClientId, mb_unique_id: identity.uniqueId, reason, moved },
        at,
      });
    });
  }
  return survivorId;
}
