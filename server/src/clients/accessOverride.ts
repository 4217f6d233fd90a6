import type { FastifyInstance } from 'fastify';
import type { Client } from '../../../contract/clients';
import type { Database, Queryable } from '../db/client';
import { purchaseLevelOf } from '../revenuecat/process';
import { CLIENT_COLUMNS } from './listQuery';
import { toClient, type ClientRow } from './rows';

export const OVERRIDE_EXPIRY = 'clients.override-expiry';
// Overrides end on whole days, so a minute late is invisible; the sweep is one cheap index scan.
const EXPIRY_EVERY_MS = 60_000;
const EXPIRY_BATCH = 500;

/**
 * The level a client returns to when an admin override ends: what their purchases give, else the
 * level the override replaced, else the free level.
 */
export function levelAfterOverride(purchaseLevel: number | null, replacedLevel: number | null, freeLevel: number): number {
  return purchaseLevel ?? replacedLevel ?? freeLevel;
}

/**
 * Grants `level` until `until` in one statement (so one transaction): the new level, the end and
 * the level it replaced. A second grant while one is recorded (running, or ended but not yet swept)
 * keeps the first replaced level, so the client still returns to what they had before any
 * override. The same statement records the grant in access_override_history and closes the
 * client's previous override there (a newer grant replaces it), which is what the subscriber
 * history counts. Null when there is no such client.
 */
export async function grantOverride(
  database: Queryable,
  grant: { clientId: number; level: number; until: Date; now: Date; grantedBy: string | null },
): Promise<Client | null> {
  const rows = await database.query<ClientRow>(
    `WITH locked AS (
       SELECT id, vod_access_level FROM clients WHERE id = $1 FOR UPDATE
     ), updated AS (
       UPDATE clients c SET
         admin_replaced_access_level = CASE WHEN c.admin_updated_expiration IS NOT NULL THEN c.admin_replaced_access_level ELSE c.vod_access_level END,
         vod_access_level = $2, admin_updated_expiration = $3, updated_at = $4
       FROM locked WHERE c.id = locked.id
       RETURNING c.*, locked.vod_access_level AS previous_level
     ), closed AS (
       UPDATE access_override_history h SET ended_at = $4
       FROM updated u WHERE h.client_id = u.id AND h.ended_at IS NULL
     ), recorded AS (
       INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, granted_by)
       SELECT id, $2, previous_level, $4, $3, $5 FROM updated
     )
     SELECT ${CLIENT_COLUMNS} FROM updated c`,
    [grant.clientId, grant.level, grant.until.toISOString(), grant.now.toISOString(), grant.grantedBy],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/**
 * Ends every override whose date has passed. Each client is put back with a compare-and-set on
 * the end date it was read with: a run on another instance, or a new grant in between, makes the
 * update match nothing, so each override ends exactly once and a fresh one is never undone.
 */
export async function expireOverrides(database: Database, now: Date): Promise<{ restored: number }> {
  const due = await database.query<{ id: number; vod_access_level: number | null; admin_updated_expiration: Date | string; admin_replaced_access_level: number | null }>(
    `SELECT id, vod_access_level, admin_updated_expiration, admin_replaced_access_level FROM clients
     WHERE admin_updated_expiration <= $1 ORDER BY admin_updated_expiration LIMIT ${EXPIRY_BATCH}`,
    [now.toISOString()],
  );
  if (due.length === 0) return { restored: 0 };
  const [free] = await database.query<{ level: number }>('SELECT min(sort_order) AS level FROM access_levels');
  let restored = 0;
  for (const client of due) {
    const purchaseLevel = await purchaseLevelOf(database, Number(client.id), now);
    const level = levelAfterOverride(purchaseLevel, client.admin_replaced_access_level, Number(free!.level));
    // The history row is closed in the same statement, only when the compare-and-set matched.
    const changed = await database.query(
      `WITH restored AS (
         UPDATE clients SET vod_access_level = $2, purchase_access_level = $3, admin_updated_expiration = NULL,
                admin_replaced_access_level = NULL, updated_at = $4
         WHERE id = $1 AND admin_updated_expiration = $5 RETURNING id
       ), closed AS (
         UPDATE access_override_history h SET ended_at = $4 FROM restored r WHERE h.client_id = r.id AND h.ended_at IS NULL
       ), audited AS (
         INSERT INTO audit_log (at, staff_user_id, staff_email, action, target_type, target_id, client_id, before, after)
         SELECT $4, NULL, NULL, 'client.override_end', 'client', r.id::text, r.id,
                jsonb_build_object('vod_access_level', $6::int, 'admin_updated_expiration', $7::text),
                jsonb_build_object('vod_access_level', $2::int, 'admin_updated_expiration', NULL)
         FROM restored r
       )
       SELECT id FROM restored`,
      [client.id, level, purchaseLevel, now.toISOString(), new Date(client.admin_updated_expiration).toISOString(), client.vod_access_level, new Date(client.admin_updated_expiration).toISOString()],
    );
    restored += changed.length;
  }
  // A backlog larger than one batch continues at once rather than a minute later.
  if (due.length === EXPIRY_BATCH) restored += (await expireOverrides(database, now)).restored;
  return { restored };
}

/** The sweep runs on the durable queue's schedule: one instance per run, and it survives restarts. */
export async function registerOverrideJobs(app: FastifyInstance) {
  app.jobs.define(OVERRIDE_EXPIRY, async () => expireOverrides(app.database, app.clock.now()), { maxAttempts: 1 });
  await app.jobs.schedule(OVERRIDE_EXPIRY, OVERRIDE_EXPIRY, EXPIRY_EVERY_MS);
}
