import type { FastifyInstance } from 'fastify';
import type { Client } from '@contract/clients';
import type { Database, Queryable } from '../db/client';
import { recordAudit } from '../audit/record';
import { purchaseLevelOf } from '../revenuecat/process';
import { dueOverrides, freeLevel, grantOverrideRow, restoreLevel } from './overrideQueries';
import { toClient } from './rows';

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
  const row = await grantOverrideRow(database, { ...grant, reason: grant.reason ?? null });
  return row ? toClient(row) : null;
}

/**
 * Ends every override whose date has passed. Each client is put back with a compare-and-set on
 * the end date it was read with: a run on another instance, or a new grant in between, makes the
 * update match nothing, so each override ends exactly once and a fresh one is never undone.
 */
export async function expireOverrides(database: Database, now: Date): Promise<{ restored: number }> {
  const due = await dueOverrides(database, now, EXPIRY_BATCH);
  if (due.length === 0) return { restored: 0 };
  const free = await freeLevel(database);
  let restored = 0;
  for (const client of due) {
    const purchaseLevel = await purchaseLevelOf(database, client.id, now);
    const level = levelAfterOverride(purchaseLevel, client.admin_replaced_access_level, free);
    const ended = client.admin_updated_expiration.toISOString();
    // The history row is closed in the same statement, only when the compare-and-set matched; the
    // audit entry in the same transaction.
    const changed = await database.transaction(async (tx) => {
      const rows = await restoreLevel(tx, { clientId: client.id, level, purchaseLevel, now, endedAt: ended, endKind: 'expired', endedBy: null });
      if (rows === 0) return 0;
      await recordAudit(tx, {
        staff: null,
        action: 'client.override_end',
        target_type: 'client',
        target_id: client.id,
        client_id: client.id,
        before: { vod_access_level: client.vod_access_level, admin_updated_expiration: ended },
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

/** The sweep runs on the durable queue's schedule (server/src/schedules.ts): one instance per run, and it survives restarts. */
export function registerOverrideJobs(app: FastifyInstance) {
  app.jobs.define(OVERRIDE_EXPIRY, async () => expireOverrides(app.database, app.clock.now()), { maxAttempts: 1 });
}
