import type { Body } from './revenueHistory';

/**
 * Seeded random subscription histories for the Revenue area's generated tests: what happened to
 * each client (the truth: their paid and trial periods, refunds, cancellations) and the RevenueCat
 * webhook bodies that report it, in the shape of RevenueCat's documented sample events. The truth
 * is written down as the history is made, never read back from the events, so a test can work
 * out the expected figures from it independently of the code under test.
 */

const DAY = 86_400_000;

/** mulberry32: a small, well-known seeded generator (the same seed gives the same histories). */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
    /** A time in [from, to), to the millisecond. */
    time: (from: number, to: number) => from + Math.floor(next() * (to - from)),
  };
}
export type Random = ReturnType<typeof seeded>;

export interface Product {
  id: string;
  unit: 'week' | 'month' | 'year';
  usd: number;
}
export const PRODUCTS: readonly Product[] = [
  { id: 'studio.weekly', unit: 'week', usd: 4.99 },
  { id: 'studio.monthly', unit: 'month', usd: 14.99 },
  { id: 'studio.monthly.plus', unit: 'month', usd: 24.99 },
  { id: 'studio.yearly', unit: 'year', usd: 119.99 },
  { id: 'studio.yearly.plus', unit: 'year', usd: 199.99 },
];

/** One period as it happened: who paid (or trialled) what, from when to when. */
export interface TruthPeriod {
  client: string;
  subscription: string;
  kind: 'paid' | 'trial';
  product: Product;
  start: number;
  /** When it really stopped counting: expiry, grace end, an upgrade, a recovery. */
  end: number;
  /** Price paid in USD, and in the purchased currency. */
  usd: number;
  local: number;
  currency: string;
  refundedAt: number | null;
}

export interface Truth {
  /** The clients (by name) as the studio knows them: RevenueCat id rc-<name>. */
  clients: string[];
  periods: TruthPeriod[];
  cancellations: { client: string; at: number; reason: string }[];
  /** Streams (video views) per client, for activity cohorts. */
  views: { client: string; at: number }[];
}

