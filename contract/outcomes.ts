import { z } from 'zod';
import { Id } from './ids';
import { MESSAGE_TYPES } from './messageTypes';
import {
  GOAL_KINDS,
  GOAL_WINDOW_DEFAULT_DAYS,
  GOAL_WINDOW_MAX_DAYS,
  GOAL_WINDOW_MIN_DAYS,
  HOLDOUT_MAX_PERCENT,
  WINNER_METRICS,
  WINNER_REASONS,
} from './outcomeRules';

export * from './outcomeRules';

/**
 * Did a message work (docs/automation.md#did-it-work-goals-holdouts-and-lift): its goal, its
 * held-out share, and what happened to the clients it was meant for.
 */
export const GoalKind = z.enum(GOAL_KINDS, { message: `goal.kind must be one of ${GOAL_KINDS.join(', ')}` });
export const WindowDays = z
  .number({ message: `window_days must be a whole number from ${GOAL_WINDOW_MIN_DAYS} to ${GOAL_WINDOW_MAX_DAYS}` })
  .int(`window_days must be a whole number from ${GOAL_WINDOW_MIN_DAYS} to ${GOAL_WINDOW_MAX_DAYS}`)
  .min(GOAL_WINDOW_MIN_DAYS, `window_days must be a whole number from ${GOAL_WINDOW_MIN_DAYS} to ${GOAL_WINDOW_MAX_DAYS}`)
  .max(GOAL_WINDOW_MAX_DAYS, `window_days must be a whole number from ${GOAL_WINDOW_MIN_DAYS} to ${GOAL_WINDOW_MAX_DAYS}`);
export const HoldoutPercent = z
  .number({ message: `holdout_percent must be a whole number from 0 to ${HOLDOUT_MAX_PERCENT}` })
  .int(`holdout_percent must be a whole number from 0 to ${HOLDOUT_MAX_PERCENT}`)
  .min(0, `holdout_percent must be a whole number from 0 to ${HOLDOUT_MAX_PERCENT}`)
  .max(HOLDOUT_MAX_PERCENT, `holdout_percent must be a whole number from 0 to ${HOLDOUT_MAX_PERCENT}`);

export const Goal = z
  .object({
    kind: GoalKind.describe('class: a signed-in class; stream: a streamed video; purchase; any of them'),
    window_days: WindowDays.default(GOAL_WINDOW_DEFAULT_DAYS).describe(`days after the push (default ${GOAL_WINDOW_DEFAULT_DAYS})`),
  })
  .strict();
export type Goal = z.output<typeof Goal>;

const count = z.number().int().nonnegative();
const rate = z.number().nullable().describe('converted / clients, null without clients');

export const Lift = z.object({
  clients: z.number().int().describe('about this many more clients converted than would have without the message'),
  low: z.number().int().describe('the 95 % interval, in clients'),
  high: z.number().int(),
  significant: z.boolean().describe('false while the interval includes zero: not enough data yet'),
  method: z.enum(['normal', 'newcombe']),
});

const Figures = {
  clients: count.describe('clients the message was meant for, held-out ones apart (sent, failed or skipped)'),
  sent: count.describe('pushes FCM accepted or queued'),
  delivered: count.describe('pushes FCM accepted for at least one device'),
  opened: count.describe('pushes the app reported opened'),
  converted: count.describe('clients meant for it who reached the goal within the window'),
  conversion_rate: rate,
  holdout: z.object({ clients: count, converted: count, conversion_rate: rate }),
  lift: Lift.nullable().describe('null without a holdout'),
};

export const BroadcastOutcome = z.object({
  broadcast_id: z.number().int(),
  goal: GoalKind,
  window_days: z.number().int(),
  holdout_percent: z.number().int(),
  ...Figures,
  window_closes_at: z.iso.datetime({ offset: true }).nullable().describe('after this the figures no longer change'),
  variants: z
    .array(
      z.object({
        index: z.number().int().describe('0 = the first version (A)'),
        title: z.string(),
        body: z.string(),
        ...Figures,
        open_rate: rate.describe('opened / sent, null before any was sent'),
        winner: z.boolean().describe('the version sent to the rest'),
      }),
    )
    .describe("with versions: each one's figures in the test part (empty with one text)"),
  winner: z
    .object({
      index: z.number().int(),
      reason: z.enum(WINNER_REASONS).describe('better: beat every other version beyond the 95 % interval; otherwise the first is sent'),
      metric: z.enum(WINNER_METRICS),
      picked_at: z.iso.datetime({ offset: true }),
      versions: z
        .array(z.object({ clients: count, hits: count, rate }))
        .describe("each version's figures when the winner was picked: conversions of its clients, or opens of its sent pushes"),
    })
    .nullable()
    .describe('with versions, once picked'),
  winner_due_at: z.iso.datetime({ offset: true }).nullable().describe('with versions, before the pick: when the winner is picked'),
  waiting: count.describe('with versions: clients waiting for the winner (not in the figures above until it is sent to them)'),
});
export type BroadcastOutcome = z.infer<typeof BroadcastOutcome>;

const day = z.iso.date({ message: 'must be a date like 2026-11-02' });
export const AutomationOutcomesQuery = z.object({
  type: z
    .enum(MESSAGE_TYPES.map((type) => String(type.id)) as [string, ...string[]], { message: 'type must be an automated message type id (1-6)' })
    .transform(Number)
    .optional(),
  from: day.optional().describe('weeks starting on or after this day (default: 12 weeks ago)'),
  to: day.optional().describe('weeks starting on or before this day (default: this week)'),
});
export const AutomationOutcomeWeek = z.object({
  type: z.number().int(),
  week: day.describe('the Monday of the studio week'),
  goal: GoalKind,
  window_days: z.number().int(),
  ...Figures,
});
export type AutomationOutcomeWeek = z.infer<typeof AutomationOutcomeWeek>;

export const BroadcastOutcomeParams = z.object({ id: Id });
