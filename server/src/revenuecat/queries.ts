import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';

/** A timestamp; 'infinity' and '-infinity' (which the drivers give as numbers) become an invalid Date, as new Date() makes them. */
const IdRow = z.object({ id: z.number() });
const StoredEventRow = z.object({ state: z.string(), body: z.unknown() });
const UserIdRow = z.object({ id: z.number(), revenue_cat_user_id: z.string() });
const PurchaseRow = z.object({
  client_id: z.number(),
  grants_access: z.boolean(),
  access_ends_at: timestamp.nullable(),
  purchased_at: timestamp.nullable(),
  level: z.number().nullable(),
});
const AccessClientRow = z.object({
  id: z.number(),
  vod_access_level: z.number().nullable(),
  purchase_access_level: z.number().nullable(),
  admin_updated_expiration: timestamp.nullable(),
  purchase_access_changes_at: timestamp.nullable(),
});
const LevelRow = z.object({ level: z.number() });

/** Stores an event unless its id is stored already; answers the new row's id, or undefined. */
export async function insertEvent(database: Database, values: unknown[]): Promise<number | undefined> {
  const [row] = await database.rows(
    IdRow,
    `INSERT INTO revenuecat_events (event_id, type, app_user_id, original_app_user_id, aliases, email, environment, event_at, body, received_at, state, note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (event_id) DO NOTHING
     RETURNING id`,
    values,
  );
  return row?.id;
}

export async function eventIdOf(database: Database, eventId: string): Promise<number | undefined> {
  const [existing] = await database.rows(IdRow, 'SELECT id FROM revenuecat_events WHERE event_id = $1', [eventId]);
  return existing?.id;
}

export async function storedEvent(database: Database, id: number) {
  const [row] = await database.rows(StoredEventRow, 'SELECT state, body FROM revenuecat_events WHERE id = $1', [id]);
  return row;
}

export async function recordEventOutcome(database: Database, id: number, outcome: { state: string; clientId: number | null; note: string }, at: Date) {
  await database.execute(`UPDATE revenuecat_events SET state = $2, client_id = $3, note = $4, attempts = attempts + 1, processed_at = $5 WHERE id = $1`, [
    id,
    outcome.state,
    outcome.clientId,
    outcome.note,
    at.toISOString(),
  ]);
}

/**
 * Events still waiting (job lost, client unknown) received before `receivedBefore`: the least recently
 * tried first, so a backlog of never-matching events cannot starve the rest; within the batch in event
 * order, so a user's purchase comes before its cancellation.
 */
export async function waitingEvents(database: Database, receivedBefore: Date, batch: number): Promise<number[]> {
  const waiting = await database.rows(
    IdRow,
    `SELECT id FROM (
       SELECT id, event_at FROM revenuecat_events
       WHERE state = 'unmatched' OR (state = 'received' AND received_at < $1)
       ORDER BY processed_at NULLS FIRST, id LIMIT ${batch}
     ) batch ORDER BY event_at NULLS FIRST, id`,
    [receivedBefore.toISOString()],
  );
  return waiting.map((row) => row.id);
}

/** Clients whose purchase access changes by `now`, soonest first. */
export async function clientsWithAccessDue(database: Database, now: Date, batch: number): Promise<number[]> {
  const due = await database.rows(IdRow, `SELECT id FROM clients WHERE purchase_access_changes_at <= $1 ORDER BY purchase_access_changes_at LIMIT ${batch}`, [
    now.toISOString(),
  ]);
  return due.map((row) => row.id);
}

export async function clientsByRevenueCatIds(database: Database, ids: string[]) {
  return database.rows(UserIdRow, 'SELECT id, revenue_cat_user_id FROM clients WHERE revenue_cat_user_id = ANY($1::text[]) ORDER BY id', [ids]);
}

export async function clientByEmail(database: Database, email: string): Promise<number | undefined> {
  const [row] = await database.rows(IdRow, 'SELECT id FROM clients WHERE lower(email_address) = lower($1) ORDER BY id LIMIT 1', [email]);
  return row?.id;
}

/** The clients' purchases as far as access goes: the entitlement the purchases_entitlement trigger stored (migration 0031). */
export async function purchasesOf(database: Queryable, clientIds: readonly number[]) {
  return database.rows(
    PurchaseRow,
    `SELECT p.client_id, p.grants_access, p.access_ends_at, p.purchased_at, al.sort_order AS level
     FROM purchases p LEFT JOIN access_levels al ON al.id = p.access_level_id WHERE p.client_id = ANY($1::bigint[])`,
    [clientIds],
  );
}

