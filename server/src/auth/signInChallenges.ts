import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';
import { countChallengeFailure, deleteChallenge, openChallenge, startChallenge } from './signInQueries';

/** The cookie of a sign-in whose password was right and whose second step is still to come. */
export const CHALLENGE_COOKIE = 'studio_two_step';
/** Time to open the authenticator app and type a code; then the password is asked again. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one password may be followed by; then the password is asked again. */
export const CHALLENGE_MAX_FAILURES = 5;

const hashToken = (token: string) => createHash('sha256').update(`challenge:${token}`).digest('base64url');

export interface Challenge {
  staffUserId: number;
  next: string | null;
}

/**
 * Half-done sign-ins, kept in the database (several instances share them) and never a session:
 * the cookie's token names one, which ends with the second step, its expiry or too many wrong codes.
 */
export function createChallengeStore(db: Queryable, now: () => Date) {
  return {
    async start(staffUserId: number, next: string | null): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const at = now();
      await startChallenge(db, {
        id: hashToken(token),
        staff_user_id: staffUserId,
        created_at: at,
        expires_at: new Date(at.getTime() + CHALLENGE_TTL_MS),
        next,
      });
      return token;
    },

    /** The challenge the cookie names, if it is still open. */
    async find(token: string | undefined): Promise<Challenge | null> {
      if (!token || token.length > 128) return null;
      const row = await openChallenge(db, hashToken(token), now());
      return row ? { staffUserId: row.staff_user_id, next: row.next } : null;
    },

    /** A wrong code: counted; whether the challenge is still open after it. */
    async failed(token: string): Promise<boolean> {
      const failures = await countChallengeFailure(db, hashToken(token));
      if (failures !== undefined && failures < CHALLENGE_MAX_FAILURES) return true;
      await deleteChallenge(db, hashToken(token));
      return false;
    },

    /** Ends the challenge; false when it was already gone (a parallel request took it). */
    async finish(token: string): Promise<boolean> {
      return deleteChallenge(db, hashToken(token));
    },
  };
}
