// One client's subscription history from their stored RevenueCat events (docs/revenue.md): pure
// functions, so the same events in any order and with any duplicates give the same history.

export const DAY_MS = 86_400_000;
/** A renewal that starts within this long after the period before it ended continues the subscription. */
export const RENEWAL_GAP_MS = DAY_MS;

export interface RevenueEvent {
  id: string;
  type: string;
  at: number;
  environment: string | null;
  transactionId: string | null;
  originalTransactionId: string | null;
  productId: string | null;
  newProductId: string | null;
  periodType: string | null;
  purchasedAt: number | null;
  expiresAt: number | null;
  expiryGiven: boolean;
  graceEndsAt: number | null;
  price: number | null;
  priceLocal: number | null;
  currency: string | null;
  cancelReason: string | null;
}

type Raw = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null);
const number = (value: unknown) => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** The fields revenue needs from a webhook body's `event`. */
export function readRevenueEvent(event: Raw): RevenueEvent {
  return {
    id: text(event.id) ?? '',
    type: (text(event.type) ?? '').toUpperCase(),
    at: number(event.event_timestamp_ms) ?? 0,
    environment: text(event.environment)?.toUpperCase() ?? null,
    transactionId: text(event.transaction_id),
    originalTransactionId: text(event.original_transaction_id),
    productId: text(event.product_id),
    newProductId: text(event.new_product_id),
    periodType: text(event.period_type)?.toUpperCase() ?? null,
    purchasedAt: number(event.purchased_at_ms),
    expiresAt: number(event.expiration_at_ms),
    expiryGiven: Object.hasOwn(event, 'expiration_at_ms'),
    graceEndsAt: number(event.grace_period_expiration_at_ms),
    price: number(event.price),
    priceLocal: number(event.price_in_purchased_currency),
    currency: text(event.currency)?.toUpperCase() ?? null,
    cancelReason: text(event.cancel_reason)?.toUpperCase() ?? null,
  };
}

/** Events that state a period's product and price. */
const PURCHASES = new Set(['INITIAL_PURCHASE', 'RENEWAL', 'PRODUCT_CHANGE', 'NON_RENEWING_PURCHASE']);
/** Events about a subscription's period; the rest (TRANSFER, TEST, TEMPORARY_ENTITLEMENT_GRANT …) carry no revenue. */
const PERIOD_EVENTS = new Set([
  ...PURCHASES,
  'UNCANCELLATION',
  'SUBSCRIPTION_EXTENDED',
  'BILLING_ISSUE',
  'CANCELLATION',
  'EXPIRATION',
  'REFUND_REVERSED',
  'SUBSCRIPTION_PAUSED',
]);

export const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * A price normalized to a month from the length of the period it paid for: a week × 52 ÷ 12 (and
 * 2 weeks the half of that), otherwise the price ÷ the whole months the period lasts (a month, 2, 3,
 * 6 months, a year = 12).
 */
export function monthlyPrice(price: number, periodMs: number): number {
  const days = periodMs / DAY_MS;
  if (days < 20) return (price * 52) / 12 / Math.max(1, Math.round(days / 7));
  return price / Math.max(1, Math.round(days / 30.4375));
}

export type PeriodKind = 'paid' | 'trial' | 'other';

export interface Period {
  subscription: string;
  transaction: string;
  kind: PeriodKind;
  product: string | null;
  start: number;
  /** Infinity: no expiry. */
  end: number;
  mrrUsd: number;
  mrrLocal: number;
  currency: string | null;
  priceUsd: number;
  refunded: boolean;
  refundedAt: number | null;
}

interface Draft {
  subscription: string;
  transaction: string;
  start: number | null;
  end: number;
  graceEnd: number | null;
  nominalMs: number | null;
  price: number | null;
  priceLocal: number | null;
  currency: string | null;
  product: string | null;
  periodType: string | null;
  nonRenewing: boolean;
  refundedAt: number | null;
  refundAmount: number | null;
}

export interface Cancellation {
  at: number;
  reason: string;
}

export interface History {
  periods: Period[];
  cancellations: Cancellation[];
}

