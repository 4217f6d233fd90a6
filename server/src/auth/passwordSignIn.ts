import type { FastifyInstance } from 'fastify';
import { DUMMY_HASH, verifyPassword } from '../staff/password';
import { recordFailedSignIn } from './signInOut';
import { findStaffByEmail, type StaffUser } from '../staff/queries';
import type { createLoginThrottle } from './throttle';
import { accountKey, addressKey } from './throttleRules';

/** What a password sign-in came to; the route turns each into its page, redirect or session. */
export type PasswordSignIn =
  | { outcome: 'throttled'; address: string; retryAfterMs: number }
  | { outcome: 'invalid'; staffId: number | null }
  | { outcome: 'disabled' }
  /** The password was right; the session waits for the second step. */
  | { outcome: 'second step'; user: StaffUser }
  | { outcome: 'signed in'; user: StaffUser };

/**
 * The first step of signing in with an e-mail and a password: the throttle, the password check,
 * the audit entry of a failure, and whether the account may go on (disabled, two-step).
 */
export async function signInWithPassword(
  app: Pick<FastifyInstance, 'database' | 'clock'>,
  throttle: ReturnType<typeof createLoginThrottle>,
  attempt: { email: string; password: string; ip: string; userAgent: string | undefined },
): Promise<PasswordSignIn> {
  const { email, password, ip, userAgent } = attempt;
  const account = accountKey(email);
  const address = addressKey(ip);
  // Counted before the password is checked, known e-mail or not: a burst cannot outrun the limit,
  // and the answer (429, its wording, Retry-After) says nothing about which accounts exist.
  const verdict = await throttle.take(account, address);
  if (!verdict.allowed) return { outcome: 'throttled', address, retryAfterMs: verdict.retryAfterMs };
  const user = email ? await findStaffByEmail(app.database, email) : undefined;
  // Same work whether or not the e-mail exists, so timing does not tell which was wrong.
  const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !valid || !password) {
    // The attempt stays counted. Refused attempts are not audited; the failure that used up the
    // last try says which limit it filled.
    await recordFailedSignIn(app, {
      staff: account.slice(0, 320) || null,
      targetId: user?.id ?? null,
      reason: user ? 'wrong password' : 'unknown account',
      step: 'password',
      limitReached: verdict.limitReached,
      ip,
      userAgent,
    });
    return { outcome: 'invalid', staffId: user?.id ?? null };
  }
  // With two-step on, the attempts are forgiven only once the code is right too, or a known
  // password would renew the tries at the codes.
  if (!user.two_step_at) await throttle.succeeded(account, address);
  // Only said after the right password, so it tells nothing to someone guessing.
  if (user.disabled_at) {
    await recordFailedSignIn(app, { staff: { id: user.id, email: user.email }, targetId: user.id, reason: 'account disabled', ip, userAgent });
    return { outcome: 'disabled' };
  }
  return user.two_step_at ? { outcome: 'second step', user } : { outcome: 'signed in', user };
}
