import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable, Transaction } from '../db/client';

// Half-done sign-ins (sign_in_challenges): a right password whose second step is still to come.

const ChallengeRow = z.object({ staff_user_id: z.number(), next: z.string().nullable() });
const Failures = z.object({ failures: z.number() });
const Removed = z.object({ id: z.string() });

export async function startChallenge(
  database: Queryable,
  challenge: { id: string; staff_user_id: number; created_at: Date; expires_at: Date; next: string | null },
): Promise<void> {
  await database.execute('DELETE FROM sign_in_challenges WHERE expires_at < $1', [challenge.created_at]);
  await database.execute('INSERT INTO sign_in_challenges (id, staff_user_id, created_at, expires_at, next) VALUES ($1, $2, $3, $4, $5)', [
    challenge.id,
    challenge.staff_user_id,
    challenge.created_at,
    challenge.expires_at,
    challenge.next,
  ]);
}

export async function openChallenge(database: Queryable, id: string, now: Date): Promise<z.infer<typeof ChallengeRow> | undefined> {
  const [row] = await database.rows(ChallengeRow, 'SELECT staff_user_id, next FROM sign_in_challenges WHERE id = $1 AND expires_at > $2', [id, now]);
  return row;
}

/** Counts a wrong code; the failures so far, or undefined when the challenge is gone. */
export async function countChallengeFailure(database: Queryable, id: string): Promise<number | undefined> {
  const [row] = await database.rows(Failures, 'UPDATE sign_in_challenges SET failures = failures + 1 WHERE id = $1 RETURNING failures', [id]);
  return row?.failures;
}

/** Ends the challenge; whether it was there. */
export async function deleteChallenge(database: Queryable, id: string): Promise<boolean> {
  return (await database.rows(Removed, 'DELETE FROM sign_in_challenges WHERE id = $1 RETURNING id', [id])).length > 0;
}

// Sign-in attempts (login_failures), counted before the password is checked.

const Attempt = z.object({ email: z.string(), at: timestamp });

/** Holds the address's advisory lock until the transaction ends. */
export function lockAddress(tx: Transaction, lock: number, address: string): Promise<void> {
  return tx.execute('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [lock, address]);
}

export function attemptsFrom(tx: Transaction, address: string, since: Date): Promise<z.infer<typeof Attempt>[]> {
  return tx.rows(Attempt, 'SELECT email, at FROM login_failures WHERE ip = $1 AND at > $2', [address, since]);
}

export function recordAttempt(tx: Transaction, account: string, address: string, at: Date): Promise<void> {
  return tx.execute('INSERT INTO login_failures (email, ip, at) VALUES ($1, $2, $3)', [account, address, at]);
}

export function forgetAttempts(database: Queryable, account: string, address: string): Promise<void> {
  return database.execute('DELETE FROM login_failures WHERE email = $1 AND ip = $2', [account, address]);
}

/**
 * Deletes up to 1,000 attempts older than `before`. SKIP LOCKED: instances cleaning up at the same
 * moment neither wait for nor deadlock on each other.
 */
export function deleteOldAttempts(database: Queryable, before: Date): Promise<void> {
  return database.execute(
    'DELETE FROM login_failures WHERE id IN (SELECT id FROM login_failures WHERE at < $1 ORDER BY at LIMIT 1000 FOR UPDATE SKIP LOCKED)',
    [before],
  );
}

// The sign-in history, read from the audit log.

const SignInRow = z.object({
  id: z.number(),
  action: z.string(),
  after: z.unknown(),
  ip: z.string().nullable(),
  at: timestamp,
});

/** The account's sign-ins and failed attempts, newest first. */
export function signInEntries(database: Queryable, staffUserId: number, limit: number): Promise<z.infer<typeof SignInRow>[]> {
  return database.rows(
    SignInRow,
    `SELECT id, action, after, ip, at FROM audit_log
     WHERE target_type = 'staff_user' AND target_id = $1 AND action IN ('auth.sign_in', 'auth.sign_in_failed')
     ORDER BY at DESC, id DESC LIMIT $2`,
    [String(staffUserId), limit],
  );
}
