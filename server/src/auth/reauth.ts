import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProofRequest } from '@contract/twoStep';
import { recordAudit } from '../audit/record';
import { HttpError } from '../lib/errors';
import { verifyPassword } from '../staff/password';
import type { StaffUser } from '../staff/queries';
import type { createLoginThrottle } from './throttle';
import { accountKey, addressKey, retryAfterSeconds, throttledMessage } from './throttleRules';
import { checkSecondStep, CODE_FIELD_ERROR, type SecondStep } from './twoStep';
import { checkAssertion, PasskeyRefusal, relyingParty } from './passkeys';
import { createPasskeyChallenges } from './passkeyChallenges';

/**
 * Re-authentication ("sudo mode"). A route opts in with `config: { permission, reauth: true }`:
 * the guard then answers 403 { message, reauth_required: true } unless the session's staff member
 * proved who they are (sign-in, POST /api/auth/reauth) within REAUTH_MINUTES.
 */
export const REAUTH_REQUIRED = 'Confirm it is you: enter your password or a code from your authenticator app again, or use a passkey, then repeat the action.';

export const reauthValidUntil = (verifiedAt: Date, minutes: number) => new Date(verifiedAt.getTime() + minutes * 60_000);

/** Whether the request's session was checked recently enough; a stale cached time is read again (another instance may have checked it). */
export async function recentlyVerified(app: FastifyInstance, request: FastifyRequest, cachedVerifiedAt: Date | null): Promise<boolean> {
  const now = app.clock.now();
  const fresh = (at: Date | null) => at !== null && reauthValidUntil(at, app.config.REAUTH_MINUTES) > now;
  if (fresh(cachedVerifiedAt)) return true;
  return request.sessionId !== null && fresh(await app.sessions.verifiedAt(request.sessionId));
}

export type Proof = 'password' | SecondStep;

/**
 * Counts a password or code check of a signed-in member against the sign-in limits of their e-mail
 * and address (a stolen session cannot guess with it); past the limit, 429 with Retry-After.
 */
export async function countCheck(
  throttle: ReturnType<typeof createLoginThrottle>,
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
): Promise<{ account: string; address: string; limitReached: string | null }> {
  const account = accountKey(email);
  const address = addressKey(request.ip);
  const verdict = await throttle.take(account, address);
  if (!verdict.allowed) {
    request.log.info({ address }, 'identity check refused: too many failed attempts');
    reply.header('retry-after', String(retryAfterSeconds(verdict.retryAfterMs)));
    throw new HttpError(429, throttledMessage(verdict.retryAfterMs));
  }
  return { account, address, limitReached: verdict.limitReached ?? null };
}

/**
 * Checks the password or a code of the signed-in member, counted against the sign-in limits of
 * their e-mail and address (a stolen session cannot guess with it). A failure is audited and
 * answered 400 naming the field; past the limit, 429 with Retry-After.
 */
export async function proveIdentity(
  app: FastifyInstance,
  throttle: ReturnType<typeof createLoginThrottle>,
  request: FastifyRequest,
  reply: FastifyReply,
  staff: StaffUser,
  body: ProofRequest,
  purpose: 'reauth' | 'two_step_disable',
): Promise<Proof> {
  const { account, address, limitReached } = await countCheck(throttle, request, reply, staff.email);
  const at = app.clock.now();
  let failure: { path: string; message: string; reason: string } | null = null;
  let proof: Proof = 'password';
  if (body.passkey !== undefined) {
    try {
      await checkAssertion(
        app,
        createPasskeyChallenges(app.database, () => app.clock.now()),
        relyingParty(app, request),
        body.passkey,
        'reauth',
        staff.id,
      );
      proof = 'passkey';
    } catch (error) {
      if (!(error instanceof PasskeyRefusal)) throw error;
      // 400, never 401: the session is fine, only this proof was refused.
      failure = { path: 'body.passkey', message: error.message, reason: error.reason };
    }
  } else if (body.password !== undefined) {
    if (!staff.password_hash) throw new HttpError(400, 'Your account signs in through your identity provider and has no password here: use a code.');
    if (!(await verifyPassword(body.password, staff.password_hash)))
      failure = { path: 'body.password', message: 'is not your password', reason: 'wrong password' };
  } else {
    if (!staff.two_step_at) throw new HttpError(400, 'Two-step sign-in is not on for your account: use your password.');
    const checked = await checkSecondStep(app.database, staff.id, body.code, at);
    if (checked.ok) proof = checked.method;
    else
      failure = {
        path: 'body.code',
        message: checked.reason === 'code already used' ? 'was already used: wait for the next one' : CODE_FIELD_ERROR,
        reason: checked.reason,
      };
  }
  if (failure) {
    await recordAudit(app.database, {
      staff: { id: staff.id, email: staff.email },
      action: 'auth.reauth_failed',
      target_type: 'staff_user',
      target_id: staff.id,
      after: { purpose, reason: failure.reason, limit_reached: limitReached ?? undefined },
      ip: request.ip,
      at,
    });
    throw new HttpError(400, `Invalid request: ${failure.path}: ${failure.message}`, [{ path: failure.path, message: failure.message }]);
  }
  await throttle.succeeded(account, address);
  return proof;
}
