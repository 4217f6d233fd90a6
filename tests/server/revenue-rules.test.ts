import { describe, expect, it } from 'vitest';
import { nextPeriod, periodStart, periodStarts, periodsBack } from '@contract/revenueRules';
import { buildHistory, monthlyPrice, readRevenueEvent, DAY_MS } from '../../server/src/revenue/history';
import { monthsBetween } from '../../server/src/revenue/changes';

describe('Revenue rules', () => {
  it('normalizes a price to a month by the length of its period', () => {
    expect(monthlyPrice(120, 365 * DAY_MS)).toBeCloseTo(10, 10); // a year ÷ 12
    expect(monthlyPrice(120, 366 * DAY_MS)).toBeCloseTo(10, 10); // a leap year too
    expect(monthlyPrice(10, 28 * DAY_MS)).toBe(10); // February's month
    expect(monthlyPrice(10, 31 * DAY_MS)).toBe(10);
    expect(monthlyPrice(30, 91 * DAY_MS)).toBe(10); // three months
    expect(monthlyPrice(60, 182 * DAY_MS)).toBe(10); // six months
    expect(monthlyPrice(20, 61 * DAY_MS)).toBe(10); // two months
    expect(monthlyPrice(12, 7 * DAY_MS)).toBe(52); // a week × 52 ÷ 12
    expect(monthlyPrice(12, 14 * DAY_MS)).toBe(26); // two weeks
  });

  it('cuts days into ISO weeks from Monday and calendar months, in UTC', () => {
    expect(periodStart('2026-10-01', 'week')).toBe('2026-09-28'); // a Thursday
    expect(periodStart('2026-09-28', 'week')).toBe('2026-09-28');
    expect(periodStart('2026-10-04', 'week')).toBe('2026-09-28'); // the Sunday after
    expect(periodStart('2026-10-31', 'month')).toBe('2026-10-01');
    expect(nextPeriod('2026-12-01', 'month')).toBe('2027-01-01');
    expect(periodStarts('2026-10-30', '2026-11-02', 'day')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
    expect(periodStarts('2026-01-15', '2026-03-01', 'month')).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
    expect(periodsBack('2026-11-22', 'month', 11)).toBe('2025-12-01');
  });

  it('lists the months a period touches, its end excluded', () => {
    const at = (s: string) => Date.parse(s);
    expect(monthsBetween(at('2026-08-20T12:00:00Z'), at('2026-10-20T12:00:00Z'), Infinity)).toEqual(['2026-08-01', '2026-09-01', '2026-10-01']);
    expect(monthsBetween(at('2026-08-20T12:00:00Z'), at('2026-09-01T00:00:00Z'), Infinity)).toEqual(['2026-08-01']);
  });

  describe('a billing issue', () => {
    const at = (s: string) => Date.parse(s);
    const event = (type: string, when: string, fields: Record<string, unknown>) =>
      readRevenueEvent({
        id: `${type}-${when}`,
        type,
        event_timestamp_ms: at(when),
        environment: 'PRODUCTION',
        product_id: 'monthly',
        period_type: 'NORMAL',
        ...fields,
      });
    const period = (tx: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
      transaction_id: tx,
      original_transaction_id: '1',
      purchased_at_ms: at(from),
      expiration_at_ms: at(to),
      price: 10,
      ...extra,
    });
    const first = period('1', '2026-09-15T12:00:00Z', '2026-10-15T12:00:00Z');
    const issue = event('BILLING_ISSUE', '2026-10-15T12:00:00Z', { ...first, grace_period_expiration_at_ms: at('2026-10-31T12:00:00Z') });
    const ends = (events: ReturnType<typeof readRevenueEvent>[]) =>
      buildHistory(events).periods.map((p) => ({ tx: p.transaction, end: new Date(p.end).toISOString(), refunded: p.refunded }));

    it('keeps its grace period counted when the expiration states the original expiry', () => {
      // RevenueCat's EXPIRATION at the grace's end carries the period's own expiration_at_ms.
      const expired = event('EXPIRATION', '2026-10-31T12:00:00Z', { ...first, expiration_reason: 'BILLING_ERROR' });
      expect(ends([event('INITIAL_PURCHASE', '2026-09-15T12:00:00Z', first), issue, expired])).toEqual([
        { tx: '1', end: '2026-10-31T12:00:00.000Z', refunded: false },
      ]);
      // An expiration before the grace's end stops it there.
      const early = event('EXPIRATION', '2026-10-20T12:00:00Z', { ...first, expiration_reason: 'BILLING_ERROR' });
      expect(ends([event('INITIAL_PURCHASE', '2026-09-15T12:00:00Z', first), issue, early])).toEqual([
        { tx: '1', end: '2026-10-20T12:00:00.000Z', refunded: false },
      ]);
    });

    it('does not bring a period back when the product change that replaced it is refunded', () => {
      const yearly = period('1', '2026-10-19T12:00:00Z', '2026-11-19T12:00:00Z', { price: 24.99 });
      const changed = period('2', '2026-11-02T12:00:00Z', '2026-12-02T12:00:00Z', { price: 14.99 });
      const refund = event('CANCELLATION', '2026-11-14T12:00:00Z', { ...changed, price: -14.99, cancel_reason: 'CUSTOMER_SUPPORT' });
      expect(ends([event('INITIAL_PURCHASE', '2026-10-19T12:00:00Z', yearly), event('PRODUCT_CHANGE', '2026-11-02T12:00:00Z', changed), refund])).toEqual([
        { tx: '1', end: '2026-11-02T12:00:00.000Z', refunded: false },
        { tx: '2', end: '2026-12-02T12:00:00.000Z', refunded: true },
      ]);
    });

    it('ends the grace at the recovery, even when the recovered period is refunded later', () => {
      const recovered = period('2', '2026-10-20T12:00:00Z', '2026-11-20T12:00:00Z');
      const refund = event('CANCELLATION', '2026-10-22T12:00:00Z', { ...recovered, price: -10, cancel_reason: 'CUSTOMER_SUPPORT' });
      expect(ends([event('INITIAL_PURCHASE', '2026-09-15T12:00:00Z', first), issue, event('RENEWAL', '2026-10-20T12:00:00Z', recovered), refund])).toEqual([
        { tx: '1', end: '2026-10-20T12:00:00.000Z', refunded: false },
        { tx: '2', end: '2026-11-20T12:00:00.000Z', refunded: true },
      ]);
    });
  });
});
