import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { revenueFilterWords } from '../../src/clients/revenueFilterWords';
import { describeClientFilter } from '../../src/segments/filterWords';

const translate = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);
const words = (filter: Record<string, unknown>) => revenueFilterWords(filter, translate);

describe('a Revenue figure in words', () => {
  it('names the figure and its period: a month, a day, an ISO week, or a range', () => {
    expect(words({ revenue_figure: 'churned', revenue_from: '2026-10-01', revenue_to: '2026-11-01' })).toBe('Churned in October 2026');
    expect(words({ revenue_figure: 'new', revenue_from: '2026-12-01', revenue_to: '2027-01-01' })).toBe('New paying clients in December 2026');
    expect(words({ revenue_figure: 'refund', revenue_from: '2026-10-05', revenue_to: '2026-10-06' })).toBe('Refunded on Oct 5, 2026');
    // 2026-09-28 is a Monday: the week interval's period.
    expect(words({ revenue_figure: 'cancellation', revenue_from: '2026-09-28', revenue_to: '2026-10-05' })).toBe('Cancelled in the week of Sep 28, 2026');
    // Any other range reads from its first to its last day (the end is excluded).
    expect(words({ revenue_figure: 'trial_started', revenue_from: '2026-10-03', revenue_to: '2026-10-10' })).toBe(
      'Trial started from Oct 3, 2026 to Oct 9, 2026',
    );
  });

  it('names a moment and a cohort', () => {
    expect(words({ revenue_figure: 'paying', revenue_from: '2026-11-22' })).toBe('Paying on Nov 22, 2026');
    expect(words({ revenue_figure: 'trialing', revenue_from: '2026-11-22T12:00:00Z' })).toBe('On a trial on Nov 22, 2026, 12:00 UTC');
    expect(words({ revenue_figure: 'cohort_paying', revenue_from: '2026-09-01', revenue_to: '2026-11-01' })).toBe(
      'First paid in September 2026, paying in November 2026',
    );
    expect(words({ revenue_figure: 'cohort_active', revenue_from: '2026-08-01', revenue_to: '2026-10-01' })).toBe(
      'First paid in August 2026, active in October 2026',
    );
  });

  it('says nothing for a filter without a figure or with a broken one', () => {
    expect(words({})).toBeNull();
    expect(words({ revenue_figure: 'everything', revenue_from: '2026-10-01', revenue_to: '2026-11-01' })).toBeNull();
    expect(words({ revenue_figure: 'churned', revenue_from: '2026-10-01' })).toBeNull();
    expect(words({ revenue_figure: 'churned', revenue_from: 'soon', revenue_to: '2026-11-01' })).toBeNull();
  });

  it("reads once in a segment's filter words", () => {
    const filter = { status: ['Active'], revenue_figure: 'churned', revenue_from: '2026-10-01', revenue_to: '2026-11-01' };
    expect(describeClientFilter(filter, translate, () => undefined)).toBe('Status: Active; Churned in October 2026');
  });
});
