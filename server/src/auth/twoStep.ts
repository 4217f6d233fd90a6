import { generateSecret, generateURI, verify } from 'otplib';
import type { Database, Queryable, Transaction } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { HttpError, notFound } from '../lib/errors';
import { hashRecoveryCode, newRecoveryCodes, readCode, TOTP_DRIFT_STEPS, TOTP_ISSUER, TOTP_PERIOD_SECONDS } from './twoStepRules';
import { deleteSessionsOf, lockStaffUser, type StaffUser } from '../staff/queries';
import { removeAllPasskeys } from './passkeys';
import { claimTotpStep, confirmedTotp, disableTwoStep, enableTotp, lockTotp, recoveryCodesLeft, upsertTotpSecret, spendRecoveryCode } from './twoStepQueries';

/** How a second step was made, as the audit log and the sign-in history name it. */
export type SecondStep = 'totp' | 'recovery_code' | 'passkey';
export type CodeCheck =
  { ok: true; method: SecondStep; recoveryCodesLeft?: number } | { ok: false; reason: 'wrong code' | 'code already used' | 'malformed code' };

/** Whether `token` is the authenticator's code within one step of `at`; the step it belongs to. */
async function totpStep(secret: string, token: string, at: Date): Promise<number | null> {
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(at.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
  });
  // A TOTP result carries its step (otplib's union type also covers HOTP).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Checks a second-step code of an account with two-step on: an authenticator code is accepted once
 * (and none of an earlier step after it), a recovery code once. Each is claimed by one conditional
 * UPDATE, so of a burst of the same code only one request wins.
 */
export async function checkSecondStep(db: Queryable, staffUserId: number, typed: unknown, at: Date): Promise<CodeCheck> {
  const code = readCode(typed);
  if (code.kind === 'malformed') return { ok: false, reason: 'malformed code' };
  if (code.kind === 'recovery') {
    if (!(await spendRecoveryCode(db, staffUserId, hashRecoveryCode(code.code), at))) return { ok: false, reason: 'wrong code' };
    return { ok: true, method: 'recovery_code', recoveryCodesLeft: await recoveryCodesLeft(db, staffUserId) };
  }
  const row = await confirmedTotp(db, staffUserId);
  if (!row) return { ok: false, reason: 'wrong code' };
  const step = await totpStep(row.secret, code.code, at);
  if (step === null) return { ok: false, reason: 'wrong code' };
  return (await claimTotpStep(db, staffUserId, step)) ? { ok: true, method: 'totp' } : { ok: false, reason: 'code already used' };
}

/** A new authenticator secret for the account, to be confirmed with a code; replaces one not confirmed yet. */
export async function startTotpSetup(db: Queryable, user: StaffUser, at: Date): Promise<{ secret: string; otpauth_uri: string }> {
  if (user.two_step_at) throw new HttpError(409, 'Two-step sign-in is already on. Turn it off first to set up another authenticator.');
  const secret = generateSecret();
  await upsertTotpSecret(db, user.id, secret, at);
  return { secret, otpauth_uri: generateURI({ issuer: TOTP_ISSUER, label: user.email, secret, period: TOTP_PERIOD_SECONDS }) };
}

export const CODE_FIELD_ERROR = 'is not the code your authenticator app shows (or a recovery code you have not used)';

/**
 * Confirms the secret being set up with a code from the app: two-step is on from then, with ten
 * new recovery codes (returned to be shown once; only their hashes are kept). Audited.
 */
export async function confirmTotpSetup(database: Database, user: StaffUser, typed: string, actor: Actor): Promise<string[] | null> {
  const code = readCode(typed);
  return database.transaction(async (tx) => {
    const row = await lockTotp(tx, user.id);
    if (!row || row.confirmed_at) {
      throw new HttpError(409, row ? 'Two-step sign-in is already on.' : 'Start the set-up first: POST /api/auth/two-step/totp gives the secret to confirm.');
    }
    const step = code.kind === 'totp' ? await totpStep(row.secret, code.code, actor.at) : null;
    if (step === null) return null;
    const codes = newRecoveryCodes();
    await enableTotp(tx, user.id, step, codes.map(hashRecoveryCode), actor.at);
    await recordAudit(tx, { ...actor, action: 'auth.two_step_enable', target_type: 'staff_user', target_id: user.id, after: { method: 'totp' } });
    return codes;
  });
}

/** Turns two-step off for the account: its secret and recovery codes go. `action` says who did it (the member, an owner, the CLI). */
export async function removeTwoStep(
  tx: Transaction,
  staffUserId: number,
  actor: Actor,
  action: 'auth.two_step_disable' | 'auth.two_step_reset',
  more: Record<string, unknown> = {},
): Promise<void> {
  await disableTwoStep(tx, staffUserId);
  await recordAudit(tx, {
    ...actor,
    action,
    target_type: 'staff_user',
    target_id: staffUserId,
    before: { two_step: true },
    after: { two_step: false, ...more },
  });
}

/**
 * An owner (or `npm run staff -- reset-two-step`) turns another member's two-step off, for a lost
 * phone: their sessions end, and they set it up again at their next sign-in if an owner requires it.
 */
export async function resetTwoStep(database: Database, targetId: number, actor: Actor & { via?: string }): Promise<{ user: StaffUser; endedSessions: number }> {
  return database.transaction(async (tx) => {
    const user = await lockStaffUser(tx, targetId);
    if (!user) throw notFound(`No staff account with id ${targetId}.`);
    const ended = await deleteSessionsOf(tx, targetId);
    // A lost phone may hold the account's passkeys too: they go with the authenticator.
    const passkeysRemoved = await removeAllPasskeys(tx, targetId);
    const { via, ...who } = actor;
    await removeTwoStep(tx, targetId, who, 'auth.two_step_reset', {
      email: user.email,
      sessions_ended: ended,
      ...(passkeysRemoved ? { passkeys_removed: passkeysRemoved } : {}),
      ...(via ? { via } : {}),
    });
    return { user: { ...user, two_step_at: null }, endedSessions: ended };
  });
}

/** What the user menu shows: whether two-step is on, since when, and how many recovery codes are left. */
export async function twoStepStatus(db: Queryable, user: StaffUser) {
  const left = await recoveryCodesLeft(db, user.id);
  return { enabled: Boolean(user.two_step_at), enabled_at: user.two_step_at?.toISOString() ?? null, recovery_codes_left: left };
}
