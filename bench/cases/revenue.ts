import { timeIt } from '../lib/stats';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

/** Today minus `days`, as a UTC day. */
const daysBack = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * The Revenue area's calls over HTTP on the seeded three years of RevenueCat events: each chart must
 * answer within 100 ms at the 95th percentile (docs/revenue.md: they read the kept daily totals).
 */
export const revenueCase: BenchCase = async ({ client, samples }) => {
  const three = `from=${daysBack(3 * 365)}&to=${daysBack(0)}`;
  const calls: [string, string][] = [
    ['summary', '/api/admin/v1/revenue/summary'],
    ['MRR, 36 months', `/api/admin/v1/revenue/mrr?interval=month&${three}`],
    ['MRR movement, 36 months', `/api/admin/v1/revenue/mrr-movement?interval=month&${three}`],
    ['MRR movement, 3 years of days', `/api/admin/v1/revenue/mrr-movement?interval=day&${three}`],
    ['MRR movement, 3 years of weeks', `/api/admin/v1/revenue/mrr-movement?interval=week&${three}`],
    ['conversion, 36 months', `/api/admin/v1/revenue/conversion?interval=month&${three}`],
    ['churn, 36 months', `/api/admin/v1/revenue/churn?interval=month&${three}`],
    ['revenue, 36 months', `/api/admin/v1/revenue/revenue?interval=month&${three}`],
    ['cancellations, 36 months', `/api/admin/v1/revenue/cancellations?interval=month&${three}`],
    ['paying cohorts, 36', `/api/admin/v1/revenue/cohorts?kind=paying&interval=month&from=${daysBack(3 * 365)}`],
    ['activity cohorts, 36', `/api/admin/v1/revenue/cohorts?kind=active&interval=month&from=${daysBack(3 * 365)}`],
    ['clients churned last month', `/api/client/v1/clients/1?perPage=25&revenue_figure=churned&revenue_from=${daysBack(30)}&revenue_to=${daysBack(0)}`],
  ];
  const results: Figure[] = [];
  for (const [name, url] of calls) {
    const timing = await timeIt(samples, () => client.get(url));
    results.push({
      group: 'revenue',
      name: `${name} (p95)`,
      unit: 'ms' as const,
      target: { kind: 'max' as const, value: 100 },
      value: timing.p95,
      detail: { ...timing, url },
    });
  }
  return results;
};
