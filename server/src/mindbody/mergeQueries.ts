import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';

/** The statements of a merge (merge.ts): the two rows, every table that refers to a client, the survivor's new fields. */

const MERGEABLE_COLUMNS = `id, vod_access_level, purchase_access_level, admin_updated_expiration, admin_replaced_access_level,
  first_login, revenue_cat_user_id, automated_messages_opt_out, created_at, mb_client_id, mb_unique_id, email_address`;

export const MergeRow = z.object({
  id: z.number(),
  vod_access_level: z.number().nullable(),
  purchase_access_level: z.number().nullable(),
  admin_updated_expiration: timestamp.nullable(),
  admin_replaced_access_level: z.number().nullable(),
  first_login: timestamp.nullable(),
  revenue_cat_user_id: z.string().nullable(),
  automated_messages_opt_out: z.boolean(),
  created_at: timestamp,
  mb_client_id: z.string().nullable(),
  mb_unique_id: z.number().nullable(),
  email_address: z.string().nullable(),
});
export type MergeRow = z.infer<typeof MergeRow>;

/** Rows whose only use is how many a statement returned. */
const Returned = z.object({});
const ForeignKey = z.object({ table_name: z.string(), column_name: z.string() });

/** Both rows, locked for the merge. */
export const lockMergeRows = (tx: Queryable, survivorId: number, mergedId: number) =>
  tx.rows(MergeRow, `SELECT ${MERGEABLE_COLUMNS} FROM clients WHERE id = ANY($1::bigint[]) FOR UPDATE`, [[survivorId, mergedId]]);

/**
 * Every table that refers to a client, and how a merged row's rows move onto the survivor. Rows
 * that would collide with one the survivor has (same favorite, same contract sale, same automated
 * message event, same day's push count) keep the survivor's.
 */
export async function moveClientRows(tx: Queryable, survivorId: number, mergedId: number): Promise<Record<string, number>> {
  const moved: Record<string, number> = {};
  const count = async (table: string, sqlText: string) => {
    moved[table] = (await tx.rows(Returned, sqlText, [survivorId, mergedId])).length;
  };
  await count(
    'favorites',
    `INSERT INTO favorites (client_id, video_id, video_category_id, created_at)
     SELECT $1, video_id, video_category_id, created_at FROM favorites WHERE client_id = $2
     ON CONFLICT (client_id, video_id) DO UPDATE SET created_at = LEAST(favorites.created_at, EXCLUDED.created_at)
     RETURNING video_id`,
  );
  await tx.execute('DELETE FROM favorites WHERE client_id = $1', [mergedId]);
  await tx.execute(`DELETE FROM contracts m WHERE m.client_id = $2 AND EXISTS (SELECT 1 FROM contracts s WHERE s.client_id = $1 AND s.id = m.id)`, [
    survivorId,
    mergedId,
  ]);
  await tx.execute(
    `DELETE FROM automated_pushes m WHERE m.client_id = $2
       AND EXISTS (SELECT 1 FROM automated_pushes s WHERE s.client_id = $1 AND s.message_type = m.message_type AND s.event_key = m.event_key)`,
    [survivorId, mergedId],
  );
  // Both rows were meant for one broadcast: the survivor's outcome stands (one row per client and broadcast).
  await tx.execute(
    `DELETE FROM message_outcomes m WHERE m.client_id = $2 AND m.broadcast_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM message_outcomes s WHERE s.client_id = $1 AND s.broadcast_id = m.broadcast_id)`,
    [survivorId, mergedId],
  );
  await tx.execute(
    `INSERT INTO automated_push_days (client_id, local_day, sent) SELECT $1, local_day, sent FROM automated_push_days WHERE client_id = $2
     ON CONFLICT (client_id, local_day) DO UPDATE SET sent = automated_push_days.sent + EXCLUDED.sent`,
    [survivorId, mergedId],
  );
  await tx.execute('DELETE FROM automated_push_days WHERE client_id = $1', [mergedId]);
  // Tags: the survivor carries both rows' tags, each once.
  await tx.execute('INSERT INTO client_tags (client_id, tag) SELECT $1, tag FROM client_tags WHERE client_id = $2 ON CONFLICT DO NOTHING', [
    survivorId,
    mergedId,
  ]);
  await tx.execute('DELETE FROM client_tags WHERE client_id = $1', [mergedId]);
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
  const others = await tx.rows(
    ForeignKey,
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

export const deleteClientRow = (tx: Queryable, clientId: number) => tx.execute('DELETE FROM clients WHERE id = $1', [clientId]);

/** The survivor's fields after the merge (identity.ts decides them) and the Mindbody identity it now carries. */
export async function updateSurvivor(
  tx: Queryable,
  survivorId: number,
  fields: Omit<MergeRow, 'id' | 'mb_client_id' | 'mb_unique_id' | 'email_address'>,
  identity: { siteId: number; mbClientId: string; uniqueId: number | null },
  at: Date,
): Promise<void> {
  await tx.execute(
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
}