/** Production events once each, in the order they happened (the event id breaks ties). */
export function orderedEvents(events: readonly RevenueEvent[]): RevenueEvent[] {
  const byId = new Map<string, RevenueEvent>();
  for (const event of events) if (event.environment !== 'SANDBOX' && event.id && !byId.has(event.id)) byId.set(event.id, event);
  return [...byId.values()].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function applyEvent(drafts: Map<string, Draft>, event: RevenueEvent, cancellations: Cancellation[]) {
  if (!PERIOD_EVENTS.has(event.type)) return;
  if (event.type === 'CANCELLATION') cancellations.push({ at: event.at, reason: event.cancelReason ?? 'UNKNOWN' });
  const transaction = event.transactionId ?? `event:${event.id}`;
  let draft = drafts.get(transaction);
  if (!draft) {
    draft = {
      subscription: event.originalTransactionId ?? transaction,
      transaction,
      start: null,
      end: Infinity,
      graceEnd: null,
      nominalMs: null,
      price: null,
      priceLocal: null,
      currency: null,
      product: null,
      periodType: null,
      nonRenewing: false,
      refundedAt: null,
      refundAmount: null,
    };
    drafts.set(transaction, draft);
  }
  if (event.purchasedAt !== null) draft.start ??= event.purchasedAt;
  if (PURCHASES.has(event.type)) {
    if (event.purchasedAt !== null) draft.start = event.purchasedAt;
    if (event.price !== null && event.price >= 0) {
      draft.price = event.price;
      draft.priceLocal = event.priceLocal ?? event.price;
      draft.currency = event.currency;
    }
    draft.product = event.type === 'PRODUCT_CHANGE' ? (event.newProductId ?? event.productId) : event.productId;
    draft.periodType = event.periodType;
    draft.nonRenewing = event.type === 'NON_RENEWING_PURCHASE' || event.periodType === 'PREPAID';
    if (event.purchasedAt !== null && event.expiresAt !== null) draft.nominalMs = event.expiresAt - event.purchasedAt;
  } else {
    // A period known only from a later event (its purchase was never delivered): what that event says.
    draft.product ??= event.productId;
    draft.periodType ??= event.periodType;
    if (draft.price === null && event.price !== null) {
      draft.price = Math.abs(event.price);
      draft.priceLocal = Math.abs(event.priceLocal ?? event.price);
      draft.currency = event.currency;
    }
    if (draft.nominalMs === null && event.purchasedAt !== null && event.expiresAt !== null && event.type !== 'CANCELLATION') {
      draft.nominalMs = event.expiresAt - event.purchasedAt;
    }
  }
  const refund = event.type === 'CANCELLATION' && event.cancelReason === 'CUSTOMER_SUPPORT';
  if (refund) {
    draft.refundedAt = event.at;
    draft.refundAmount = event.price !== null && event.price !== 0 ? Math.abs(event.price) : null;
    return; // the refund's expiry is when access stopped; the period no longer counts at all
  }
  if (event.type === 'REFUND_REVERSED') draft.refundedAt = null;
  if (event.type === 'BILLING_ISSUE') draft.graceEnd = event.graceEndsAt;
  // The grace period was lived through up to the expiration, whichever expiry that event states.
  else if (event.type === 'EXPIRATION') draft.graceEnd = draft.graceEnd === null ? null : Math.min(draft.graceEnd, event.at);
  else if (PURCHASES.has(event.type)) draft.graceEnd = null;
  if (event.expiryGiven) draft.end = event.expiresAt ?? Infinity;
}

function kindOf(draft: Draft): PeriodKind {
  if (draft.periodType === 'TRIAL') return 'trial';
  if (draft.nonRenewing || draft.periodType === 'PROMOTIONAL' || !(draft.price !== null && draft.price > 0)) return 'other';
  return 'paid';
}

/**
 * The client's periods: one per transaction, each ending when RevenueCat's last word on it says
 * (a billing issue's grace period included), cut short by the next period of the same subscription
 * (an upgrade, a downgrade), and joined to it when that one starts within RENEWAL_GAP_MS.
 */
export function buildHistory(events: readonly RevenueEvent[]): History {
  const drafts = new Map<string, Draft>();
  const cancellations: Cancellation[] = [];
  for (const event of orderedEvents(events)) applyEvent(drafts, event, cancellations);
  const periods: Period[] = [];
  const bySubscription = new Map<string, Draft[]>();
  for (const draft of drafts.values()) {
    if (draft.start === null) continue;
    const list = bySubscription.get(draft.subscription) ?? [];
    list.push(draft);
    bySubscription.set(draft.subscription, list);
  }
  for (const list of bySubscription.values()) {
    list.sort((a, b) => a.start! - b.start! || (a.transaction < b.transaction ? -1 : 1));
    const live = list.filter((d) => d.refundedAt === null);
    for (const [index, draft] of list.entries()) {
      // A grace period ends when the subscription's next period begins, even one later refunded.
      const after = list[index + 1];
      const grace = draft.graceEnd === null ? -Infinity : after ? Math.min(draft.graceEnd, Math.max(after.start!, draft.end)) : draft.graceEnd;
      let end = Math.max(draft.end, grace);
      // An upgrade or downgrade replaced this period when the next one began, even if that one was
      // refunded later: the old period does not come back.
      if (after && after.start! < end) end = Math.max(after.start!, draft.start!);
      if (draft.refundedAt === null) {
        const next = live[live.indexOf(draft) + 1];
        if (next && (next.start! < end || next.start! - end <= RENEWAL_GAP_MS)) end = next.start!;
      }
      const kind = kindOf(draft);
      const price = draft.price ?? 0;
      const nominal = draft.nominalMs ?? (Number.isFinite(draft.end) ? draft.end - draft.start! : 30 * DAY_MS);
      periods.push({
        subscription: draft.subscription,
        transaction: draft.transaction,
        kind,
        product: draft.product,
        start: draft.start!,
        end: Math.max(end, draft.start!),
        mrrUsd: kind === 'paid' ? monthlyPrice(price, nominal) : 0,
        mrrLocal: kind === 'paid' ? monthlyPrice(draft.priceLocal ?? price, nominal) : 0,
        currency: draft.currency,
        priceUsd: price > 0 && draft.periodType !== 'TRIAL' ? price : 0,
        refunded: draft.refundedAt !== null,
        refundedAt: draft.refundedAt,
      });
    }
  }
  periods.sort((a, b) => a.start - b.start || (a.transaction < b.transaction ? -1 : 1));
  return { periods, cancellations };
}
