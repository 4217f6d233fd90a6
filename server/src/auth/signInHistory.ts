import { SIGN_IN_HISTORY_LIMIT, type SignInEntry } from '@contract/twoStep';
import type { Queryable } from '../db/client';
import { signInEntries } from './signInQueries';

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * An account's sign-ins and failed attempts, newest first, read from the audit log (which records
 * both with the address, the browser and how). Failures under an e-mail no account has are not
 * an account's, so they are not listed here (the Audit Log shows them).
 */
export async function signInHistory(database: Queryable, staffUserId: number): Promise<SignInEntry[]> {
  const rows = await signInEntries(database, staffUserId, SIGN_IN_HISTORY_LIMIT);
  return rows.map((row) => {
    const after = (row.after ?? {}) as Record<string, unknown>;
    const signedIn = row.action === 'auth.sign_in';
    return {
      id: Number(row.id),
      at: row.at.toISOString(),
      outcome: signedIn ? 'signed_in' : 'failed',
      // A failed second step followed a right password; a failure records the step it failed at.
      method: text(after.method) ?? (after.step === 'code' ? 'password' : text(after.step)),
      second_step: text(after.second_step),
      reason: signedIn ? null : text(after.reason),
      ip: row.ip,
      user_agent: text(after.user_agent),
    };
  });
}
