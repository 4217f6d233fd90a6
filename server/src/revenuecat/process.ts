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
import {
  clientByEmail,
  clientsByRevenueCatIds,
  expireOtherPeriods,
  freeLevel,
  lockAccessOf,
  movePurchases,
  noteRevenueCatId,
  otherClientsWithIds,
  purchasesOf,
  renewEarlierPeriods,
  storeAccess,
  upsertPurchase,
} from './queries';

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
    const rows = await clientsByRevenueCatIds(database, ids);
    for (const id of ids) {
      const row = rows.find((candidate) => candidate.revenue_cat_user_id === id);
      if (row) return row.id;
    }
  }
  if (email) {
    const id = await clientByEmail(database, email);
    if (id !== undefined) return id;
  }
  return null;
}

/** The clients' purchases as far as access goes: the entitlement the purchases_entitlement trigger stored (migration 0031). */
async function purchasesForAccess(database: Queryable, clientIds: readonly number[]): Promise<Map<number, PurchaseForAccess[]>> {
  const rows = await purchasesOf(database, clientIds);
  const byClient = new Map<number, PurchaseForAccess[]>(clientIds.map((id) => [id, []]));
  for (const p of rows) {
    byClient.get(p.client_id)?.push({ grants_access: p.grants_access, access_ends_at: p.access_ends_at, purchased_at: p.purchased_at, level: p.level });
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
    const clients = await lockAccessOf(tx, ids);
    const purchases = await purchasesForAccess(tx, ids);
    const free = await freeLevel(tx);
    const levels = new Map<number, ReturnType<typeof accessAfterPurchases>>();
    const changed: { id: number; purchase: number | null; vod: number | null; changesAt: string | null }[] = [];
    for (const client of clients) {
      const id = client.id;
      const own = purchases.get(id) ?? [];
      const next = accessAfterPurchases(
        { vod_access_level: client.vod_access_level, admin_updated_expiration: client.admin_updated_expiration },
        purchaseAccessLevel(own, now),
        free,
        now,
      );
      levels.set(id, next);
      const changesAt = nextAccessChange(own, now);
      const storedChangesAt = client.purchase_access_changes_at?.getTime() ?? null;
      if (
        next.purchase_access_level !== client.purchase_access_level ||
        next.vod_access_level !== client.vod_access_level ||
        (changesAt?.getTime() ?? null) !== storedChangesAt
      ) {
        changed.push({ id, purchase: next.purchase_access_level, vod: next.vod_access_level, changesAt: changesAt?.toISOString() ?? null });
      }
    }
    if (changed.length > 0) {
      await storeAccess(tx, changed, now);
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
  const purchaseId = await upsertPurchase(database, [
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
  ]);
  if (purchaseId === undefined) return { purchaseId: null, level };

  if (facts.originalTransactionId) {
    if (status === 'expired') {
      // The subscription has ended: no period of it gives access any more.
      await expireOtherPeriods(database, facts.originalTransactionId, transaction, eventAt, LIVE);
    } else if (facts.purchasedAt) {
      // A later transaction of the same subscription supersedes the earlier periods.
      await renewEarlierPeriods(database, facts.originalTransactionId, transaction, facts.purchasedAt.toISOString(), LIVE);
    }
  }
  return { purchaseId, level };
}

/** TRANSFER: the purchases of `transferred_from` move to the client of `transferred_to`. */
async function applyTransfer(deps: ProcessDeps, facts: EventFacts): Promise<Outcome> {
  const { database } = deps;
  const to = await matchClient(database, facts.transferredTo, null);
  if (to === null) return { state: 'unmatched', clientId: null, note: `no client has RevenueCat id ${facts.transferredTo.join(', ') || '(none)'}` };
  const fromClients = await otherClientsWithIds(database, facts.transferredFrom, to);
  const moved = await movePurchases(database, to, facts.transferredTo[0] ?? null, facts.transferredFrom, fromClients);
  for (const clientId of [to, ...fromClients]) await refreshAccess(deps, clientId);
  return { state: 'processed', clientId: to, note: `moved ${moved} purchase(s) from ${facts.transferredFrom.join(', ')}` };
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
    await noteRevenueCatId(deps.database, clientId, userId);
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
