import { MindbodyError, type CallMeter } from '../integrations/mindbody';

/** The UTC day Mindbody calls are counted under (the daily limit is per API key, not per site). */
export const callDay = (at: Date) => at.toISOString().slice(0, 10);

export interface CallBudget extends CallMeter {
  readonly limit: number;
  /** Calls made today, this run's included. */
  used(): number;
  /** Calls this budget let through. */
  spent(): number;
  remaining(): number;
}

/**
 * A day's budget of Mindbody calls: lets calls through until `limit` is reached (counting what
 * earlier runs used today), then refuses every further one before it is sent.
 */
export function createCallBudget(limit: number, usedBefore: number): CallBudget {
  let spent = 0;
  return {
    limit,
    used: () => usedBefore + spent,
    spent: () => spent,
    remaining: () => Math.max(0, limit - usedBefore - spent),
    spend() {
      if (usedBefore + spent >= limit) {
        throw new MindbodyError(
          `Mindbody's daily call limit is reached (${limit} calls, MINDBODY_DAILY_CALL_LIMIT); the import continues after midnight UTC`,
          'budget',
        );
      }
      spent++;
    },
  };
}