/** The clients' access columns, the rows locked in id order. */
export async function lockAccessOf(tx: Queryable, ids: number[]) {
  return tx.rows(
    AccessClientRow,
    `SELECT id, vod_access_level, purchase_access_level, admin_updated_expiration, purchase_access_changes_at
       FROM clients WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
}

/** The lowest access level (the free one). */
export async function freeLevel(tx: Queryable): Promise<number> {
  const [free] = await tx.rows(LevelRow, 'SELECT min(sort_order) AS level FROM access_levels');
  return free!.level;
}

export async function storeAccess(tx: Queryable, changed: { id: number; purchase: number | null; vod: number | null; changesAt: string | null }[], now: Date) {
  await tx.execute(
    `UPDATE clients c SET purchase_access_level = n.purchase, vod_access_level = n.vod, purchase_access_changes_at = n.changes_at, updated_at = $5
         FROM unnest($1::bigint[], $2::int[], $3::int[], $4::timestamptz[]) AS n(id, purchase, vod, changes_at)
         WHERE c.id = n.id`,
    [changed.map((c) => c.id), changed.map((c) => c.purchase), changed.map((c) => c.vod), changed.map((c) => c.changesAt), now.toISOString()],
  );
}

/** Upserts the purchase row of an event's transaction unless the row's last event is later; answers its id, or undefined. */
export async function upsertPurchase(database: Database, values: unknown[]): Promise<number | undefined> {
  const [row] = await database.rows(
    IdRow,
    `INSERT INTO purchases (client_id, revenue_cat_user_id, access_level_id, subscription_identifier, upsell_source, purchased_at,
                            expires_at, subscription_status, created_at, rc_transaction_id, rc_original_transaction_id, rc_store,
                            rc_environment, rc_event_at, grace_period_expires_at, sandbox_accepted)
     VALUES ($1, $2, (SELECT id FROM access_levels WHERE sort_order = $3), $4, $5, $6, $7, COALESCE($8, 'active'), $9, $10, $11, $12, $13, $14, $16, $18)
     ON CONFLICT (rc_transaction_id) WHERE rc_transaction_id IS NOT NULL DO UPDATE SET
       client_id = EXCLUDED.client_id,
       revenue_cat_user_id = COALESCE(EXCLUDED.revenue_cat_user_id, purchases.revenue_cat_user_id),
       access_level_id = COALESCE(EXCLUDED.access_level_id, purchases.access_level_id),
       subscription_identifier = COALESCE(EXCLUDED.subscription_identifier, purchases.subscription_identifier),
       upsell_source = COALESCE(purchases.upsell_source, EXCLUDED.upsell_source),
       purchased_at = COALESCE(EXCLUDED.purchased_at, purchases.purchased_at),
       -- An event that states the expiry (null too: no expiry) is RevenueCat's word on it.
       expires_at = CASE WHEN $15 THEN EXCLUDED.expires_at ELSE purchases.expires_at END,
       grace_period_expires_at = CASE WHEN $17 THEN EXCLUDED.grace_period_expires_at ELSE purchases.grace_period_expires_at END,
       subscription_status = COALESCE($8, purchases.subscription_status),
       rc_original_transaction_id = COALESCE(EXCLUDED.rc_original_transaction_id, purchases.rc_original_transaction_id),
       rc_store = COALESCE(EXCLUDED.rc_store, purchases.rc_store),
       rc_environment = COALESCE(EXCLUDED.rc_environment, purchases.rc_environment),
       rc_event_at = EXCLUDED.rc_event_at,
       sandbox_accepted = EXCLUDED.sandbox_accepted
     WHERE purchases.rc_event_at IS NULL OR purchases.rc_event_at <= EXCLUDED.rc_event_at
     RETURNING id`,
    values,
  );
  return row?.id;
}

/** The subscription has ended: its other live periods (no later event) are expired too. */
export async function expireOtherPeriods(database: Database, originalTransaction: string, transaction: string, eventAt: string, live: string[]) {
  await database.execute(
    `UPDATE purchases SET subscription_status = 'expired', rc_event_at = $3
         WHERE rc_original_transaction_id = $1 AND rc_transaction_id <> $2 AND subscription_status = ANY($4::text[])
           AND (rc_event_at IS NULL OR rc_event_at <= $3)`,
    [originalTransaction, transaction, eventAt, live],
  );
}

/** A later transaction of the same subscription supersedes the earlier live periods. */
export async function renewEarlierPeriods(database: Database, originalTransaction: string, transaction: string, purchasedAt: string, live: string[]) {
  await database.execute(
    `UPDATE purchases SET subscription_status = 'renewed'
         WHERE rc_original_transaction_id = $1 AND rc_transaction_id <> $2 AND subscription_status = ANY($4::text[])
           AND purchased_at < $3`,
    [originalTransaction, transaction, purchasedAt, live],
  );
}

/** Clients with these RevenueCat ids, but `except`. */
export async function otherClientsWithIds(database: Database, ids: string[], except: number): Promise<number[]> {
  const rows = await database.rows(IdRow, 'SELECT id FROM clients WHERE revenue_cat_user_id = ANY($1::text[]) AND id <> $2', [ids, except]);
  return rows.map((row) => row.id);
}

/** The purchases of these RevenueCat ids or clients move to `to`; answers how many moved. */
export async function movePurchases(database: Database, to: number, toUserId: string | null, fromUserIds: string[], fromClients: number[]): Promise<number> {
  const moved = await database.rows(
    IdRow,
    `UPDATE purchases SET client_id = $1, revenue_cat_user_id = $2
     WHERE (revenue_cat_user_id = ANY($3::text[]) OR client_id = ANY($4::bigint[])) AND client_id IS DISTINCT FROM $1
     RETURNING id`,
    [to, toUserId, fromUserIds, fromClients],
  );
  return moved.length;
}

/** Notes the client's RevenueCat id when they have none yet. */
export async function noteRevenueCatId(database: Database, clientId: number, userId: string) {
  await database.execute('UPDATE clients SET revenue_cat_user_id = $2 WHERE id = $1 AND revenue_cat_user_id IS NULL', [clientId, userId]);
}
