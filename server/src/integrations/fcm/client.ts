import { createSign } from 'node:crypto';
import { createCircuitBreaker } from '../../lib/circuitBreaker';
import { retrying, type RetryingHttpOptions } from '../../lib/retry';
import type { FcmSender, PushMessage, TokenResult } from './types';

/** The service-account key fields the HTTP v1 API needs (the JSON file Google Cloud hands out). */
export interface ServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  /** Where the signed JWT is exchanged for an access token. */
  token_uri: string;
}

export interface FcmConfig {
  /** https://fcm.googleapis.com, or a local stand-in. */
  apiUrl: string;
  serviceAccount: ServiceAccount;
}

/** FCM answers in well under a second: a hung call must not hold a staff request, nor a long Retry-After. */
export type FcmClientOptions = RetryingHttpOptions;

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const DEFAULT_TIMEOUT_MS = 10_000;
// Renew this long before the stated expiry so a token never dies between check and use.
const TOKEN_MARGIN_MS = 60_000;
const RETRIED = new Set([500, 502, 504]);
const BACKOFF = { firstMs: 500, maxMs: 10_000 };
// Retried later from the job queue, never while a staff request waits: FCM asks for at least a minute
// on QUOTA_EXCEEDED (ErrorCode doc), and an overloaded FCM should not be hammered (UNAVAILABLE).
const DEFERRED_CODES = new Set(['QUOTA_EXCEEDED', 'UNAVAILABLE']);
const DEFERRED_STATUSES = new Set([429, 503]);
// Codes that say the token itself will never work again (https://firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode).
const DEAD_CODES = new Set(['UNREGISTERED', 'SENDER_ID_MISMATCH']);

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The RS256-signed assertion of the OAuth 2.0 JWT bearer grant (RFC 7523) Google's token endpoint takes. */
export function serviceAccountJwt(account: ServiceAccount, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(JSON.stringify({ iss: account.client_email, scope: FCM_SCOPE, aud: account.token_uri, iat, exp: iat + 3600 }));
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

export class FcmAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FcmAuthError';
  }
}

interface FcmErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
}

/**
 * Whether an INVALID_ARGUMENT is about the registration token itself (malformed, or not a token
 * at all) rather than the message: Firebase's token guide says to remove such a token. FCM names
 * the field in a google.rpc.BadRequest detail, or says so in the message.
 */
export function rejectsToken(body: unknown, code: string): boolean {
  if (code !== 'INVALID_ARGUMENT') return false;
  const error = (body as FcmErrorBody | null)?.error;
  const namesToken = error?.details?.some((d) => d?.fieldViolations?.some((v) => v?.field === 'message.token')) ?? false;
  return namesToken || /registration token/i.test(error?.message ?? '');
}

/** FCM's own errorCode first (details[].errorCode), the canonical status otherwise — as firebase-admin reads it. */
export function fcmErrorCode(body: unknown, httpStatus: number): { code: string; message: string } {
  const error = (body as FcmErrorBody | null)?.error;
  const detail = error?.details?.find((d) => typeof d?.errorCode === 'string')?.errorCode;
  const code = detail ?? error?.status ?? `HTTP_${httpStatus}`;
  return { code: code === 'NOT_FOUND' && httpStatus === 404 ? 'UNREGISTERED' : code, message: (error?.message ?? '').slice(0, 300) };
}

/**
 * FCM HTTP v1 `projects/{id}/messages:send` with a service-account OAuth2 access token (cached
 * until shortly before it expires, fetched again on a 401), a timeout per attempt, and short
 * retries with exponential backoff and jitter on 500/502/504 and network failures. QUOTA_EXCEEDED
 * and UNAVAILABLE come back at once as 'deferred' for the push service to retry from the job queue.
 */
