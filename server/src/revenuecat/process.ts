import type { Database, Queryable } from '../db/client';
import { accessAfterPurchases, nextAccessChange, purchaseAccessLevel, type PurchaseForAccess } from '../integrations/revenuecat/entitlement';
import {
  candidateUserIds,
  effectOf,
  entitlementLevel,
  preferredUserId,
  readEvent,
  storedExpiry,
  type EventFacts,
  type PurchaseStatus,
} from '../integrations/revenuecat/eventRules';
import type { Clock } from '../types';

export interface ProcessDeps {
  database: Database;
  clock: Clock;
  /** Entitlement id (lower case, '*' for any other) → access level sort_order. */
  entitlementLevels: Readonly<Record<string, number>>;
  log: { info(obj: object, msg: string): void };
  /** REVENUECAT_ACCEPT_SANDBOX: SANDBOX purchases entitle too (a staging studio). */
  acceptSandbox: boolean;
}

export type AccessDeps = Pick<ProcessDeps, 'database' | 'clock'>;

export type Outcome = { state: 'processed' | 'unmatched' | 'ignored'; clientId: number | null; note: string };

const LIVE: PurchaseStatus[] = ['active', 'cancelled', 'billing_issue', 'paused'];

/**
 * The client an event belongs to: by RevenueCat app user id, then original app user id, then
 * aliases (clients.revenue_cat_user_id), then by e-mail.
 */
