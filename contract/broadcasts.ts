import { z } from 'zod';
import { ClientFilter } from './clientFilter';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from './clientRules';
import { Id, Int4Id } from './ids';
import { unknownPlaceholders } from './placeholders';
import { Goal, GoalKind, HoldoutPercent } from './outcomes';
import {
  PICK_WINNER_HOURS_DEFAULT,
  PICK_WINNER_HOURS_MAX,
  PICK_WINNER_HOURS_MIN,
  TEST_PERCENT_DEFAULT,
  TEST_PERCENT_MAX,
  TEST_PERCENT_MIN,
  VARIANTS_MAX,
  VARIANTS_MIN,
  WINNER_METRICS,
  WINNER_REASONS,
} from './outcomeRules';
import { jsonParam, rangeParam } from './raSimpleRest';

/**
 * Broadcasts (docs/automation.md#broadcasts): one push to the clients of a segment or a filter, now,
 * later or kept as a draft; and bulk pushes to clients picked on a list. Each client's text has its
 * {first_name} and {last_name} filled in.
 */

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export const BROADCAST_SKIP_REASONS = ['opted_out', 'daily_cap', 'no_token'] as const;
/**
 * Why a recipient failed: 'unregistered' (FCM: the app is gone), 'gave_up' (FCM kept asking to wait,
 * given up after the last retry), 'interrupted' (the server stopped while its request was out, it may
 * have been delivered, and the client has no device token left to send it again under the same collapse
 * key), or FCM's own error code (INVALID_ARGUMENT, timeout, ...).
 */
export const BROADCAST_FAILURE_REASONS = ['unregistered', 'gave_up', 'interrupted'] as const;
/** A broadcast's own pace (OneSignal-style throttling): at most this many pushes a minute. */
export const MAX_PER_MINUTE_LIMIT = 600_000;
/** Clients picked one by one on a list (a bulk action on selected rows): a page at most. */
export const MAX_PICKED_CLIENTS = 500;

const placeholdersKnown = (text: string) => unknownPlaceholders(text).length === 0;
const Title = z.string({ message: 'title must be text' }).trim().max(PUSH_TITLE_MAX, `title must be at most ${PUSH_TITLE_MAX} characters`).default('');
const Body = z
  .string({ message: 'body is required: the message text' })
  .trim()
  .min(1, 'body must not be empty')
  .max(PUSH_BODY_MAX, `body must be at most ${PUSH_BODY_MAX} characters`)
  .refine(placeholdersKnown, { message: 'body has a placeholder nothing fills (use {first_name} or {last_name})' });

const Message = { title: Title.refine(placeholdersKnown, { message: 'title has a placeholder nothing fills' }), body: Body };

const wholeFrom = (field: string, min: number, max: number) => {
  const message = `${field} must be a whole number from ${min} to ${max}`;
  return z.number({ message }).int(message).min(min, message).max(max, message);
};

/** One version of a broadcast's text: both a title and a message (a version without a title would not tell). */
export const Variant = z
  .object({
    title: z
      .string({ message: 'title must be text' })
      .trim()
      .min(1, 'title must not be empty')
      .max(PUSH_TITLE_MAX, `title must be at most ${PUSH_TITLE_MAX} characters`)
      .refine(placeholdersKnown, { message: 'title has a placeholder nothing fills' }),
    body: Body,
  })
  .strict();
export type Variant = z.output<typeof Variant>;

const VARIANT_FIELDS = ['test_percent', 'pick_winner_after_hours', 'winner_metric'] as const;