/** Adds a product's period length to a purchase instant (calendar months, like the stores). */
export function periodEnd(start: number, product: Product): number {
  if (product.unit === 'week') return start + 7 * DAY;
  const d = new Date(start);
  const months = product.unit === 'month' ? 1 : 12;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

const EUR_RATE = 0.92;
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Generated histories from `from` to `now`: `count` clients with one or two subscriptions each
 * (monthly, yearly, weekly; trials that convert or lapse; upgrades and downgrades; refunds; billing
 * issues with grace that recover or lapse; pauses that resume or not; cancellations, some taken
 * back), a transfer between two users, sandbox-only clients. Every event happens by `now`.
 */
export function generateHistories(seed: number, count: number, from: number, now: number) {
  const rng = seeded(seed);
  const truth: Truth = { clients: [], periods: [], cancellations: [], views: [] };
  const events: Body[] = [];
  let sequence = 0;

  const emit = (
    type: string,
    user: string,
    at: number,
    fields: { tx: string; original: string; product: Product; start: number; end: number | null; usd: number; local: number; currency: string },
    extra: Record<string, unknown> = {},
  ) => {
    if (at > now) return;
    sequence++;
    events.push({
      api_version: '1.0',
      event: {
        id: `gen-${seed}-${sequence}`,
        type,
        app_id: 'app5f2c1d9e',
        event_timestamp_ms: at,
        environment: 'PRODUCTION',
        store: 'APP_STORE',
        product_id: fields.product.id,
        period_type: 'NORMAL',
        purchased_at_ms: fields.start,
        expiration_at_ms: fields.end,
        entitlement_id: null,
        entitlement_ids: ['premium'],
        presented_offering_id: null,
        transaction_id: fields.tx,
        original_transaction_id: fields.original,
        is_family_share: false,
        country_code: fields.currency === 'EUR' ? 'DE' : 'US',
        app_user_id: `rc-${user}`,
        aliases: [`rc-${user}`],
        original_app_user_id: `rc-${user}`,
        currency: fields.currency,
        price: fields.usd,
        price_in_purchased_currency: fields.local,
        subscriber_attributes: {},
        takehome_percentage: 0.7,
        tax_percentage: 0.0,
        commission_percentage: 0.3,
        offer_code: null,
        ...extra,
      },
    });
  };

  /** One subscription of `owner` (its events sent as `user` before `switchAt`, as `switchTo` after). */
  const subscription = (owner: string, name: string, startAt: number, user: (at: number) => string) => {
    let product = rng.pick(PRODUCTS);
    const currency = rng.chance(0.25) ? 'EUR' : 'USD';
    const prices = (p: Product) => ({ usd: p.usd, local: currency === 'EUR' ? round2(p.usd * EUR_RATE) : p.usd, currency });
    const original = `${name}-1`;
    let txn = 0;
    const nextTx = () => `${name}-${++txn}`;
    let start = startAt;
    let purchase = 'INITIAL_PURCHASE';
    let purchaseExtra: Record<string, unknown> = {};

    if (rng.chance(0.3)) {
      const tx = nextTx();
      const end = start + 7 * DAY;
      const trial = { tx, original, product, start, end, usd: 0, local: 0, currency };
      emit('INITIAL_PURCHASE', user(start), start, trial, { period_type: 'TRIAL' });
      const lapses = rng.chance(0.5) || end > now;
      truth.periods.push({ client: owner, subscription: original, kind: 'trial', product, start, end, usd: 0, local: 0, currency, refundedAt: null });
      if (lapses) {
        const cancelAt = rng.time(start, end);
        if (cancelAt <= now) truth.cancellations.push({ client: owner, at: cancelAt, reason: 'UNSUBSCRIBE' });
        emit('CANCELLATION', user(cancelAt), cancelAt, trial, { period_type: 'TRIAL', cancel_reason: 'UNSUBSCRIBE' });
        emit('EXPIRATION', user(end), end, trial, { period_type: 'TRIAL', expiration_reason: 'UNSUBSCRIBE' });
        return;
      }
      start = end;
      purchase = 'RENEWAL';
      purchaseExtra = { is_trial_conversion: true };
    }

    for (let n = 0; start <= now; n++) {
      const tx = nextTx();
      const end = periodEnd(start, product);
      const money = prices(product);
      const fields = { tx, original, product, start, end, ...money };
      emit(purchase, user(start), start, fields, purchaseExtra);
      if (purchase === 'PRODUCT_CHANGE' && rng.chance(0.5)) emit('RENEWAL', user(start), start + 1000, fields);
      const period: TruthPeriod = { client: owner, subscription: original, kind: 'paid', product, start, end, ...money, refundedAt: null };
      truth.periods.push(period);
      purchase = 'RENEWAL';
      purchaseExtra = {};

      // What happens during this period (a long subscription is cancelled in the end).
      const during = rng.time(start + DAY, end - DAY);
      const roll = n >= 7 ? 0.99 : rng.next();
      if (roll < 0.6 || during > now) {
        start = end;
      } else if (roll < 0.68) {
        // An upgrade or downgrade, at once: a new transaction of the same subscription.
        product = rng.pick(PRODUCTS.filter((p) => p !== product));
        period.end = during;
        start = during;
        purchase = 'PRODUCT_CHANGE';
        purchaseExtra = { product_id: fields.product.id, new_product_id: product.id };
      } else if (roll < 0.74) {
        // A refund: the period no longer counts, access stops, the subscription ends.
        period.refundedAt = during;
        truth.cancellations.push({ client: owner, at: during, reason: 'CUSTOMER_SUPPORT' });
        emit('CANCELLATION', user(during), during, { ...fields, end: during, usd: -money.usd, local: -money.local }, { cancel_reason: 'CUSTOMER_SUPPORT' });
        return;
      } else if (roll < 0.82) {
        // A billing issue at the renewal with 16 days of grace: recovered (a renewal) or lost.
        if (end > now) {
          start = end;
          continue;
        }
        const graceEnd = end + 16 * DAY;
        emit('BILLING_ISSUE', user(end), end, fields, { grace_period_expiration_at_ms: graceEnd });
        if (rng.chance(0.5)) {
          const recovered = rng.time(end + DAY, graceEnd - DAY);
          period.end = recovered <= now ? recovered : graceEnd;
          start = recovered;
        } else {
          period.end = graceEnd;
          emit('EXPIRATION', user(graceEnd), graceEnd, { ...fields, end: rng.chance(0.5) ? end : graceEnd }, { expiration_reason: 'BILLING_ERROR' });
          return;
        }
      } else if (roll < 0.88) {
        // Paused (Google Play): counted to the period's end, then back after a month or two, or not.
        emit('SUBSCRIPTION_PAUSED', user(during), during, fields, { auto_resume_at_ms: end + 45 * DAY });
        emit('EXPIRATION', user(end), end, fields, { expiration_reason: 'SUBSCRIPTION_PAUSED' });
        if (!rng.chance(0.6)) return;
        start = end + rng.int(30, 60) * DAY + rng.int(0, DAY);
      } else {
        // Auto-renew turned off: counted until it expires; sometimes turned on again.
        truth.cancellations.push({ client: owner, at: during, reason: 'UNSUBSCRIBE' });
        emit('CANCELLATION', user(during), during, fields, { cancel_reason: 'UNSUBSCRIBE' });
        if (n < 7 && rng.chance(0.3)) {
          emit('UNCANCELLATION', user(during + DAY / 2), during + DAY / 2, fields);
          start = end;
          continue;
        }
        emit('EXPIRATION', user(end), end, fields, { expiration_reason: 'UNSUBSCRIBE' });
        return;
      }
    }
  };

  const span = now - from;
  for (let i = 0; i < count; i++) {
    const name = `g${i}`;
    truth.clients.push(name);
    const first = rng.time(from, now - 3 * DAY);
    subscription(name, `${name}a`, first, () => name);
    // A second subscription of the same client now and then: their MRR adds up.
    if (rng.chance(0.25)) subscription(name, `${name}b`, rng.time(first, now - DAY), () => name);
    for (let v = rng.int(0, 4); v > 0; v--) truth.views.push({ client: name, at: rng.time(from, now) });
  }

  // A transfer: rc-tfrom's purchases move to rc-tto on `moved`; later renewals come as rc-tto. All of it is tto's.
  truth.clients.push('tfrom', 'tto');
  const moved = now - Math.floor(span / 4);
  subscription('tto', 'tfa', rng.time(from, moved - 60 * DAY), (at) => (at < moved ? 'tfrom' : 'tto'));
  sequence++;
  events.push({
    api_version: '1.0',
    event: {
      id: `gen-${seed}-${sequence}`,
      type: 'TRANSFER',
      app_id: 'app5f2c1d9e',
      event_timestamp_ms: moved,
      environment: 'PRODUCTION',
      store: 'APP_STORE',
      transferred_from: ['rc-tfrom'],
      transferred_to: ['rc-tto'],
    },
  });

  // Sandbox: a tester's whole history, and a sandbox purchase of a real client; neither counts.
  truth.clients.push('sandbox');
  const before = events.length;
  const kept = truth.periods.length;
  const keptCancellations = truth.cancellations.length;
  subscription('sandbox', 'sba', rng.time(from, now - 3 * DAY), () => 'sandbox');
  subscription('g0', 'sbb', rng.time(from, now - 3 * DAY), () => 'g0');
  for (const body of events.slice(before)) body.event.environment = 'SANDBOX';
  truth.periods.length = kept;
  truth.cancellations.length = keptCancellations;

  return { truth, events };
}

/** The bodies in a seeded shuffled order with some delivered twice (RevenueCat retries with the same id). */
export function asDeliveredOutOfOrder(seed: number, bodies: readonly Body[]): Body[] {
  const rng = seeded(seed ^ 0x5bd1e995);
  const list = [...bodies, ...bodies.filter(() => rng.chance(0.15))];
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
