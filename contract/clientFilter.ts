import { z } from 'zod';
import {
  CLIENT_STATUSES,
  MAX_ACTIVITY_DAYS,
  MAX_FILTER_VALUES,
  MAX_STATUS_LENGTH,
  QUICK_FILTER_MAX,
  type ClientFilter as ClientFilterShape,
} from './clientFilterRules';
import { MAX_OVERRIDE_DAYS } from './clientRules';
import { INT4_MAX } from './ids';
import { Tag } from './notes';
import { OUTCOME_FILTER } from './outcomeRules';
import { REVENUE_FIGURES } from './revenueRules';

export * from './clientFilterRules';

const statusText = z.string().trim().min(1, 'status must not be empty').max(MAX_STATUS_LENGTH, `status must be at most ${MAX_STATUS_LENGTH} characters`);
const levelNumber = z
  .number({ message: "vod_access_level must be a whole number (a level's sort_order, 0 for none)" })
  .int("vod_access_level must be a whole number (a level's sort_order, 0 for none)")
  .min(0, 'vod_access_level must be 0 or more')
  .max(INT4_MAX, `vod_access_level must be at most ${INT4_MAX}`);
const endsWithin = z
  .number({ message: `override_ends_within_days must be a whole number from 1 to ${MAX_OVERRIDE_DAYS}` })
  .int(`override_ends_within_days must be a whole number from 1 to ${MAX_OVERRIDE_DAYS}`)
  .min(1, `override_ends_within_days must be a whole number from 1 to ${MAX_OVERRIDE_DAYS}`)
  .max(MAX_OVERRIDE_DAYS, `override_ends_within_days must be a whole number from 1 to ${MAX_OVERRIDE_DAYS}`);
const activityDays = (name: string) =>
  z
    .number({ message: `${name} must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}` })
    .int(`${name} must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`)
    .min(1, `${name} must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`)
    .max(MAX_ACTIVITY_DAYS, `${name} must be a whole number from 1 to ${MAX_ACTIVITY_DAYS}`);
const revenueFigure = z.enum(REVENUE_FIGURES, { message: `revenue_figure must be one of ${REVENUE_FIGURES.join(', ')}` });
const revenueMoment = (name: string) =>
  z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/, `${name} must be a day like 2026-10-01 or an instant like 2026-10-01T12:00:00Z`);
const quickFilter = z.string().trim().max(QUICK_FILTER_MAX, `q must be at most ${QUICK_FILTER_MAX} characters`);
const oneOrMore = <T extends z.ZodType>(item: T, name: string) =>
  z.array(item).min(1, `${name} needs at least one value`).max(MAX_FILTER_VALUES, `${name} takes at most ${MAX_FILTER_VALUES} values`);

const outcomeGroup = z.string().max(80).regex(OUTCOME_FILTER, 'outcome must be like broadcast:12:converted or automated:3:2026-11-23:held_out');

const descriptions = {
  q: 'Quick filter: part of the first name, last name or e-mail (case-insensitive)',
  status: `Any of these statuses, exactly as stored (Mindbody's: ${CLIENT_STATUSES.join(', ')}; Pending = none)`,
  vod_access_level: "Any of these access levels (a level's sort_order; 0 = no level)",
  new: 'true: first login within the last 30 days; false: earlier or never',
  mindbody: 'true: linked to Mindbody (a Mindbody id longer than 2 characters); false: not linked',
  override_running: 'true: an admin override of the access level is running now; false: none is',
  override_ends_within_days: `A running override that ends within this many days (1-${MAX_OVERRIDE_DAYS})`,
  last_class_days: 'A signed-in class (Mindbody visit) within the last N days',
  no_class_days: 'No signed-in class within the last N days',
  last_stream_days: 'A video view (stream) within the last N days',
  no_stream_days: 'No video view within the last N days',
  last_activity_days: 'A signed-in class or a stream within the last N days',
  app_installed: 'true: the app reported a usable device token (not a placeholder, not declared dead by FCM); false: none',
  opted_out: 'true: opted out of automated messages; false: not',
  outcome:
    "The clients behind one number of a message's results: broadcast:<id>:<group> or automated:<type>:<Monday>:<group>, group one of clients, sent, opened, converted, held_out, held_out_converted",
  revenue_figure: `The clients behind a Revenue figure: ${REVENUE_FIGURES.join(', ')} (docs/revenue.md#the-clients-behind-a-figure)`,
  revenue_from: "The figure's start, a day (YYYY-MM-DD, UTC) or an instant; the moment of paying/trialing; the cohort month of cohort_*",
  revenue_to: "The figure's end (excluded), a day or an instant; the month counted of cohort_*",
  snoozed: 'true: snoozed off the at-risk list now (POST /api/admin/v1/clients/{id}/snooze); false: not',
  tag: 'Carries any of these tags (issue 24; case-insensitive, as PUT /api/admin/v1/clients/{id}/tags stores them)',
};

/**
 * The client filter as JSON (a saved segment's definition, a request body): typed values. Every
 * part is optional and they combine with AND; the values of one part combine with OR.
 */
