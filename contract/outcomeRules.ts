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

/**
 * Versions of a broadcast's text (docs/automation.md#versions-a-test-then-the-winner): 2 or 3, each
 * sent to an equal share of a test part; after some hours the best by the chosen rate goes to the rest.
 */
export const VARIANTS_MIN = 2;
export const VARIANTS_MAX = 3;
export const TEST_PERCENT_MIN = 5;
export const TEST_PERCENT_MAX = 50;
export const TEST_PERCENT_DEFAULT = 20;
export const PICK_WINNER_HOURS_MIN = 1;
export const PICK_WINNER_HOURS_MAX = 168;
export const PICK_WINNER_HOURS_DEFAULT = 4;
/** conversion: reached the goal ÷ clients of the version; open: opened ÷ pushes sent (FCM accepted or queued). */
export const WINNER_METRICS = ['conversion', 'open'] as const;
export type WinnerMetric = (typeof WINNER_METRICS)[number];
/** better: beat every other version beyond the 95 % interval; no_clear_winner / no_data: the first one is sent. */
export const WINNER_REASONS = ['better', 'no_clear_winner', 'no_data'] as const;
export type WinnerReason = (typeof WINNER_REASONS)[number];
/** 'A', 'B', 'C': how the console and the docs name a version. */
export const variantLetter = (index: number) => String.fromCharCode(65 + index);
