// Reading RevenueCat webhook events (RevenueCat's event types and fields page; docs/integrations.md) and the rules that turn them into a
// purchase status and an access level. Pure functions: the processor and the tests share them.

export type PurchaseStatus = 'active' | 'cancelled' | 'billing_issue' | 'paused' | 'expired' | 'renewed' | 'refunded';

export interface EventFacts {
  id: string;
  type: string;
  appUserId: string | null;
  originalAppUserId: string | null;
  aliases: string[];
  email: string | null;
  eventAt: Date | null;
  productId: string | null;
  newProductId: string | null;
  entitlementIds: string[];
  transactionId: string | null;
  originalTransactionId: string | null;
  purchasedAt: Date | null;
  expiresAt: Date | null;
  /** Whether the event carries `expiration_at_ms` at all (null there means "no expiry"). */
  expiryGiven: boolean;
  graceEndsAt: Date | null;
  /** Whether the event carries `grace_period_expiration_at_ms` (BILLING_ISSUE only). */
  graceGiven: boolean;
  cancelReason: string | null;
  upsellSource: string | null;
  store: string | null;
  environment: string | null;
  transferredFrom: string[];
  transferredTo: string[];
}

type Raw = Record<string, unknown>;

const str = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(str).filter((item): item is string => item !== null) : []);
const millis = (value: unknown): Date | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return null;
  const date = new Date(number);
  return Number.isNaN(date.getTime()) ? null : date;
};
const attribute = (attributes: unknown, name: string): string | null => {
  if (typeof attributes !== 'object' || attributes === null) return null;
  const entry = (attributes as Raw)[name];
  return typeof entry === 'object' && entry !== null ? str((entry as Raw).value) : str(entry);
};

export function readEvent(event: Raw): EventFacts {
  const appUserId = str(event.app_user_id);
  const attributeEmail = attribute(event.subscriber_attributes, '$email');
  const entitlementIds = strings(event.entitlement_ids);
  const legacyEntitlement = str(event.entitlement_id);
  return {
    id: str(event.id) ?? '',
    type: (str(event.type) ?? '').toUpperCase(),
    appUserId,
    originalAppUserId: str(event.original_app_user_id),
    aliases: strings(event.aliases),
    // Some apps use the e-mail itself as the RevenueCat app user id.
    email: attributeEmail ?? (appUserId && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(appUserId) ? appUserId : null),
    eventAt: millis(event.event_timestamp_ms),
    productId: str(event.product_id),
    newProductId: str(event.new_product_id),
    entitlementIds: entitlementIds.length > 0 ? entitlementIds : legacyEntitlement ? [legacyEntitlement] : [],
    transactionId: str(event.transaction_id),
    originalTransactionId: str(event.original_transaction_id),
    purchasedAt: millis(event.purchased_at_ms),
    expiresAt: millis(event.expiration_at_ms),
    expiryGiven: Object.hasOwn(event, 'expiration_at_ms'),
    graceEndsAt: millis(event.grace_period_expiration_at_ms),
    graceGiven: Object.hasOwn(event, 'grace_period_expiration_at_ms'),
    cancelReason: str(event.cancel_reason),
    // Our app sets an `upsell_source` subscriber attribute; the offering shown is the fallback.
    upsellSource: attribute(event.subscriber_attributes, 'upsell_source') ?? str(event.presented_offering_id),
    store: str(event.store),
    environment: str(event.environment),
    transferredFrom: strings(event.transferred_from),
    transferredTo: strings(event.transferred_to),
  };
}

/** The RevenueCat user ids an event may be filed under, in the order clients are looked up. */
export function candidateUserIds(facts: Pick<EventFacts, 'appUserId' | 'originalAppUserId' | 'aliases'>): string[] {
  return [...new Set([facts.appUserId, facts.originalAppUserId, ...facts.aliases].filter((id): id is string => id !== null))];
}

/** The id to remember on the client: a real one rather than RevenueCat's anonymous id. */
export function preferredUserId(facts: Pick<EventFacts, 'appUserId' | 'originalAppUserId' | 'aliases'>): string | null {
  const ids = candidateUserIds(facts);
  return ids.find((id) => !id.startsWith('$RCAnonymousID:')) ?? ids[0] ?? null;
}

/**
 * Entitlement ids → the highest access level (sort_order) they map to. Matching ignores case;
 * '*' in the mapping stands for any entitlement not listed. Null when nothing maps.
 */
export function entitlementLevel(entitlementIds: readonly string[], levels: Readonly<Record<string, number>>): number | null {
  let best: number | null = null;
  for (const id of entitlementIds) {
    const level = levels[id.toLowerCase()] ?? levels['*'];
    if (level !== undefined && (best === null || level > best)) best = level;
  }
  return best;
}

/** RevenueCat grants a TEMPORARY_ENTITLEMENT_GRANT for at most 24 hours (event-types-and-fields.mdx). */
export const TEMPORARY_GRANT_MS = 24 * 3_600_000;

export type EventEffect =
  /**
   * Upsert the transaction's purchase; `status` null keeps the stored status (new rows start
   * active). `longestMs`: the entitlement ends at most that long after the event.
   */
  { kind: 'purchase'; status: PurchaseStatus | null; longestMs?: number } | { kind: 'transfer' } | { kind: 'test' } | { kind: 'none' };

/**
 * What each event type does to the purchase of its transaction (docs/integrations.md's RevenueCat rule
 * table says the same with links). Access itself always follows the expiry the events carry
 * (entitlement.ts): a status only says what happened last, and whether access stopped at the event
 * (EXPIRATION, a refund).
 */
export function effectOf(facts: Pick<EventFacts, 'type' | 'cancelReason'>): EventEffect {
  switch (facts.type) {
    case 'INITIAL_PURCHASE':
    case 'RENEWAL':
    case 'NON_RENEWING_PURCHASE':
    case 'PRODUCT_CHANGE':
    case 'UNCANCELLATION':
    case 'REFUND_REVERSED':
      return { kind: 'purchase', status: 'active' };
    case 'TEMPORARY_ENTITLEMENT_GRANT':
      return { kind: 'purchase', status: 'active', longestMs: TEMPORARY_GRANT_MS };
    case 'CANCELLATION':
      // CUSTOMER_SUPPORT is RevenueCat's reason for a refund; BILLING_ERROR keeps the grace period.
      if (facts.cancelReason === 'CUSTOMER_SUPPORT') return { kind: 'purchase', status: 'refunded' };
      return { kind: 'purchase', status: facts.cancelReason === 'BILLING_ERROR' ? 'billing_issue' : 'cancelled' };
    case 'EXPIRATION':
      return { kind: 'purchase', status: 'expired' };
    case 'SUBSCRIPTION_PAUSED':
      return { kind: 'purchase', status: 'paused' };
    case 'BILLING_ISSUE':
      return { kind: 'purchase', status: 'billing_issue' };
    case 'SUBSCRIPTION_EXTENDED':
      return { kind: 'purchase', status: null };
    case 'TRANSFER':
      return { kind: 'transfer' };
    case 'TEST':
      return { kind: 'test' };
    default:
      return { kind: 'none' };
  }
}

/** The expiry to store: the event's, shortened to `longestMs` after the event when the type limits it. */
export function storedExpiry(facts: Pick<EventFacts, 'expiresAt' | 'eventAt'>, longestMs: number | undefined, now: Date): Date | null {
  if (longestMs === undefined) return facts.expiresAt;
  const latest = new Date((facts.eventAt ?? now).getTime() + longestMs);
  return facts.expiresAt === null || facts.expiresAt.getTime() > latest.getTime() ? latest : facts.expiresAt;
}
