import { createHash, randomInt } from 'node:crypto';

/** Pure rules of two-step codes: what a typed code is, how recovery codes look and are stored. */

export const RECOVERY_CODE_COUNT = 10;
/** RFC 6238's step; a code of the step before or after the server's is accepted too (clock drift). */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DRIFT_STEPS = 1;
export const TOTP_ISSUER = 'Studio Console';
/** Longer than any code we issue; anything longer is refused unread. */
export const CODE_MAX_LENGTH = 64;

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type TypedCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | { kind: 'malformed' };

/**
 * What a typed code is: six digits (spaces allowed, as apps show "123 456") are an authenticator
 * code; ten letters and digits (a hyphen allowed, any case) a recovery code; anything else is malformed.
 */
export function readCode(typed: unknown): TypedCode {
  if (typeof typed !== 'string' || typed.length > CODE_MAX_LENGTH) return { kind: 'malformed' };
  const compact = typed.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (compact.length === 10 && [...compact].every((c) => RECOVERY_ALPHABET.includes(c))) return { kind: 'recovery', code: compact };
  return { kind: 'malformed' };
}

/** Ten recovery codes as shown once ('abcde-fghjk'): about 49 random bits each, no look-alike characters. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** How a recovery code is stored: the hash of its compact form, so 'ABCDE FGHJK' matches 'abcde-fghjk'. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(`recovery:${code.replace(/[\s-]/g, '').toLowerCase()}`)
    .digest('base64url');
