import { COHORT_FIGURES, POINT_FIGURES, REVENUE_FIGURES, type RevenueFigure } from '@contract/revenueRules';
import type { ClientFilter } from '@contract/clientFilterRules';
import { badRequest } from '../lib/errors';

/** A day means its first instant (UTC). */
const instant = (value: string) => (value.length === 10 ? `${value}T00:00:00Z` : value);
const monthOf = (value: string) => `${value.slice(0, 7)}-01`;

/** Each range figure and the kept change rows behind it (docs/revenue.md#the-clients-behind-a-figure). */
const CHANGE_KIND: Partial<Record<RevenueFigure, string>> = {
  new: 'new',
  expansion: 'expansion',
  contraction: 'contraction',
  churned: 'churned',
  reactivated: 'reactivated',
  subscription_ended: 'subscription_ended',
  trial_started: 'trial_started',
  trial_converted: 'trial_converted',
  refund: 'refund',
  cancellation: 'cancellation',
};

/**
 * The condition on clients `c` that selects exactly the clients counted in a figure: they are read
 * from the same kept rows the figure sums (revenue_changes, revenue_periods, revenue_client_months).
 */
export function revenueFigureCondition(filter: ClientFilter, param: (value: unknown) => string, now: Date): string {
  const figure = filter.revenue_figure as RevenueFigure | undefined;
  if (!figure || !(REVENUE_FIGURES as readonly string[]).includes(figure)) throw badRequest('revenue_from and revenue_to need a revenue_figure');
  const from = filter.revenue_from;
  const to = filter.revenue_to;
  if (!from) throw badRequest(`revenue_figure ${figure} needs revenue_from`);
  if (POINT_FIGURES.includes(figure)) {
    const at = `${param(instant(from))}::timestamptz`;
    const kind = figure === 'paying' ? 'paid' : 'trial';
    return `EXISTS (SELECT 1 FROM revenue_periods rp WHERE rp.client_id = c.id AND rp.kind = '${kind}' AND rp.start_at <= ${at} AND (rp.end_at IS NULL OR rp.end_at > ${at}))`;
  }
  if (!to) throw badRequest(`revenue_figure ${figure} needs revenue_to`);
  if (COHORT_FIGURES.includes(figure)) {
    const kind = figure === 'cohort_paying' ? 'paying' : 'active';
    return `EXISTS (SELECT 1 FROM revenue_client_months rm WHERE rm.client_id = c.id AND rm.kind = '${kind}' AND rm.cohort = ${param(monthOf(from))}::date AND rm.month = ${param(monthOf(to))}::date)`;
  }
  if (instant(from) >= instant(to)) throw badRequest(`revenue_from (${from}) must be before revenue_to (${to})`);
  // A change known ahead (a period's expiry later this month) has not happened yet: the chart stops now too.
  const end = Date.parse(instant(to)) < now.getTime() ? instant(to) : now.toISOString();
  return `EXISTS (SELECT 1 FROM revenue_changes rx WHERE rx.client_id = c.id AND rx.kind = '${CHANGE_KIND[figure]}'
    AND rx.at >= ${param(instant(from))}::timestamptz AND rx.at < ${param(end)}::timestamptz)`;
}
