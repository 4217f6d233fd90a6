import { describe, expect, it } from 'vitest';
import { nextPeriod, periodStart, periodStarts, periodsBack } from '@contract/revenueRules';
import { monthlyPrice, DAY_MS } from '../../server/src/revenue/history';
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
});