export function createFcmClient(config: FcmConfig, options: FcmClientOptions = {}): FcmSender & { tokenFetches(): number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 20_000;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep;
  const now = options.now ?? (() => new Date());
  const breaker = options.breaker ?? createCircuitBreaker({ service: 'FCM', now: () => now().getTime() });
  const account = config.serviceAccount;
  const url = `${config.apiUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
  let cached: Promise<{ header: string; expiresAt: number }> | undefined;
  let fetches = 0;

  /** One try: a refused or unanswered token request ends the send ('auth'); the push service retries later. */
  async function fetchAccessToken(signal?: AbortSignal) {
    fetches++;
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountJwt(account, now()) });
    return retrying<{ header: string; expiresAt: number }, FcmAuthError>(
      { attempts: 1, timeoutMs, signal, fetch: doFetch, now: () => now().getTime() },
      {
        prepare: () => ({
          url: account.token_uri,
          init: { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: body.toString() },
        }),
        classify: (response, text) => {
          let parsed: { access_token?: string; expires_in?: number; token_type?: string; error?: string; error_description?: string } = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            // reported below
          }
          if (!response.ok || !parsed.access_token) {
            const why = parsed.error_description ?? parsed.error ?? (text.slice(0, 200) || `HTTP ${response.status}`);
            return { fail: new FcmAuthError(`Google refused the FCM service account (${response.status}): ${why}`) };
          }
          return {
            done: {
              header: `${parsed.token_type ?? 'Bearer'} ${parsed.access_token}`,
              expiresAt: now().getTime() + (Number(parsed.expires_in) > 0 ? Number(parsed.expires_in) : 3600) * 1000,
            },
          };
        },
        unreachable: (error, timedOut) => new FcmAuthError(`Google's token endpoint did not answer (${timedOut ? 'timeout' : error.message})`),
        giveUp: (last) => {
          throw last;
        },
        aborted: () => {
          throw new FcmAuthError("Google's token endpoint did not answer (timeout)");
        },
      },
    );
  }

  async function accessToken(signal?: AbortSignal): Promise<string> {
    if (cached) {
      const token = await cached.catch(() => undefined);
      if (token && token.expiresAt - TOKEN_MARGIN_MS > now().getTime()) return token.header;
    }
    cached = fetchAccessToken(signal);
    cached.catch(() => undefined);
    return (await cached).header;
  }

  async function send(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult> {
    const payload = JSON.stringify({
      message: {
        token,
        notification: { title: message.title, body: message.body },
        ...(message.data && Object.keys(message.data).length > 0 ? { data: message.data } : {}),
        ...(message.collapse_key
          ? {
              // Not android.collapse_key: FCM keeps at most four of those per device, and each broadcast would be one.
              android: { notification: { tag: message.collapse_key } },
              apns: { headers: { 'apns-collapse-id': message.collapse_key } },
              webpush: { notification: { tag: message.collapse_key } },
            }
          : {}),
      },
    });
    const failed = (code: string, error: string): TokenResult => ({ token, outcome: 'failed', code, error });
    // Signing the assertion fails on a broken key, Google refuses a wrong one: either way the account is the problem.
    const authorization = () =>
      accessToken(signal).catch((error: Error) => {
        throw error instanceof FcmAuthError ? error : new FcmAuthError(error.message);
      });
    try {
      return await retrying<TokenResult, TokenResult>(
        {
          attempts: maxAttempts,
          timeoutMs,
          backoff: BACKOFF,
          maxWaitMs: maxRetryAfterMs,
          // A staff request is waiting: a long Retry-After ends the call rather than holding it.
          longRetryAfter: 'give-up',
          breaker,
          signal,
          fetch: doFetch,
          sleep,
          now: () => now().getTime(),
          random: options.random,
        },
        {
          prepare: async () => ({
            url,
            init: {
              method: 'POST',
              headers: { Authorization: await authorization(), 'Content-Type': 'application/json', Accept: 'application/json' },
              body: payload,
            },
          }),
          classify: (response, text, retryAfter) => {
            let body: unknown = null;
            try {
              body = text === '' ? null : JSON.parse(text);
            } catch {
              body = null;
            }
            // A 4xx (429 included) means FCM is up and answered; 5xx and answers that are not FCM's JSON count against it.
            const unwell = response.status >= 500 || (response.ok && body === null);
            if (response.ok) {
              const name = (body as { name?: unknown } | null)?.name;
              return { done: { token, outcome: 'sent', message_id: typeof name === 'string' ? name : undefined }, unwell };
            }
            const { code, message: fcmMessage } = fcmErrorCode(body, response.status);
            const detail = `FCM answered ${response.status} ${code}${fcmMessage ? `: ${fcmMessage}` : ''}`;
            if (response.status === 401 && code !== 'THIRD_PARTY_AUTH_ERROR') {
              // The cached access token expired or was revoked: fetch a new one and try again at once.
              cached = undefined;
              return { retry: failed(code, detail), again: 'at-once' };
            }
            if (DEAD_CODES.has(code) || rejectsToken(body, code)) return { done: { token, outcome: 'dead', code, error: detail }, unwell };
            if (DEFERRED_CODES.has(code) || DEFERRED_STATUSES.has(response.status)) {
              return { done: { token, outcome: 'deferred', code, error: detail, ...(retryAfter !== null ? { retry_after_ms: retryAfter } : {}) }, unwell };
            }
            if (!RETRIED.has(response.status)) return { done: failed(code, detail), unwell };
            return { retry: failed(code, detail), unwell };
          },
          unreachable: (error, timedOut) =>
            timedOut ? failed('timeout', `FCM did not answer within ${timeoutMs / 1000} s`) : failed('network', `FCM could not be reached (${error.message})`),
          giveUp: (last, { retryAfterMs }) =>
            retryAfterMs === undefined ? last : { ...last, error: `${last.error} (FCM asks to wait ${Math.ceil(retryAfterMs / 1000)} s before trying again)` },
          aborted: () => failed('aborted', 'The push was cancelled'),
          circuitOpen: (error) => failed('unavailable', error.message),
        },
      );
    } catch (error) {
      if (error instanceof FcmAuthError) return failed('auth', error.message);
      throw error;
    }
  }

  return { mode: 'live', send, tokenFetches: () => fetches };
}