export const CreateBroadcastBody = z
  .object({
    filter: ClientFilter.optional().describe('the clients to reach, as a client filter'),
    segment_id: Int4Id.optional().describe("or a saved segment's id: its filter at the moment of sending"),
    title: z
      .string({ message: 'title must be text' })
      .trim()
      .max(PUSH_TITLE_MAX, `title must be at most ${PUSH_TITLE_MAX} characters`)
      .refine(placeholdersKnown, { message: 'title has a placeholder nothing fills' })
      .optional(),
    body: Body.optional().describe('the message; left out when `variants` are given'),
    variants: z
      .array(Variant, { message: `variants must be a list of ${VARIANTS_MIN} or ${VARIANTS_MAX} versions ({ title, body })` })
      .min(VARIANTS_MIN, `variants must have ${VARIANTS_MIN} or ${VARIANTS_MAX} versions`)
      .max(VARIANTS_MAX, `variants must have ${VARIANTS_MIN} or ${VARIANTS_MAX} versions`)
      .optional()
      .describe(
        "instead of title and body: 2 or 3 versions, each sent to an equal share of the test part; the winner goes to the rest. The first version is the broadcast's own title and body, and the one sent when none is better beyond the interval",
      ),
    test_percent: wholeFrom('test_percent', TEST_PERCENT_MIN, TEST_PERCENT_MAX)
      .optional()
      .describe(`with variants: the share of the clients sent to (after the holdout) that tests the versions (default ${TEST_PERCENT_DEFAULT})`),
    pick_winner_after_hours: wholeFrom('pick_winner_after_hours', PICK_WINNER_HOURS_MIN, PICK_WINNER_HOURS_MAX)
      .optional()
      .describe(`with variants: hours after the test part was sent when the winner is picked and sent to the rest (default ${PICK_WINNER_HOURS_DEFAULT})`),
    winner_metric: z
      .enum(WINNER_METRICS, { message: `winner_metric must be one of ${WINNER_METRICS.join(', ')}` })
      .optional()
      .describe('with variants: conversion (reached the goal ÷ clients, the default) or open (opened ÷ sent)'),
    send_at: z.iso.datetime({ offset: true, message: 'send_at must be an ISO date-time' }).optional().describe('later: when to send (now when absent)'),
    draft: z.boolean().optional().describe('true: keep it as a draft, send nothing'),
    goal: Goal.optional().describe('what counts as the push working (default: any, within 7 days)'),
    holdout_percent: HoldoutPercent.optional().describe('share of the audience kept out to measure the lift (0-50; 0 when left out)'),
    max_per_minute: z
      .int({ message: 'max_per_minute must be a whole number' })
      .min(1, 'max_per_minute must be at least 1')
      .max(MAX_PER_MINUTE_LIMIT, `max_per_minute must be at most ${MAX_PER_MINUTE_LIMIT}`)
      .optional()
      .describe('at most this many pushes a minute (a wave of app opens hits our own API); as fast as FCM allows when absent'),
  })
  .strict()
  .refine((body) => (body.filter === undefined) !== (body.segment_id === undefined), { message: 'give either filter or segment_id', path: ['filter'] })
  .superRefine((body, context) => {
    if (body.variants === undefined) {
      if (body.body === undefined) context.addIssue({ code: 'custom', path: ['body'], message: 'body is required: the message text (or give variants)' });
      for (const field of VARIANT_FIELDS)
        if (body[field] !== undefined) context.addIssue({ code: 'custom', path: [field], message: `${field} applies only with variants` });
      return;
    }
    for (const field of ['title', 'body'] as const)
      if (body[field] !== undefined)
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `give either ${field} or variants: with variants the first version is the broadcast's text`,
        });
  });
export type CreateBroadcastBody = z.input<typeof CreateBroadcastBody>;

export const BulkPushBody = z
  .object({
    client_ids: z.array(Id).min(1).max(MAX_PICKED_CLIENTS).optional().describe('the selected clients'),
    filter: ClientFilter.optional().describe("or every client a list's filter (with the list's own rule) selects"),
    ...Message,
  })
  .strict()
  .refine((body) => (body.client_ids === undefined) !== (body.filter === undefined), { message: 'give either client_ids or filter', path: ['client_ids'] });
export type BulkPushBody = z.input<typeof BulkPushBody>;

