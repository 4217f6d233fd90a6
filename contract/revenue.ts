import { z } from 'zod';

/**
 * The Revenue area's calls (docs/revenue.md gives each figure's definition). Money is USD as
 * RevenueCat reports `price`, to the cent; each client's MRR is rounded to the cent before it is
 * summed, so every total is the sum of the clients behind it.
 */

export const REVENUE_INTERVALS = ['day', 'week', 'month'] as const;
export const RevenueInterval = z.enum(REVENUE_INTERVALS, { message: 'interval must be day, week or month' });
export type RevenueInterval = z.infer<typeof RevenueInterval>;

/** A chart asks for at most this many periods (three years of days and then some). */
export const MAX_REVENUE_PERIODS = 1200;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day like 2026-11-22');

export const RevenueRangeQuery = z.object({
  interval: RevenueInterval.default('month'),
  from: Day.optional().describe('First day (UTC) of the range; default: 12 periods before `to`'),
  to: Day.optional().describe('Last day (UTC) of the range, included; default: today'),
});
export type RevenueRangeQuery = z.infer<typeof RevenueRangeQuery>;

const usd = z.number();
const CurrencyAmount = z.object({ currency: z.string(), amount: z.number() });

export const RevenueSummary = z.object({
  mrr: z.object({ usd, by_currency: z.array(CurrencyAmount).describe('MRR in the currencies clients pay in, where one is not USD') }),
  active_subscriptions: z.number().int(),
  active_trials: z.number().int(),
  revenue_28d: z.object({ gross_usd: usd, refunds_usd: usd, net_usd: usd }),
  as_of: z.iso.datetime(),
});
export type RevenueSummary = z.infer<typeof RevenueSummary>;

export const MovementPeriod = z.object({
  start: Day,
  starting_usd: usd,
  new_usd: usd,
  expansion_usd: usd,
  contraction_usd: usd,
  churned_usd: usd,
  reactivated_usd: usd,
  net_usd: usd,
  ending_usd: usd,
});
export type MovementPeriod = z.infer<typeof MovementPeriod>;
export const MovementResponse = z.object({ periods: z.array(MovementPeriod), as_of: z.iso.datetime() });
export type MovementResponse = z.infer<typeof MovementResponse>;

export const MrrPoint = z.object({
  start: Day,
  mrr_usd: usd.describe("MRR at the period's end (or now, for the running period)"),
  active_subscriptions: z.number().int(),
  active_trials: z.number().int(),
});
export const MrrResponse = z.object({ periods: z.array(MrrPoint), as_of: z.iso.datetime() });
export type MrrResponse = z.infer<typeof MrrResponse>;

export const ConversionPeriod = z.object({
  start: Day,
  trials_started: z.number().int(),
  converted: z.number().int(),
  rate: z.number().nullable().describe('converted ÷ trials_started; null without trials'),
});
export const ConversionResponse = z.object({ periods: z.array(ConversionPeriod), as_of: z.iso.datetime() });
export type ConversionResponse = z.infer<typeof ConversionResponse>;

export const ChurnPeriod = z.object({
  start: Day,
  active_at_start: z.number().int(),
  ended: z.number().int(),
  rate: z.number().nullable().describe('ended ÷ active_at_start; null when none was active'),
});
export const ChurnResponse = z.object({ periods: z.array(ChurnPeriod), as_of: z.iso.datetime() });
export type ChurnResponse = z.infer<typeof ChurnResponse>;

export const RevenuePeriod = z.object({ start: Day, gross_usd: usd, refunds_usd: usd, net_usd: usd });
export const RevenueResponse = z.object({ periods: z.array(RevenuePeriod), as_of: z.iso.datetime() });
export type RevenueResponse = z.infer<typeof RevenueResponse>;

export const CANCEL_REASONS = ['UNSUBSCRIBE', 'BILLING_ERROR', 'DEVELOPER_INITIATED', 'PRICE_INCREASE', 'CUSTOMER_SUPPORT', 'UNKNOWN'] as const;
export const CancellationPeriod = z.object({ start: Day, total: z.number().int(), reasons: z.record(z.string(), z.number().int()) });
export const CancellationResponse = z.object({ periods: z.array(CancellationPeriod), as_of: z.iso.datetime() });
export type CancellationResponse = z.infer<typeof CancellationResponse>;

export const COHORT_KINDS = ['paying', 'active'] as const;
export const CohortQuery = z.object({
  kind: z.enum(COHORT_KINDS, { message: 'kind must be paying or active' }).default('paying'),
  interval: z.literal('month', { message: 'interval must be month' }).default('month'),
  from: Day.optional().describe('First cohort month (any day in it); default: 12 months back'),
  to: Day.optional().describe('Last cohort month (any day in it); default: this month'),
});
export const Cohort = z.object({ start: Day, size: z.number().int(), retained: z.array(z.number().int()) });
export const CohortResponse = z.object({ cohorts: z.array(Cohort), as_of: z.iso.datetime() });
export type CohortResponse = z.infer<typeof CohortResponse>;

export const BackfillState = z.object({
  job_id: z.number().int().nullable(),
  state: z.enum(['never', 'running', 'done', 'failed']),
  clients_done: z.number().int(),
  clients_total: z.number().int(),
  started_at: z.iso.datetime().nullable(),
  finished_at: z.iso.datetime().nullable(),
});
export type BackfillState = z.infer<typeof BackfillState>;

export { REVENUE_FIGURES, POINT_FIGURES, COHORT_FIGURES, type RevenueFigure } from './revenueRules';