export async function matchClient(database: Database, ids: string[], email: string | null): Promise<number | null> {
  if (ids.length > 0) {
    const rows = await database.query<{ id: number; revenue_cat_user_id: string }>(
      'SELECT id, revenue_cat_user_id FROM clients WHERE revenue_cat_user_id = ANY($1::text[]) ORDER BY id',
      [ids],
    );
    for (const id of ids) {
      const row = rows.find((candidate) => candidate.revenue_cat_user_id === id);
      if (row) return Number(row.id);
    }
  }
  if (email) {
    const [row] = await database.query<{ id: number }>('SELECT id FROM clients WHERE lower(email_address) = lower($1) ORDER BY id LIMIT 1', [email]);
    if (row) return Number(row.id);
  }
  return null;
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

type PurchaseRow = {
  client_id: number;
  grants_access: boolean;
  access_ends_at: Date | string | null;
  purchased_at: Date | string | null;
  level: number | null;
};

/** The clients' purchases as far as access goes: the entitlement the purchases_entitlement trigger stored (migration 0031). */
async function purchasesForAccess(database: Queryable, clientIds: readonly number[]): Promise<Map<number, PurchaseForAccess[]>> {
  const rows = await database.query<PurchaseRow>(
    `SELECT p.client_id, p.grants_access, p.access_ends_at, p.purchased_at, al.sort_order AS level
     FROM purchases p LEFT JOIN access_levels al ON al.id = p.access_level_id WHERE p.client_id = ANY($1::bigint[])`,
    [clientIds],
  );
  const byClient = new Map<number, PurchaseForAccess[]>(clientIds.map((id) => [id, []]));
  for (const p of rows) {
    byClient.get(Number(p.client_id))?.push({
      grants_access: p.grants_access,
      access_ends_at: dateOrNull(p.access_ends_at),
      purchased_at: dateOrNull(p.purchased_at),
      level: p.level === null ? null : Number(p.level),
    });
  }
  return byClient;
}

/** The level the client's stored purchases give at `now` (the highest entitling one), or null. */
export async function purchaseLevelOf(database: Queryable, clientId: number, now: Date): Promise<number | null> {
  return purchaseAccessLevel((await purchasesForAccess(database, [clientId])).get(clientId)!, now);
}

/**
 * Recomputes a client's purchase-derived level and, unless an admin override runs, the effective
 * one, and notes when that may next change by time alone (purchase_access_changes_at, which the
 * expiry job watches). The client row is locked so a webhook job and the expiry job on another
 * instance cannot interleave their reads and writes.
 */
export async function refreshAccess(deps: AccessDeps, clientId: number) {
  return (await refreshAccessOf(deps, [clientId])).get(clientId) ?? null;
}

/**
 * refreshAccess for many clients in one transaction of three statements whatever their number (the
 * expiry job's batches; a restore or an import can put hundreds of thousands before it at once).
 * The rows are locked in id order, as every batch takes them, so two batches cannot deadlock.
 */
export async function refreshAccessOf(deps: AccessDeps, clientIds: readonly number[]) {
  const now = deps.clock.now();
  const ids = [...new Set(clientIds)].sort((a, b) => a - b);
  return deps.database.transaction(async (tx) => {
    const clients = await tx.query<{
      id: number;
      vod_access_level: number | null;
      purchase_access_level: number | null;
      admin_updated_expiration: Date | string | null;
      purchase_access_changes_at: Date | string | null;
    }>(
      `SELECT id, vod_access_level, purchase_access_level, admin_updated_expiration, purchase_access_changes_at
       FROM clients WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    const purchases = await purchasesForAccess(tx, ids);
    const [free] = await tx.query<{ level: number }>('SELECT min(sort_order) AS level FROM access_levels');
    const levels = new Map<number, ReturnType<typeof accessAfterPurchases>>();
    const changed: { id: number; purchase: number | null; vod: number | null; changesAt: string | null }[] = [];
    for (const client of clients) {
      const id = Number(client.id);
      const own = purchases.get(id) ?? [];
      const next = accessAfterPurchases(
        { vod_access_level: client.vod_access_level, admin_updated_expiration: dateOrNull(client.admin_updated_expiration) },
        purchaseAccessLevel(own, now),
        Number(free!.level),
        now,
      );
      levels.set(id, next);
      const changesAt = nextAccessChange(own, now);
      const storedChangesAt = dateOrNull(client.purchase_access_changes_at)?.getTime() ?? null;
      if (
        next.purchase_access_level !== client.purchase_access_level ||
        next.vod_access_level !== client.vod_access_level ||
        (changesAt?.getTime() ?? null) !== storedChangesAt
      ) {
        changed.push({ id, purchase: next.purchase_access_level, vod: next.vod_access_level, changesAt: changesAt?.toISOString() ?? null });
      }
    }
    if (changed.length > 0) {
      await tx.query(
        `UPDATE clients c SET purchase_access_level = n.purchase, vod_access_level = n.vod, purchase_access_changes_at = n.changes_at, updated_at = $5
         FROM unnest($1::bigint[], $2::int[], $3::int[], $4::timestamptz[]) AS n(id, purchase, vod, changes_at)
         WHERE c.id = n.id`,
        [changed.map((c) => c.id), changed.map((c) => c.purchase), changed.map((c) => c.vod), changed.map((c) => c.changesAt), now.toISOString()],
      );
    }
    return levels;
  });
}

/** Upserts the purchase row of the event's transaction; an event older than the row's last one changes nothing. */
async function applyPurchase(deps: ProcessDeps, clientId: number, facts: EventFacts, status: PurchaseStatus | null, longestMs?: number) {
  const { database } = deps;
  const level = entitlementLevel(facts.entitlementIds, deps.entitlementLevels);
  const transaction = facts.transactionId ?? `event:${facts.id}`;
  const product = facts.type === 'PRODUCT_CHANGE' ? (facts.newProductId ?? facts.productId) : facts.productId;
  const eventAt = (facts.eventAt ?? deps.clock.now()).toISOString();
  const expiresAt = storedExpiry(facts, longestMs, deps.clock.now());
  const [row] = await database.query<{ id: number }>(
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
    [
      clientId,
      facts.appUserId ?? facts.originalAppUserId,
      level,
      product,
      facts.upsellSource,
      facts.purchasedAt?.toISOString() ?? null,
      expiresAt?.toISOString() ?? null,
      status,
      deps.clock.now().toISOString(),
      transaction,
      facts.originalTransactionId,
      facts.store,
      facts.environment,
      eventAt,
      facts.expiryGiven || longestMs !== undefined,
      facts.graceEndsAt?.toISOString() ?? null,
      facts.graceGiven,
      deps.acceptSandbox,
    ],
  );
  if (!row) return { purchaseId: null, level };

  if (facts.originalTransactionId) {
    if (status === 'expired') {
      // The subscription has ended: no period of it gives access any more.
      await database.query(
        `UPDATE purchases SET subscription_status = 'expired', rc_event_at = $3
         WHERE rc_original_transaction_id = $1 AND rc_transaction_id <> $2 AND subscription_status = ANY($4::text[])
           AND (rc_event_at IS NULL OR rc_event_at <= $3)`,
        [facts.originalTransactionId, transaction, eventAt, LIVE],
      );
    } else if (facts.purchasedAt) {
      // A later transaction of the same subscription supersedes the earlier periods.
      await database.query(
        `UPDATE purchases SET subscription_status = 'renewed'
         WHERE rc_original_transaction_id = $1 AND rc_transaction_id <> $2 AND subscription_status = ANY($4::text[])
           AND purchased_at < $3`,
        [facts.originalTransactionId, transaction, facts.purchasedAt.toISOString(), LIVE],
      );
    }
  }
  return { purchaseId: Number(row.id), level };
}

/** TRANSFER: the purchases of `transferred_from` move to the client of `transferred_to`. */
async function applyTransfer(deps: ProcessDeps, facts: EventFacts): Promise<Outcome> {
  const { database } = deps;
  const to = await matchClient(database, facts.transferredTo, null);
  if (to === null) return { state: 'unmatched', clientId: null, note: `no client has RevenueCat id ${facts.transferredTo.join(', ') || '(none)'}` };
  const fromClients = (
    await database.query<{ id: number }>('SELECT id FROM clients WHERE revenue_cat_user_id = ANY($1::text[]) AND id <> $2', [facts.transferredFrom, to])
  ).map((row) => Number(row.id));
  const moved = await database.query(
    `UPDATE purchases SET client_id = $1, revenue_cat_user_id = $2
     WHERE (revenue_cat_user_id = ANY($3::text[]) OR client_id = ANY($4::bigint[])) AND client_id IS DISTINCT FROM $1
     RETURNING id`,
    [to, facts.transferredTo[0] ?? null, facts.transferredFrom, fromClients],
  );
  for (const clientId of [to, ...fromClients]) await refreshAccess(deps, clientId);
  return { state: 'processed', clientId: to, note: `moved ${moved.length} purchase(s) from ${facts.transferredFrom.join(', ')}` };
}

/** Applies one stored event. Safe to run again: purchases are keyed by transaction and guarded by event time. */
export async function processEvent(deps: ProcessDeps, body: Record<string, unknown>): Promise<Outcome> {
  const event = (body.event ?? {}) as Record<string, unknown>;
  const facts = readEvent(event);
  const effect = effectOf(facts);
  if (effect.kind === 'test') {
    deps.log.info({ event: facts.id }, 'RevenueCat TEST event received');
    return { state: 'processed', clientId: null, note: 'test event: logged' };
  }
  if (effect.kind === 'none') return { state: 'ignored', clientId: null, note: `${facts.type || 'an event without a type'} has no effect here; stored` };
  if (effect.kind === 'transfer') return applyTransfer(deps, facts);

  const ids = candidateUserIds(facts);
  const clientId = await matchClient(deps.database, ids, facts.email);
  if (clientId === null) {
    return { state: 'unmatched', clientId: null, note: `no client matches ${[...ids, facts.email].filter(Boolean).join(', ') || 'an event without user ids'}` };
  }
  const userId = preferredUserId(facts);
  if (userId) {
    await deps.database.query('UPDATE clients SET revenue_cat_user_id = $2 WHERE id = $1 AND revenue_cat_user_id IS NULL', [clientId, userId]);
  }
  const { purchaseId, level } = await applyPurchase(deps, clientId, facts, effect.status, effect.longestMs);
  const access = await refreshAccess(deps, clientId);
  const applied = purchaseId === null ? 'older than what is stored: purchase unchanged' : `purchase ${purchaseId} ${effect.status ?? 'updated'}`;
  const levelNote = level === null && facts.entitlementIds.length > 0 ? ` (no access level mapped for ${facts.entitlementIds.join(', ')})` : '';
  return {
    state: 'processed',
    clientId,
    note: `${facts.type}: ${applied}${levelNote}; levels now purchase ${access?.purchase_access_level ?? 'none'}, VOD ${access?.vod_access_level ?? 'none'}`,
  };
}
