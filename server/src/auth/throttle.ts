import { and, eq, gt, lt, min, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';

export const MAX_FAILURES = 10;
export const FAILURE_WINDOW_MS = 3 * 60_000;

/** At most 10 failed sign-ins per account and per address in 3 minutes (OWASP ASVS 6.3). */
export function createLoginThrottle(db: Db, now: () => Date) {
  const windowStart = () => new Date(now().getTime() - FAILURE_WINDOW_MS);
  return {
    /** Milliseconds until another attempt is allowed, or 0. */
    async blockedFor(email: string, ip: string): Promise<number> {
      const since = windowStart();
      const counts = await Promise.all(
        [eq(loginFailures.email, email), eq(loginFailures.ip, ip)].map(async (who) => {
          const [row] = await db
            .select({ count: sql<number>`count(*)::int`, oldest: min(loginFailures.at) })
            .from(loginFailures)
            .where(and(who, gt(loginFailures.at, since)));
          return row!;
        }),
      );
      const blocked = counts.filter((c) => c.count >= MAX_FAILURES && c.oldest);
      if (blocked.length === 0) return 0;
      const oldest = Math.max(...blocked.map((c) => new Date(c.oldest!).getTime()));
      return Math.max(1000, oldest + FAILURE_WINDOW_MS - now().getTime());
    },
    /** `executor`: the sign-in's transaction, which also writes the audit entry. */
    async recordFailure(email: string, ip: string, executor: Db = db) {
      await executor.insert(loginFailures).values({ email, ip, at: now() });
      // Keep the table small: nothing older than the window matters.
      await executor.delete(loginFailures).where(lt(loginFailures.at, new Date(now().getTime() - 10 * FAILURE_WINDOW_MS)));
    },
    async clear(email: string) {
      await db.delete(loginFailures).where(or(eq(loginFailures.email, email)));
    },
  };
}
