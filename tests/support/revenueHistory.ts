import type { EventOptions } from './revenuecatEvents';

export type Body = { api_version: string; event: Record<string, unknown> };
type Make = (type: string, options: EventOptions) => Body;

/** Noon UTC of a day, so no figure sits on a day's edge. */
const noon = (day: string) => new Date(`${day}T12:00:00Z`);
const MONTHLY = 'studio.premium.monthly';
const YEARLY = 'studio.premium.yearly';
const WEEKLY = 'studio.premium.weekly';

/**
 * The history revenue.test.ts works out by hand, one RevenueCat user per client (rc-<name>), each
 * event in the shape of RevenueCat's documented samples. Every period starts and ends at noon.
 */
export function revenueHistory(make: Make): { bodies: Body[]; redelivered: Body[] } {
  const bodies: Body[] = [];
  const period = (
    type: string,
    user: string,
    tx: string,
    from: string,
    to: string | null,
    options: { product?: string; price?: number; original?: string; at?: string; extra?: Record<string, unknown> } = {},
  ) => {
    const body = make(type, {
      at: noon(options.at ?? from),
      appUserId: `rc-${user}`,
      email: null,
      productId: options.product ?? MONTHLY,
      transactionId: `${user}-${tx}`,
      originalTransactionId: `${user}-${options.original ?? '1'}`,
      purchasedAt: noon(from),
      expiresAt: to === null ? null : noon(to),
      extra: { price: options.price ?? 10, price_in_purchased_currency: options.price ?? 10, ...options.extra },
    });
    bodies.push(body);
    return body;
  };

  // m: monthly $10 from 08-05, renewed each month, paid to 12-05.
  period('INITIAL_PURCHASE', 'm', '1', '2026-08-05', '2026-09-05');
  period('RENEWAL', 'm', '2', '2026-09-05', '2026-10-05');
  period('RENEWAL', 'm', '3', '2026-10-05', '2026-11-05');
  period('RENEWAL', 'm', '4', '2026-11-05', '2026-12-05');

  // y: yearly $120 (110 EUR) from 09-10; auto-renew turned off on 10-01, still counted until 2027.
  const eur = { currency: 'EUR', price_in_purchased_currency: 110 };
  period('INITIAL_PURCHASE', 'y', '1', '2026-09-10', '2027-09-10', { product: YEARLY, price: 120, extra: eur });
  period('CANCELLATION', 'y', '1', '2026-09-10', '2027-09-10', {
    product: YEARLY,
    price: 120,
    at: '2026-10-01',
    extra: { ...eur, cancel_reason: 'UNSUBSCRIBE' },
  });

  // tc: a 7-day trial from 10-01 that converts to a weekly $5 on 10-08, renewed weekly to 11-26.
  period('INITIAL_PURCHASE', 'tc', '1', '2026-10-01', '2026-10-08', { product: WEEKLY, price: 0, extra: { period_type: 'TRIAL' } });
  const weeks = ['2026-10-08', '2026-10-15', '2026-10-22', '2026-10-29', '2026-11-05', '2026-11-12', '2026-11-19', '2026-11-26'];
  for (let i = 0; i < weeks.length - 1; i++) {
    period('RENEWAL', 'tc', String(i + 2), weeks[i]!, weeks[i + 1]!, { product: WEEKLY, price: 5, extra: { is_trial_conversion: i === 0 } });
  }

  // tl: a trial from 10-10 that lapses on 10-17.
  period('INITIAL_PURCHASE', 'tl', '1', '2026-10-10', '2026-10-17', { price: 0, extra: { period_type: 'TRIAL' } });
  period('CANCELLATION', 'tl', '1', '2026-10-10', '2026-10-17', { price: 0, at: '2026-10-12', extra: { period_type: 'TRIAL', cancel_reason: 'UNSUBSCRIBE' } });
  period('EXPIRATION', 'tl', '1', '2026-10-10', '2026-10-17', { price: 0, at: '2026-10-17', extra: { period_type: 'TRIAL' } });

  // u: monthly $10 from 09-01, upgraded on 10-15 to yearly $240 (PRODUCT_CHANGE, then its RENEWAL).
  period('INITIAL_PURCHASE', 'u', '1', '2026-09-01', '2026-10-01');
  period('RENEWAL', 'u', '2', '2026-10-01', '2026-11-01');
  period('PRODUCT_CHANGE', 'u', '3', '2026-10-15', '2027-10-15', { product: MONTHLY, price: 240, extra: { new_product_id: YEARLY } });
  period('RENEWAL', 'u', '3', '2026-10-15', '2027-10-15', { product: YEARLY, price: 240 });

  // d: yearly $240 from 06-01, downgraded to monthly $10 on 10-20, renewed on 11-20.
  period('INITIAL_PURCHASE', 'd', '1', '2026-06-01', '2027-06-01', { product: YEARLY, price: 240 });
  period('PRODUCT_CHANGE', 'd', '2', '2026-10-20', '2026-11-20', { product: YEARLY, price: 10, extra: { new_product_id: MONTHLY } });
  period('RENEWAL', 'd', '3', '2026-11-20', '2026-12-20');

  // r: monthly $10 on 10-03, refunded on 10-06 (CANCELLATION, CUSTOMER_SUPPORT, negative price as in RevenueCat's sample).
  period('INITIAL_PURCHASE', 'r', '1', '2026-10-03', '2026-11-03');
  period('CANCELLATION', 'r', '1', '2026-10-03', '2026-10-06', {
    price: -10,
    at: '2026-10-06',
    extra: { cancel_reason: 'CUSTOMER_SUPPORT', price_in_purchased_currency: -10 },
  });

  // s: a sandbox purchase: never counted.
  period('INITIAL_PURCHASE', 's', '1', '2026-10-01', '2026-11-01', { extra: { environment: 'SANDBOX' } });
  period('RENEWAL', 's', '2', '2026-11-01', '2026-12-01', { extra: { environment: 'SANDBOX' } });

  // c: monthly from 08-20, cancelled 10-01, expired 10-20; a new subscription on 11-10 (reactivated).
  period('INITIAL_PURCHASE', 'c', '1', '2026-08-20', '2026-09-20');
  period('RENEWAL', 'c', '2', '2026-09-20', '2026-10-20');
  period('CANCELLATION', 'c', '2', '2026-09-20', '2026-10-20', { at: '2026-10-01', extra: { cancel_reason: 'UNSUBSCRIBE' } });
  period('EXPIRATION', 'c', '2', '2026-09-20', '2026-10-20', { at: '2026-10-20' });
  period('INITIAL_PURCHASE', 'c', '3', '2026-11-10', '2026-12-10', { original: '3' });

  // b: monthly from 09-15; the renewal fails on 10-15 with grace to 10-31, then it expires.
  period('INITIAL_PURCHASE', 'b', '1', '2026-09-15', '2026-10-15');
  period('BILLING_ISSUE', 'b', '1', '2026-09-15', '2026-10-15', { at: '2026-10-15', extra: { grace_period_expiration_at_ms: noon('2026-10-31').getTime() } });
  period('EXPIRATION', 'b', '1', '2026-09-15', '2026-10-31', { at: '2026-10-31', extra: { expiration_reason: 'BILLING_ERROR' } });

  // p: monthly from 09-25, paused on 10-20, so it expires at the period's end 10-25.
  period('INITIAL_PURCHASE', 'p', '1', '2026-09-25', '2026-10-25');
  period('SUBSCRIPTION_PAUSED', 'p', '1', '2026-09-25', '2026-10-25', { at: '2026-10-20' });
  period('EXPIRATION', 'p', '1', '2026-09-25', '2026-10-25', { at: '2026-10-25', extra: { expiration_reason: 'SUBSCRIPTION_PAUSED' } });

  // from → to: monthly from 10-02, renewed 11-02, transferred to another user on 11-15.
  period('INITIAL_PURCHASE', 'from', '1', '2026-10-02', '2026-11-02');
  period('RENEWAL', 'from', '2', '2026-11-02', '2026-12-02');
  bodies.push(make('TRANSFER', { at: noon('2026-11-15'), extra: { transferred_from: ['rc-from'], transferred_to: ['rc-to'] } }));

  // tn: a trial running now (11-20 to 11-27).
  period('INITIAL_PURCHASE', 'tn', '1', '2026-11-20', '2026-11-27', { price: 0, extra: { period_type: 'TRIAL' } });

  // RevenueCat retries with the same event id: stored once.
  return { bodies, redelivered: [bodies[1]!, bodies[5]!, bodies[bodies.length - 2]!] };
}
