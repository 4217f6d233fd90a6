import type { FastifyInstance } from 'fastify';
import type { Client } from '@contract/clients';
import type { Database, Queryable } from '../db/client';
import { recordAudit } from '../audit/record';
import { purchaseLevelOf } from '../revenuecat/process';
import { CLIENT_COLUMNS } from './listQuery';
import { toClient, type ClientRow } from './rows';

export const OVERRIDE_EXPIRY = 'clients.override-expiry';
// Overrides end on whole days, so a minute late is invisible; the sweep is one cheap index scan.
export const EXPIRY_EVERY_MS = 60_000;
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
  grant: { clientId: number; level: number; until: Date; now: Date; grantedBy: string | null; reason?: string | null },
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
       UPDATE access_override_history h SET ended_at = $4, end_kind = 'replaced'
       FROM updated u WHERE h.client_id = u.id AND h.ended_at IS NULL
     ), recorded AS (
       INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, granted_by, reason)
       SELECT id, $2, previous_level, $4, $3, $5, $6 FROM updated
     )
     SELECT ${CLIENT_COLUMNS} FROM updated c`,
    [grant.clientId, grant.level, grant.until.toISOString(), grant.now.toISOString(), grant.grantedBy, grant.reason ?? null],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/**
 * Ends every override whose date has passed. Each client is put back with a compare-and-set on
 * the end date it was read with: a run on another instance, or a new grant in between, makes the
 * update match nothing, so each override ends exactly once and a fresh one is never undone.
 */
export async function expireOverrides(database: Database, now: Date): Promise<{ restored: number }> {
  const due = await database.query<{
    id: number;
    vod_access_level: number | null;
    admin_updated_expiration: Date | string;
    admin_replaced_access_level: number | null;
  }>(
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
    const ended = new Date(client.admin_updated_expiration).toISOString();
    // The history row is closed in the same statement, only when the compare-and-set matched; the
    // audit entry in the same transaction.
    const changed = await database.transaction(async (tx) => {
      const rows = await restoreLevel(tx, { clientId: Number(client.id), level, purchaseLevel, now, endedAt: ended, endKind: 'expired', endedBy: null });
      if (rows === 0) return 0;
      await recordAudit(tx, {
        staff: null,
        action: 'client.override_end',
        target_type: 'client',
        target_id: Number(client.id),
        client_id: Number(client.id),
        before: { vod_access_level: client.vod_access_level === null ? null : Number(client.vod_access_level), admin_updated_expiration: ended },
        after: { vod_access_level: level, admin_updated_expiration: null },
        at: now,
      });
      return rows;
    });
    restored += changed;
  }
  // A backlog larger than one batch continues at once rather than a minute later.
  if (due.length === EXPIRY_BATCH) restored += (await expireOverrides(database, now)).restored;
  return { restored };
}

/**
 * Puts a client back on `level` and closes their open history row, in one statement, only while the
 * override still ends at `endedAt` (a compare-and-set: a newer grant or another instance's sweep in
 * between makes it match nothing). Answers how many clients changed (0 or 1).
 */
export async function restoreLevel(
  tx: Queryable,
  end: { clientId: number; level: number; purchaseLevel: number | null; now: Date; endedAt: string; endKind: 'expired' | 'ended'; endedBy: string | null },
): Promise<number> {
  const rows = await tx.query(
    `WITH restored AS (
       UPDATE clients SET vod_access_level = $2, purchase_access_level = $3, admin_updated_expiration = NULL,
              admin_replaced_access_level = NULL, updated_at = $4
       WHERE id = $1 AND admin_updated_expiration = $5 RETURNING id
     ), closed AS (
       UPDATE access_override_history h SET ended_at = $4, end_kind = $6, ended_by = $7
       FROM restored r WHERE h.client_id = r.id AND h.ended_at IS NULL
     )
     SELECT id FROM restored`,
    [end.clientId, end.level, end.purchaseLevel, end.now.toISOString(), end.endedAt, end.endKind, end.endedBy],
  );
  return rows.length;
}

/** The sweep runs on the durable queue's schedule (server/src/schedules.ts): one instance per run, and it survives restarts. */
export function registerOverrideJobs(app: FastifyInstance) {
  app.jobs.define(OVERRIDE_EXPIRY, async () => expireOverrides(app.database, app.clock.now()), { maxAttempts: 1 });
}
