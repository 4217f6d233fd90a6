import { z } from 'zod';

/** The three dashboard figures of the spec's 'Stats result'. */
export const StatsFigure = z.enum(['subscribers', 'daily_plays', 'most_popular']);
export type StatsFigure = z.infer<typeof StatsFigure>;

/** One figure that could not be computed; the console says so on its card, with this message. */
export const StatsError = z.object({ figure: StatsFigure, message: z.string() });
export type StatsError = z.infer<typeof StatsError>;

/**
 * GET /api/stats/v1. Every figure is null exactly when `errors` names it.
 * - subscribers: clients whose effective VOD access level now is a paid one;
 * - daily_plays: plays over the last 30 full UTC days divided by 30, rounded to a whole number;
 * - most_popular: name of the category with the most plays over those same 30 days.
 */
export const StatsResponse = z.object({
  errors: z.array(StatsError),
  result: z.object({
    subscribers: z.number().int().nullable(),
    daily_plays: z.number().int().nullable(),
    most_popular: z.string().nullable(),
  }),
});
export type StatsResponse = z.infer<typeof StatsResponse>;
export type StatsResult = StatsResponse['result'];

/** A UTC calendar day, YYYY-MM-DD. */
export const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day like 2026-11-22');

export const DailyPlaysPoint = z.object({ day: IsoDay, plays: z.number().int() });
export type DailyPlaysPoint = z.infer<typeof DailyPlaysPoint>;

export const PaidSubscribersPoint = z.object({ at: z.iso.datetime(), subscribers: z.number().int() });
export type PaidSubscribersPoint = z.infer<typeof PaidSubscribersPoint>;

/**
 * GET /api/admin/v1/stats/trends (our extension): the trend behind the dashboard figures.
 * - daily_plays: the 30 full UTC days the daily_plays figure averages, oldest first, days without plays as 0;
 * - paid_subscribers: the subscribers figure at now and at each of the 12 weeks before, oldest first.
 */
export const StatsTrendsResponse = z.object({
  daily_plays: z.array(DailyPlaysPoint),
  paid_subscribers: z.array(PaidSubscribersPoint),
});
export type StatsTrendsResponse = z.infer<typeof StatsTrendsResponse>;