export const BroadcastCreated = z.object({
  id: z.number().int(),
  recipients: z.number().int(),
  status: z.enum(BROADCAST_STATUSES),
  recipients_estimate: z.boolean().optional().describe('true: a large filter, `recipients` is an estimate until the job has fixed them'),
});
export type BroadcastCreated = z.infer<typeof BroadcastCreated>;

export const Broadcast = z.object({
  id: z.number().int(),
  kind: z.enum(['broadcast', 'bulk_push']),
  title: z.string(),
  body: z.string(),
  filter: ClientFilter.nullable(),
  segment_id: z.number().int().nullable(),
  status: z.enum(BROADCAST_STATUSES),
  send_at: z.iso.datetime({ offset: true }).nullable(),
  recipients: z.number().int().describe('clients it goes to (a draft: how many its filter selects now)'),
  recipients_estimate: z.boolean().describe("true while a large filter's recipients are being fixed in the background: `recipients` is the estimate"),
  max_per_minute: z.number().int().nullable(),
  counts: z
    .object({
      sent: z.number().int().describe('FCM accepted the message'),
      failed: z.number().int(),
      skipped: z.number().int(),
      pending: z.number().int().describe('not sent yet (in flight included)'),
      retrying: z.number().int().describe('FCM asked to wait: tried again later'),
      waiting: z.number().int().describe('with variants: the rest, waiting for the winner to be picked'),
      not_sent: z.number().int().describe('a cancelled broadcast: what it will not send'),
      skipped_by_reason: z.record(z.string(), z.number().int()).describe('opted_out, daily_cap, no_token'),
      failed_by_reason: z.record(z.string(), z.number().int()).describe(`${BROADCAST_FAILURE_REASONS.join(', ')} or an FCM error code`),
    })
    .describe('sent + failed + skipped + pending + retrying + waiting + not_sent = recipients, at every moment once sent or scheduled'),
  goal: GoalKind,
  window_days: z.number().int(),
  holdout_percent: z.number().int(),
  variants: z.array(Variant).nullable().describe('the versions of its text (the first is `title` and `body`), null with one text'),
  test_percent: z.number().int().nullable(),
  pick_winner_after_hours: z.number().int().nullable(),
  winner_metric: z.enum(WINNER_METRICS).nullable(),
  winner: z
    .object({ index: z.number().int(), reason: z.enum(WINNER_REASONS), picked_at: z.iso.datetime({ offset: true }) })
    .nullable()
    .describe('the version sent to the rest, once picked'),
  held_out: z.number().int().describe('clients kept out to measure the lift: not among recipients, never sent to'),
  created_by: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  started_at: z.iso.datetime({ offset: true }).nullable(),
  finished_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Broadcast = z.infer<typeof Broadcast>;

export const BroadcastListQuery = z.object({
  range: rangeParam.optional(),
  sort: z.string().max(100).optional().describe('ignored: newest first'),
  filter: jsonParam(
    z.object({ status: z.enum(BROADCAST_STATUSES).nullish(), kind: z.enum(['broadcast', 'bulk_push']).nullish() }).strict(),
    '{"status":"sent"}',
  ).optional(),
});
export const BroadcastParams = z.object({ id: Id });

// Loose: Fastify replaces request.headers with the parsed value, and the other headers must stay.
export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .min(8, 'Idempotency-Key must be 8 to 100 characters')
    .max(100, 'Idempotency-Key must be 8 to 100 characters')
    .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be visible ASCII characters')
    .optional()
    .describe('One key per intent (the console: one per dialog): the same key again answers the first result (200) and sends nothing again'),
});
/** A draft's message, edited before it is sent (ra-data-simple-rest update); whom it reaches stays as saved. */
export const UpdateDraftBody = z.object({ ...Message }).strict();
export type UpdateDraftBody = z.input<typeof UpdateDraftBody>;
export const SendDraftBody = z.object({ send_at: z.iso.datetime({ offset: true, message: 'send_at must be an ISO date-time' }).optional() }).strict();