export const ClientFilter = z
  .object({
    q: quickFilter.optional().describe(descriptions.q),
    status: oneOrMore(statusText, 'status').optional().describe(descriptions.status),
    vod_access_level: oneOrMore(levelNumber, 'vod_access_level').optional().describe(descriptions.vod_access_level),
    new: z.boolean().optional().describe(descriptions.new),
    mindbody: z.boolean().optional().describe(descriptions.mindbody),
    override_running: z.boolean().optional().describe(descriptions.override_running),
    override_ends_within_days: endsWithin.optional().describe(descriptions.override_ends_within_days),
    last_class_days: activityDays('last_class_days').optional().describe(descriptions.last_class_days),
    no_class_days: activityDays('no_class_days').optional().describe(descriptions.no_class_days),
    last_stream_days: activityDays('last_stream_days').optional().describe(descriptions.last_stream_days),
    no_stream_days: activityDays('no_stream_days').optional().describe(descriptions.no_stream_days),
    last_activity_days: activityDays('last_activity_days').optional().describe(descriptions.last_activity_days),
    app_installed: z.boolean().optional().describe(descriptions.app_installed),
    opted_out: z.boolean().optional().describe(descriptions.opted_out),
    snoozed: z.boolean().optional().describe(descriptions.snoozed),
    tag: oneOrMore(Tag, 'tag').optional().describe(descriptions.tag),
    outcome: outcomeGroup.optional().describe(descriptions.outcome),
    revenue_figure: revenueFigure.optional().describe(descriptions.revenue_figure),
    revenue_from: revenueMoment('revenue_from').optional().describe(descriptions.revenue_from),
    revenue_to: revenueMoment('revenue_to').optional().describe(descriptions.revenue_to),
  })
  .strict() satisfies z.ZodType<ClientFilterShape>;
export type ClientFilter = z.infer<typeof ClientFilter>;

/** A query value given once, repeated (`?status=A&status=B`) or comma-separated (`?status=A,B`). */
const listInQuery = (value: unknown) => {
  if (value === undefined) return undefined;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((item) => (typeof item === 'string' ? item.split(',') : [item])).filter((part) => part !== '');
  // `?status=` is no status filter, as an empty search box is no search.
  return parts.length ? parts : undefined;
};
const numbersInQuery = (value: unknown) => listInQuery(value)?.map((part) => (typeof part === 'string' && /^[0-9]{1,10}$/.test(part) ? Number(part) : part));
const booleanInQuery = (name: string) => z.enum(['true', 'false'], { message: `${name} must be true or false` }).transform((value) => value === 'true');
const numberInQuery = (value: unknown) => (typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value);
const daysInQuery = (name: string) => z.preprocess(numberInQuery, activityDays(name).optional());

/** The same filter as query parameters (a list page, its export): text in, the typed filter out. */
export const ClientFilterQuery = z.object({
  q: quickFilter.optional().describe(descriptions.q),
  status: z
    .preprocess(listInQuery, oneOrMore(statusText, 'status').optional())
    .describe(`${descriptions.status}; repeat the parameter or separate values with commas`),
  vod_access_level: z
    .preprocess(numbersInQuery, oneOrMore(levelNumber, 'vod_access_level').optional())
    .describe(`${descriptions.vod_access_level}; repeat the parameter or separate values with commas`),
  new: booleanInQuery('new').optional().describe(descriptions.new),
  mindbody: booleanInQuery('mindbody').optional().describe(descriptions.mindbody),
  override_running: booleanInQuery('override_running').optional().describe(descriptions.override_running),
  override_ends_within_days: z.preprocess(numberInQuery, endsWithin.optional()).describe(descriptions.override_ends_within_days),
  last_class_days: daysInQuery('last_class_days').describe(descriptions.last_class_days),
  no_class_days: daysInQuery('no_class_days').describe(descriptions.no_class_days),
  last_stream_days: daysInQuery('last_stream_days').describe(descriptions.last_stream_days),
  no_stream_days: daysInQuery('no_stream_days').describe(descriptions.no_stream_days),
  last_activity_days: daysInQuery('last_activity_days').describe(descriptions.last_activity_days),
  app_installed: booleanInQuery('app_installed').optional().describe(descriptions.app_installed),
  opted_out: booleanInQuery('opted_out').optional().describe(descriptions.opted_out),
  snoozed: booleanInQuery('snoozed').optional().describe(descriptions.snoozed),
  tag: z.preprocess(listInQuery, oneOrMore(Tag, 'tag').optional()).describe(`${descriptions.tag}; repeat the parameter or separate values with commas`),
  outcome: outcomeGroup.optional().describe(descriptions.outcome),
  revenue_figure: revenueFigure.optional().describe(descriptions.revenue_figure),
  revenue_from: revenueMoment('revenue_from').optional().describe(descriptions.revenue_from),
  revenue_to: revenueMoment('revenue_to').optional().describe(descriptions.revenue_to),
});

/** The filter part of a parsed list query, without its undefined and empty parts. */
export function filterOf(query: Partial<Record<keyof ClientFilter, unknown>>): ClientFilter {
  const filter: Record<string, unknown> = {};
  for (const key of Object.keys(ClientFilter.shape) as (keyof ClientFilter)[]) {
    const value = query[key];
    if (value !== undefined && value !== '') filter[key] = value;
  }
  return filter as ClientFilter;
}
