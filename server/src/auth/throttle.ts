import type { Database } from '../db/client';
import { attemptsFrom, deleteOldAttempts, forgetAttempts, lockAddress, recordAttempt } from './signInQueries';
import { SIGN_IN_LIMITS, throttleVerdict, type ThrottleVerdict } from './throttleRules';

// Any constant works (the second key is the address's hash); migrate.ts uses 72_406_001.
const SIGN_IN_LOCK = 72_406_017;
// Rows are kept a while past the window so an instance whose clock runs behind still sees them.
const KEEP_MS = 10 * SIGN_IN_LIMITS.windowMs;

/**
 * Sign-in attempts, counted in `login_failures` before the password is checked. A row stays when
 * the check fails and is removed when it succeeds, so the table holds failures plus the attempts
 * still being checked. `account` and `address` are `accountKey` / `addressKey` results.
 */
export function createLoginThrottle(database: Database, now: () => Date) {
  return {
    /**
     * Counts the attempt if both limits allow it. The address's advisory lock makes "count, then
     * insert" one step for every server instance on the database, so a burst cannot all pass.
     */
    async take(account: string, address: string): Promise<ThrottleVerdict> {
      const at = now();
      const verdict = await database.transaction(async (tx) => {
        await lockAddress(tx, SIGN_IN_LOCK, address);
        const counted = await attemptsFrom(tx, address, new Date(at.getTime() - SIGN_IN_LIMITS.windowMs));
        const decided = throttleVerdict(counted, account, at);
        if (decided.allowed) await recordAttempt(tx, account, address, at);
        return decided;
      });
      if (verdict.allowed) await forgetOldAttempts(at);
      return verdict;
    },

    /** The staff member got in from this address: their earlier failures here no longer count. */
    async succeeded(account: string, address: string) {
      await forgetAttempts(database, account, address);
    },
  };

  async function forgetOldAttempts(at: Date) {
    await deleteOldAttempts(database, new Date(at.getTime() - KEEP_MS));
  }
}
