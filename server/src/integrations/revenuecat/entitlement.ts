// When a stored purchase entitles its client, whatever event came last. RevenueCat decides an
// entitlement by its expiry (`expiration_at_ms`, or the grace period's end during a billing issue),
// not by the last event type, and it stops retrying a webhook after 5 failures, so an EXPIRATION
// can be missing for good (docs: integrations/webhooks.md, webhooks/event-types-and-fields.mdx).
// Pure functions: the processor, the expiry job, the migration's backfill and the tests agree on them.

/** Statuses a purchase may carry and still entitle for its period; others (legacy 'revoked', unknown) never do. */
const PERIOD_STATUSES = new Set([
  'active',
  'trial',
  'trialing',
  'in_trial',
  'grace_period',
  'in_grace_period',
  'billing_issue',
  'cancelled',
  'canceled',
  'paused',
  'renewed',
  'expired',
  'refunded',
]);
/** Statuses where RevenueCat took the access away at the event: access never runs past that moment. */
const ENDED_AT_EVENT = new Set(['expired', 'refunded']);

export interface StoredPurchase {
  subscription_status: string | null;
  purchased_at: Date | null;
  expires_at: Date | null;
  grace_period_expires_at: Date | null;
  /** Time of the last RevenueCat event applied to the purchase. */
  rc_event_at: Date | null;
  rc_environment: string | null;
}

export interface PurchaseEntitlement {
  /** False: the purchase never entitles (a sandbox one, a status that gives nothing). */
  grants_access: boolean;
  /** When the entitlement ends; null: it does not end (a lifetime purchase). */
  access_ends_at: Date | null;
}

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);
const later = (a: Date, b: Date | null) => (b !== null && b.getTime() > a.getTime() ? b : a);

/**
 * A purchase entitles from its purchase time until its expiry, or its grace period's end when
 * that is later; one without an expiry never ends. After an EXPIRATION or a refund it ends no
 * later than that event. SANDBOX purchases (TestFlight, test stores) entitle only when the studio
 * accepts them (REVENUECAT_ACCEPT_SANDBOX).
 */
export function purchaseEntitlement(purchase: StoredPurchase, acceptSandbox: boolean): PurchaseEntitlement {
  const status = (purchase.subscription_status ?? '').trim().toLowerCase();
  const sandbox = (purchase.rc_environment ?? '').trim().toUpperCase() === 'SANDBOX';
  const natural = purchase.expires_at === null ? null : later(purchase.expires_at, purchase.grace_period_expires_at);
  let ends = natural;
  if (ENDED_AT_EVENT.has(status)) {
    // Without the event's time (rows from before the webhook): an expired purchase ran to its expiry,
    // a refunded one is taken as never having given access.
    const since = purchase.purchased_at ?? new Date(0);
    const stop = purchase.rc_event_at ?? (status === 'refunded' ? since : (natural ?? since));
    ends = natural === null ? stop : earlier(natural, stop);
  }
  return { grants_access: PERIOD_STATUSES.has(status) && (acceptSandbox || !sandbox), access_ends_at: ends };
}

export interface PurchaseForAccess extends PurchaseEntitlement {
  purchased_at: Date | null;
  /** sort_order of the purchase's access level. */
  level: number | null;
}

/** Whether a purchase entitles at `now`. */
export function grantsAccess(purchase: PurchaseForAccess, now: Date): boolean {
  if (!purchase.grants_access) return false;
  if (purchase.purchased_at !== null && purchase.purchased_at.getTime() > now.getTime()) return false;
  return purchase.access_ends_at === null || purchase.access_ends_at.getTime() > now.getTime();
}

/** The level a client's purchases give at `now`: the highest entitling one, or null. */
export function purchaseAccessLevel(purchases: readonly PurchaseForAccess[], now: Date): number | null {
  let best: number | null = null;
  for (const purchase of purchases) {
    if (purchase.level !== null && grantsAccess(purchase, now) && (best === null || purchase.level > best)) best = purchase.level;
  }
  return best;
}

/**
 * The next moment after `now` at which the purchases' level may change by time alone: an
 * entitlement ending or a purchase period starting (a RENEWAL is sent before its period begins).
 * Null when nothing will change without a new event.
 */
export function nextAccessChange(purchases: readonly PurchaseForAccess[], now: Date): Date | null {
  let next: Date | null = null;
  const consider = (at: Date | null) => {
    if (at !== null && at.getTime() > now.getTime() && (next === null || at.getTime() < next.getTime())) next = at;
  };
  for (const purchase of purchases) {
    if (!purchase.grants_access || purchase.level === null) continue;
    consider(purchase.purchased_at);
    consider(purchase.access_ends_at);
  }
  return next;
}

/**
 * The client's levels after their purchases changed: purchase_access_level always follows the
 * purchases; vod_access_level (the effective one) does too, unless an admin override is still
 * running — then it stays until the override ends. Without an entitling purchase the level is free.
 */
export function accessAfterPurchases(
  client: { vod_access_level: number | null; admin_updated_expiration: Date | null },
  purchaseLevel: number | null,
  freeLevel: number,
  now: Date,
): { purchase_access_level: number | null; vod_access_level: number | null } {
  const overridden = client.admin_updated_expiration !== null && client.admin_updated_expiration.getTime() > now.getTime();
  return { purchase_access_level: purchaseLevel, vod_access_level: overridden ? client.vod_access_level : (purchaseLevel ?? freeLevel) };
}
