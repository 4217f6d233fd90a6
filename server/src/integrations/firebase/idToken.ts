import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { retrying } from '../../lib/retry';

/**
 * Google's public keys for Firebase ID tokens, as a JWK set (the same keys as the X.509 form at
 * .../robot/v1/metadata/x509/securetoken@system.gserviceaccount.com that the Firebase docs name).
 */
export const GOOGLE_ID_TOKEN_KEYS_URL = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

// Without a usable max-age, keep keys an hour; never refetch more often than a minute, so tokens
// with made-up kids cannot make us hammer Google.
const DEFAULT_KEYS_MAX_AGE_MS = 60 * 60_000;
const MIN_KEYS_MAX_AGE_MS = 60_000;
const MAX_KEYS_MAX_AGE_MS = 24 * 60 * 60_000;
const REFETCH_COOLDOWN_MS = 60_000;
const KEYS_TIMEOUT_MS = 5_000;
// Google's clock and ours may disagree a little about when a token was issued.
const ISSUED_AT_SKEW_S = 60;

/** Google's keys could not be had: the caller should retry, the token may well be fine. */
export class IdTokenKeysUnavailable extends Error {
  constructor(detail: string) {
    super(`Google's signing keys for Firebase ID tokens could not be fetched (${detail})`);
    this.name = 'IdTokenKeysUnavailable';
  }
}

/** The token proves nothing; the message says why, for the app's developers. */
export class IdTokenRejected extends Error {
  constructor(detail: string) {
    super(`Invalid Firebase ID token: ${detail}`);
    this.name = 'IdTokenRejected';
  }
}

/** Cache-Control max-age in ms, kept within sane bounds; null when the header has none. */
export function keysMaxAgeMs(cacheControl: string | null): number | null {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,9})"?\s*(?:,|$)/i.exec(cacheControl ?? '');
  if (!match) return null;
  return Math.min(MAX_KEYS_MAX_AGE_MS, Math.max(MIN_KEYS_MAX_AGE_MS, Number(match[1]) * 1000));
}

/** Google's key set, fetched when first needed and again when Cache-Control max-age runs out or an unknown kid shows up. */
export function googleIdTokenKeys(options: { now: () => number; fetch?: typeof fetch }): JWTVerifyGetKey {
  const fetchKeys = options.fetch ?? fetch;
  interface CachedKeys {
    keys: JWTVerifyGetKey;
    until: number;
    fetchedAt: number;
  }
  let cached: CachedKeys | null = null;
  let inFlight: Promise<CachedKeys> | null = null;

  function load(): Promise<CachedKeys> {
    return retrying<CachedKeys, IdTokenKeysUnavailable>(
      { attempts: 1, timeoutMs: KEYS_TIMEOUT_MS, fetch: fetchKeys, now: options.now },
      {
        prepare: () => ({ url: GOOGLE_ID_TOKEN_KEYS_URL, init: { headers: { accept: 'application/json' } } }),
        classify: (response, text) => {
          if (!response.ok) return { fail: new IdTokenKeysUnavailable(`HTTP ${response.status}`) };
          let body: JSONWebKeySet | null = null;
          try {
            body = JSON.parse(text) as JSONWebKeySet | null;
          } catch {
            // reported below
          }
          if (!body || !Array.isArray(body.keys)) return { fail: new IdTokenKeysUnavailable('the answer is not a JWK set') };
          const time = options.now();
          return {
            done: {
              keys: createLocalJWKSet(body),
              fetchedAt: time,
              until: time + (keysMaxAgeMs(response.headers.get('cache-control')) ?? DEFAULT_KEYS_MAX_AGE_MS),
            },
          };
        },
        unreachable: (_error, timedOut) => new IdTokenKeysUnavailable(timedOut ? 'timed out' : 'network error'),
        giveUp: (last) => {
          throw last;
        },
      },
    );
  }

  // Parallel requests after expiry share one fetch.
  const refresh = async (): Promise<CachedKeys> => {
    inFlight ??= load().finally(() => {
      inFlight = null;
    });
    cached = await inFlight;
    return cached;
  };

  return async (header, token) => {
    const current: CachedKeys = cached && options.now() < cached.until ? cached : await refresh();
    try {
      return await current.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || options.now() - current.fetchedAt < REFETCH_COOLDOWN_MS) throw error;
      return (await refresh()).keys(header, token);
    }
  };
}

export interface VerifiedIdentity {
  uid: string;
  email: string;
}

export type IdTokenVerifier = (authorization: string | undefined) => Promise<VerifiedIdentity>;

function explain(error: unknown, projectId: string): string {
  if (error instanceof errors.JWTExpired) return 'it has expired (the app gets a fresh one with getIdToken())';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return `it was issued for another Firebase project (aud must be ${projectId})`;
    if (error.claim === 'iss') return `it was not issued by Firebase Authentication for this project (iss must be https://securetoken.google.com/${projectId})`;
    return `claim ${error.claim} is invalid (${error.reason})`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'it must be signed with RS256';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return 'its kid is not one of the keys Google publishes for Firebase ID tokens';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not match';
  return 'it is not a signed JWT';
}

function checkClaims(payload: JWTPayload, now: Date): VerifiedIdentity {
  const latest = now.getTime() / 1000 + ISSUED_AT_SKEW_S;
  if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 128)
    throw new IdTokenRejected('sub (the user id) must be a non-empty string');
  if (typeof payload.iat !== 'number' || payload.iat > latest) throw new IdTokenRejected('iat must be in the past');
  if (typeof payload.auth_time !== 'number' || payload.auth_time > latest) throw new IdTokenRejected('auth_time must be in the past');
  if (typeof payload.email !== 'string' || payload.email.length === 0)
    throw new IdTokenRejected('it carries no email claim (the user signed in without an e-mail address)');
  // Anyone can create an account with someone else's address; only a verified one names its owner.
  if (payload.email_verified !== true) throw new IdTokenRejected('its e-mail address is not verified (email_verified is not true)');
  return { uid: payload.sub, email: payload.email };
}

/** Checks `Authorization: Bearer <Firebase ID token>` as firebase.google.com/docs/auth/admin/verify-id-tokens says. */
export function createIdTokenVerifier(options: { projectId: string; keys: JWTVerifyGetKey; now: () => Date }): IdTokenVerifier {
  const { projectId, keys } = options;
  return async (authorization) => {
    if (!authorization) throw new IdTokenRejected('the Authorization header is missing (send "Bearer <Firebase ID token>" of the signed-in user)');
    const match = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(authorization.trim());
    if (!match) throw new IdTokenRejected('the Authorization header must be "Bearer <Firebase ID token>"');
    const now = options.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1]!, keys, {
        algorithms: ['RS256'],
        audience: projectId,
        issuer: `https://securetoken.google.com/${projectId}`,
        currentDate: now,
        requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
      }));
    } catch (error) {
      if (error instanceof IdTokenKeysUnavailable) throw error;
      throw new IdTokenRejected(explain(error, projectId));
    }
    return checkClaims(payload, now);
  };
}
