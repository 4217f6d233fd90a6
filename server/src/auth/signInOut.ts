import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../audit/record';
import type { StaffUser } from '../staff/queries';

/** A sign-in and a sign-out each write their session change and its audit entry together. */

type App = Pick<FastifyInstance, 'database' | 'sessions' | 'clock'>;
interface Browser {
  ip: string;
  userAgent: string | undefined;
}

/** How a sign-in was made: the first step, and the second one when there was one. */
export interface SignInMethod {
  first: 'password' | 'oidc' | 'passkey';
  /** A passkey sign-in is its own second step: the device, unlocked by its owner. */
  second?: 'totp' | 'recovery_code' | 'idp' | 'passkey';
  /** The passkey used, by name, for the audit log. */
  passkey?: { id: number; name: string };
}

/** A new session for the staff member, audited with how they signed in; its token for the cookie. */
export async function signIn(app: App, user: StaffUser, method: SignInMethod, browser: Browser): Promise<string> {
  return app.database.transaction(async (tx) => {
    const token = await app.sessions.create(user.id, { ip: browser.ip, userAgent: browser.userAgent, secondStep: method.second }, tx);
    await recordAudit(tx, {
      staff: { id: user.id, email: user.email },
      action: 'auth.sign_in',
      target_type: 'staff_user',
      target_id: user.id,
      after: {
        method: method.first,
        ...(method.second ? { second_step: method.second } : {}),
        ...(method.passkey ? { passkey_id: method.passkey.id, passkey: method.passkey.name } : {}),
        user_agent: browser.userAgent?.slice(0, 200) ?? null,
      },
      ip: browser.ip,
      at: app.clock.now(),
    });
    return token;
  });
}

/** Ends this session, audited as a sign-out. */
export async function signOut(app: App, user: Pick<StaffUser, 'id' | 'email'>, sessionId: string, ip: string): Promise<void> {
  await app.database.transaction(async (tx) => {
    await app.sessions.end(user.id, sessionId, tx);
    await recordAudit(tx, {
      staff: { id: user.id, email: user.email },
      action: 'auth.sign_out',
      target_type: 'staff_user',
      target_id: user.id,
      ip,
      at: app.clock.now(),
    });
  });
}

/** A refused sign-in (wrong password, unknown account, disabled account), audited under what was typed. */
export async function recordFailedSignIn(
  app: Pick<App, 'database' | 'clock'>,
  attempt: {
    staff: { id: number; email: string } | string | null;
    targetId: number | null;
    reason: string;
    limitReached?: string | null;
    ip: string;
    userAgent?: string | undefined;
    step?: 'password' | 'code' | 'oidc' | 'passkey';
  },
): Promise<void> {
  await recordAudit(app.database, {
    staff: attempt.staff,
    action: 'auth.sign_in_failed',
    target_type: 'staff_user',
    target_id: attempt.targetId,
    after: {
      reason: attempt.reason,
      ...(attempt.step ? { step: attempt.step } : {}),
      ...(attempt.limitReached ? { limit_reached: attempt.limitReached } : {}),
      ...(attempt.userAgent ? { user_agent: attempt.userAgent.slice(0, 200) } : {}),
    },
    ip: attempt.ip,
    at: app.clock.now(),
  });
}
