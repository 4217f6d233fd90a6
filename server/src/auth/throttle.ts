import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginFailures } from '../db/schema';
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
  const db = database.db;
  return {
    /**
     * Counts the attempt if both limits allow it. The address's advisory lock makes "count, then
     * insert" one step for every server instance on the database, so a burst cannot all pass.
     */
    async take(account: string, address: string): Promise<ThrottleVerdict> {
      const at = now();
      const verdict = await database.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [SIGN_IN_LOCK, address]);
        const counted = await tx.db
          .select({ email: loginFailures.email, at: loginFailures.at })
          .from(loginFailures)
          .where(and(eq(loginFailures.ip, address), gt(loginFailures.at, new Date(at.getTime() - SIGN_IN_LIMITS.windowMs))));
        const decided = throttleVerdict(counted, account, at);
        if (decided.allowed) await tx.db.insert(loginFailures).values({ email: account, ip: address, at });
        return decided;
      });
      if (verdict.allowed) await forgetOldAttempts(at);
      return verdict;
    },

    /** The staff member got in from this address: their earlier failures here no longer count. */
    async succeeded(account: string, address: string) {
      await db.delete(loginFailures).where(and(eq(loginFailures.email, account), eq(loginFailures.ip, address)));
    },
  };

  async function forgetOldAttempts(at: Date) {
    // SKIP LOCKED: instances cleaning up at the same moment neither wait for nor deadlock on each other.
    const old = db
      .select({ id: loginFailures.id })
      .from(loginFailures)
      .where(lt(loginFailures.at, new Date(at.getTime() - KEEP_MS)))
      .orderBy(loginFailures.at)
      .limit(1000)
      .for('update', { skipLocked: true });
    await db.delete(loginFailures).where(inArray(loginFailures.id, old));
  }
}
