import { z } from 'zod';
import { ClientFilter } from './clientFilter';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from './clientRules';
import { Id, Int4Id } from './ids';
import { unknownPlaceholders } from './placeholders';
import { Goal, GoalKind, HoldoutPercent } from './outcomes';
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

export const CreateBroadcastBody = z
  .object({
    filter: ClientFilter.optional().describe('the clients to reach, as a client filter'),
    segment_id: Int4Id.optional().describe("or a saved segment's id: its filter at the moment of sending"),
    ...Message,
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
  .refine((body) => (body.filter === undefined) !== (body.segment_id === undefined), { message: 'give either filter or segment_id', path: ['filter'] });
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
      not_sent: z.number().int().describe('a cancelled broadcast: what it will not send'),
      skipped_by_reason: z.record(z.string(), z.number().int()).describe('opted_out, daily_cap, no_token'),
      failed_by_reason: z.record(z.string(), z.number().int()).describe(`${BROADCAST_FAILURE_REASONS.join(', ')} or an FCM error code`),
    })
    .describe('sent + failed + skipped + pending + retrying + not_sent = recipients, at every moment once sent or scheduled'),
  goal: GoalKind,
  window_days: z.number().int(),
  holdout_percent: z.number().int(),
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
