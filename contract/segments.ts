import { z } from 'zod';
import { Client } from './clients';
import { EXACT_TOTAL_CAP } from './clientRules';
import { ClientFilter } from './clientFilter';
import type { ClientFilter as ClientFilterShape } from './clientFilterRules';
import { Int4Id, wholeNumber } from './ids';
import { jsonParam, rangeParam, sortParam } from './raSimpleRest';
import { AT_RISK_DEFAULT_PER_PAGE, AT_RISK_DEPTH, AT_RISK_MAX_PER_PAGE, MAX_SEGMENTS, SEGMENT_NAME_MAX } from './segmentRules';

/**
 * Saved segments (docs/features.md#segments): a client filter under a name, listed under Clients in
 * the sidebar with its count and opened as a client list. ra-data-simple-rest's dialect.
 */

export { AT_RISK_DEFAULT_PER_PAGE, AT_RISK_DEPTH, AT_RISK_MAX_PER_PAGE, MAX_SEGMENTS, SEGMENT_NAME_MAX } from './segmentRules';
/** Clients a preview shows. */
export const PREVIEW_SAMPLE = 5;

export const SegmentName = z.string().trim().min(1, 'name must not be empty').max(SEGMENT_NAME_MAX, `name must be at most ${SEGMENT_NAME_MAX} characters`);

export const Segment = z.object({
  id: z.number().int(),
  name: z.string(),
  filter: ClientFilter,
  count: z.number().int().describe("Clients matching now: exact up to 10,000, above that the planner's estimate"),
  count_is_estimate: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type Segment = z.infer<typeof Segment>;

export const SegmentBody = z.object({ name: SegmentName, filter: ClientFilter }).strict();
export type SegmentBody = z.infer<typeof SegmentBody>;

export const SEGMENT_SORT_FIELDS = ['name', 'id', 'created_at'] as const;
export const SegmentListQuery = z.object({
  sort: sortParam(SEGMENT_SORT_FIELDS).optional(),
  range: rangeParam.optional(),
  filter: jsonParam(z.object({ id: z.array(Int4Id).max(MAX_SEGMENTS).nullish() }).strict(), '{"id":[1,2]}').optional(),
});
export const SegmentParams = z.object({ id: Int4Id });

export const SegmentPreviewBody = z.object({ filter: ClientFilter }).strict();
export const SegmentPreview = z.object({
  count: z.number().int(),
  count_is_estimate: z.boolean().describe("true above 10,000 matches: the planner's estimate"),
  sample: z.array(Client).describe(`The first ${PREVIEW_SAMPLE} matching clients by id`),
});
export type SegmentPreview = z.infer<typeof SegmentPreview>;

/** The at-risk list (docs/features.md#at-risk): active in the `active_days` before the last `quiet_days`, not since. */
export const atRiskFilter = (activeDays: number, quietDays: number): ClientFilterShape => ({
  last_activity_days: activeDays + quietDays,
  no_class_days: quietDays,
  no_stream_days: quietDays,
  // A client staff snoozed is off the list (and out of its broadcast) until the snooze ends.
  snoozed: false,
});

export const AtRiskQuery = z
  .object({
    page: wholeNumber({ min: 1, max: AT_RISK_DEPTH, message: `page must be a whole number from 1 to ${AT_RISK_DEPTH}` }).optional(),
    perPage: wholeNumber({ min: 1, max: AT_RISK_MAX_PER_PAGE, message: `perPage must be a whole number from 1 to ${AT_RISK_MAX_PER_PAGE}` }).optional(),
  })
  .refine(({ page = 1, perPage = AT_RISK_DEFAULT_PER_PAGE }) => page * perPage <= AT_RISK_DEPTH, {
    path: ['page'],
    message: `page × perPage must be at most ${AT_RISK_DEPTH.toLocaleString('en-US')}: the at-risk list is paged through its first ${AT_RISK_DEPTH.toLocaleString('en-US')} clients; reach all of them with its filter (Broadcast, a bulk action or the client list)`,
  });
/** Why a push cannot reach a client: no device report from the app, reports without a token, or only tokens FCM declared dead. */
export const UNREACHABLE_REASONS = ['no_app', 'no_token', 'tokens_dead'] as const;
export const UnreachableReason = z.enum(UNREACHABLE_REASONS);
export type UnreachableReason = z.infer<typeof UnreachableReason>;
export const AtRiskClient = Client.extend({
  paid: z.boolean().describe('on a paid access level'),
  active_contract: z.boolean().describe('a Mindbody contract running now'),
  last_active_at: z.iso.datetime().nullable().describe('the last signed-in class or stream'),
  last_contacted_at: z.iso
    .datetime()
    .nullable()
    .describe('the last push that reached a device (staff, automated or broadcast) or contact staff logged (called, texted, left a message)'),
  reachable: z.boolean().describe('a push can reach the client now: a usable device token (as the push itself chooses them)'),
  unreachable_reason: UnreachableReason.nullable().describe(
    'why not: no_app (no device report), no_token (reports without a token), tokens_dead (FCM declared every token dead)',
  ),
});
export type AtRiskClient = z.infer<typeof AtRiskClient>;
export const AtRiskPage = z.object({
  clients: z
    .array(AtRiskClient)
    .describe('most valuable first: paid level, higher level, a running contract, then the most recently active first (then by id)'),
  total: z
    .number()
    .int()
    .describe(`exact up to ${EXACT_TOTAL_CAP.toLocaleString('en-US')}; above that the planner's estimate (total_is_estimate)`),
  total_is_estimate: z.boolean(),
  page: z.number().int(),
  perPage: z.number().int(),
  active_days: z.number().int(),
  quiet_days: z.number().int(),
  filter: ClientFilter.describe('the same list as a client filter, for a broadcast or a bulk action'),
});
export type AtRiskPage = z.infer<typeof AtRiskPage>;
