import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';

const IdRow = z.object({ id: z.number() });
const DeviceRow = z.object({
  id: z.number(),
  platform: z.string().nullable(),
  is_ipad: z.boolean().nullable(),
  firebase_token_new: z.string().nullable(),
  firebase_token_current: z.string().nullable(),
  created_at: timestamp,
});
const AttachedRow = DeviceRow.extend({ identity_verified: z.boolean() });
const TokenRow = z.object({ token: z.string() });
const OpenedRow = z.object({ opened_at: timestamp });
const EarlierOpenRow = z.object({ opened_at: timestamp.nullable() });

// Any constant works: it keeps these locks apart from other advisory locks.
const REPORTS_LOCK = 72_406_017;

/** Takes the reports lock of `key` until the transaction ends. */
export async function lockReports(tx: Queryable, key: number) {
  await tx.execute('SELECT pg_advisory_xact_lock($1::int, $2::int)', [REPORTS_LOCK, key]);
}

/** The client's newest `limit` reports that pushes may go to. */
export async function usedReports(tx: Queryable, clientId: number, limit: number) {
  return tx.rows(
    DeviceRow,
    `SELECT id, platform, is_ipad, firebase_token_new, firebase_token_current, created_at FROM debug_records
     WHERE client_id = $1 AND used_for_push ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    [clientId],
  );
}

/** Which of these tokens are known dead. */
export async function deadTokens(tx: Queryable, tokens: string[]): Promise<string[]> {
  return (await tx.rows(TokenRow, 'SELECT token FROM dead_push_tokens WHERE token = ANY($1::text[])', [tokens])).map((row) => row.token);
}

/** Deletes the client's reports beyond the newest `keep`, sparing `spared`. */
export async function deleteOlderReports(tx: Queryable, clientId: number, spared: number[], keep: number) {
  await tx.execute(
    `DELETE FROM debug_records
     WHERE client_id = $1 AND NOT (id = ANY($2::bigint[]))
       AND id NOT IN (SELECT id FROM debug_records WHERE client_id = $1 AND NOT (id = ANY($2::bigint[]))
                      ORDER BY created_at DESC, id DESC LIMIT $3)`,
    [clientId, spared, keep],
  );
}

/**
 * Deletes held reports (no client yet) older than `olderThan`, and beyond the newest `perClient` of the
 * same e-mail (or Mindbody id), `perAddress` of the same address and `inAll`.
 */
export async function trimHeldReports(
  tx: Queryable,
  report: { email: string | null; mbClientId: string | null; receivedFrom: string; olderThan: Date },
  bounds: { perClient: number; perAddress: number; inAll: number },
) {
  // "Keep the newest n" is a range below the n-th newest id, so each part reads only its own
  // index range; one statement, because on PGlite each statement costs more than its work.
  const held = (where: string) => `SELECT id FROM debug_records WHERE client_id IS NULL AND ${where}`;
  const beyondNewest = (where: string, n: number) => `${held(where)} AND id < (${held(where)} ORDER BY id DESC OFFSET ${n - 1} LIMIT 1)`;
  const sameClient = report.email ? 'lower(email) = lower($3)' : 'email IS NULL AND mb_client_id = $3';
  await tx.execute(
    `DELETE FROM debug_records WHERE id = ANY(ARRAY(
       ${held('created_at < $1')}
       UNION ALL ${beyondNewest(sameClient, bounds.perClient)}
       UNION ALL ${beyondNewest('received_from = $2', bounds.perAddress)}
       UNION ALL ${beyondNewest('TRUE', bounds.inAll)}))`,
    [report.olderThan.toISOString(), report.receivedFrom, report.email ?? report.mbClientId],
  );
}

/** Takes these reports off pushes, answering them (to be decided again). */
export async function unsetUsedForPush(tx: Queryable, ids: number[]) {
  return tx.rows(
    AttachedRow,
    `UPDATE debug_records SET used_for_push = false WHERE id = ANY($1::bigint[])
         RETURNING id, platform, is_ipad, firebase_token_new, firebase_token_current, identity_verified, created_at`,
    [ids],
  );
}

export async function setUsedForPush(tx: Queryable, id: number) {
  await tx.execute('UPDATE debug_records SET used_for_push = true WHERE id = $1', [id]);
}

export async function clientByEmailPreferringMindbodyId(database: Database, email: string, mbClientId: string | null): Promise<number | undefined> {
  const [row] = await database.rows(
    IdRow,
    `SELECT id FROM clients WHERE lower(email_address) = lower($1) ORDER BY (mb_client_id IS NOT DISTINCT FROM $2) DESC, id LIMIT 1`,
    [email, mbClientId],
  );
  return row?.id;
}

export async function clientByMindbodyId(database: Database, mbClientId: string): Promise<number | undefined> {
  const [row] = await database.rows(IdRow, 'SELECT id FROM clients WHERE mb_client_id = $1 ORDER BY id LIMIT 1', [mbClientId]);
  return row?.id;
}

/** Inserts a debug record from its 22 column values; answers its id. */
export async function insertDebugRecord(tx: Queryable, values: unknown[]): Promise<number> {
  const [row] = await tx.rows(
    IdRow,
    `INSERT INTO debug_records (client_id, email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current, platform,
                                platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip, app_version,
                                sent_at, device_constants, network_info, created_at, used_for_push, identity_verified, received_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
     RETURNING id`,
    values,
  );
  return row!.id;
}

export async function videoIdOf(database: Database, vimeoVideoId: string): Promise<number | undefined> {
  const [row] = await database.rows(IdRow, 'SELECT id FROM videos WHERE vimeo_video_id = $1', [vimeoVideoId]);
  return row?.id;
}

/** Inserts a view unless the same (client, video, viewed_at) is stored; answers the new id, or undefined. */
export async function insertView(database: Database, params: unknown[]): Promise<number | undefined> {
  const [inserted] = await database.rows(
    IdRow,
    'INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3) ON CONFLICT (client_id, video_id, viewed_at) DO NOTHING RETURNING id',
    params,
  );
  return inserted?.id;
}

export async function viewIdOf(database: Database, params: unknown[]): Promise<number | undefined> {
  const [existing] = await database.rows(IdRow, 'SELECT id FROM video_views WHERE client_id = $1 AND video_id = $2 AND viewed_at = $3', params);
  return existing?.id;
}

/** Marks the client's push opened unless it was; answers when, or undefined. */
export async function markPushOpened(database: Database, params: unknown[]): Promise<Date | undefined> {
  const [first] = await database.rows(
    OpenedRow,
    'UPDATE pushes SET opened_at = greatest($3::timestamptz, created_at) WHERE id = $1 AND client_id = $2 AND opened_at IS NULL RETURNING opened_at',
    params,
  );
  return first?.opened_at;
}

/** The client's push: when it was opened (null: not yet); undefined when it is not theirs. */
export async function pushOpenedAt(database: Database, params: unknown[]) {
  const [earlier] = await database.rows(EarlierOpenRow, 'SELECT opened_at FROM pushes WHERE id = $1 AND client_id = $2', params);
  return earlier;
}
