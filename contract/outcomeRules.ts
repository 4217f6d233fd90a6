/**
 * What counts as a message working (docs/automation.md#did-it-work): a goal, a window after the
 * push, and a held-out share of the audience that is not sent to.
 */
export const GOAL_KINDS = ['class', 'stream', 'purchase', 'any'] as const;
export type GoalKind = (typeof GOAL_KINDS)[number];
export const GOAL_WINDOW_MIN_DAYS = 1;
export const GOAL_WINDOW_MAX_DAYS = 30;
export const GOAL_WINDOW_DEFAULT_DAYS = 7;
export const HOLDOUT_MAX_PERCENT = 50;
/** The console's dialog proposes a holdout from this many recipients up (the API's default stays 0). */
export const HOLDOUT_PROPOSED_FROM = 1000;
export const HOLDOUT_PROPOSED_PERCENT = 10;
/** Kinds of event that reach a goal: a signed-in class, a stream, a purchase. */
export type GoalEvent = 'class' | 'stream' | 'purchase';

/** The groups of clients behind a result's numbers. */
export const OUTCOME_GROUPS = ['clients', 'sent', 'opened', 'converted', 'held_out', 'held_out_converted'] as const;
export type OutcomeGroup = (typeof OUTCOME_GROUPS)[number];
/** A client-list filter of one group: `broadcast:<id>:<group>` or `automated:<type>:<Monday>:<group>`. */
export const OUTCOME_FILTER = /^(broadcast:[1-9]\d{0,14}|automated:[1-6]:\d{4}-\d{2}-\d{2}):(clients|sent|opened|converted|held_out|held_out_converted)$/;

export const goalReachedBy = (goal: GoalKind, event: GoalEvent) => goal === 'any' || goal === event;
