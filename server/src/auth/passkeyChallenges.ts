import type { Queryable } from '../db/client';
import { claimPasskeyChallenge, insertPasskeyChallenge } from './passkeyQueries';

/** Time to touch the security key or unlock the phone; the browser's prompt gives up then too. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export type ChallengePurpose = 'register' | 'sign_in' | 'reauth';

/** The challenge the browser signed, read from clientDataJSON before anything is trusted. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && /^[A-Za-z0-9_-]{16,200}$/.test(parsed.challenge) ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Challenges kept in the database (several instances share them): each is handed out once and
 * claimed once, by one conditional DELETE, so a replayed or parallel answer finds it gone.
 */
export function createPasskeyChallenges(db: Queryable, now: () => Date) {
  return {
    async issue(challenge: string, purpose: ChallengePurpose, staffUserId: number | null, userHandle: string | null = null) {
      const at = now();
      await insertPasskeyChallenge(db, {
        challenge,
        purpose,
        staff_user_id: staffUserId,
        user_handle: userHandle,
        created_at: at,
        expires_at: new Date(at.getTime() + PASSKEY_CHALLENGE_TTL_MS),
      });
    },

    /** Takes the challenge if it is open, for this purpose and account; the row, or null. */
    async claim(challenge: string, purpose: ChallengePurpose, staffUserId: number | null) {
      const row = await claimPasskeyChallenge(db, challenge, purpose, staffUserId, now());
      return row ?? null;
    },
  };
}
export type PasskeyChallenges = ReturnType<typeof createPasskeyChallenges>;
