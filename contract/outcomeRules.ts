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

export const goalReachedBy = (goal: GoalKind, event: GoalEvent) => goal === 'any' || goal === event;
