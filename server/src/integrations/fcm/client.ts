import { createSign } from 'node:crypto';
import { CircuitOpenError, createCircuitBreaker, type CircuitPermit, type RetryingHttpOptions } from '../../lib/circuitBreaker';
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
const RETRIED = new Set([429, 500, 502, 503, 504]);
// Codes that say the token itself will never work again (external-apis.md §4).
const DEAD_CODES = new Set(['UNREGISTERED', 'SENDER_ID_MISMATCH']);

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** Exponential backoff with ±20 % jitter: 0.5 s, 1 s, 2 s, … at most 10 s. */
export const backoffMs = (attempt: number) => Math.min(10_000, 500 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

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
  error?: { code?: number; message?: string; status?: string; details?: { '@type'?: string; errorCode?: string }[] };
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
 * until shortly before it expires, fetched again on a 401), a timeout per attempt, and retries
 * with exponential backoff and jitter on 429/5xx honouring Retry-After.
 */
export function createFcmClient(config: FcmConfig, options: FcmClientOptions = {}): FcmSender & { tokenFetches(): number } {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxAttempts = options.maxAttempts ?? 4;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 20_000;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => new Date());
  const breaker = options.breaker ?? createCircuitBreaker({ service: 'FCM', now: () => now().getTime() });
  const account = config.serviceAccount;
  const url = `${config.apiUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
  let cached: Promise<{ header: string; expiresAt: number }> | undefined;
  let fetches = 0;

  async function fetchAccessToken(signal?: AbortSignal) {
    fetches++;
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: serviceAccountJwt(account, now()) });
    const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(account.token_uri, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: body.toString(),
        signal: attemptSignal,
      });
    } catch (error) {
      throw new FcmAuthError(`Google's token endpoint did not answer (${(error as Error).name === 'TimeoutError' || attemptSignal.aborted ? 'timeout' : (error as Error).message})`);
    }
    const text = await response.text().catch(() => '');
    let parsed: { access_token?: string; expires_in?: number; token_type?: string; error?: string; error_description?: string } = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // reported below
    }
    if (!response.ok || !parsed.access_token) {
      const why = parsed.error_description ?? parsed.error ?? (text.slice(0, 200) || `HTTP ${response.status}`);
      throw new FcmAuthError(`Google refused the FCM service account (${response.status}): ${why}`);
    }
    return {
      header: `${parsed.token_type ?? 'Bearer'} ${parsed.access_token}`,
      expiresAt: now().getTime() + (Number(parsed.expires_in) > 0 ? Number(parsed.expires_in) : 3600) * 1000,
    };
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
      },
    });
    let renewed = false;
    let last: TokenResult = { token, outcome: 'failed', code: 'UNKNOWN', error: 'FCM was not called' };
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (signal?.aborted) return { token, outcome: 'failed', code: 'aborted', error: 'The push was cancelled' };
      let authorization: string;
      try {
        authorization = await accessToken(signal);
      } catch (error) {
        return { token, outcome: 'failed', code: 'auth', error: (error as Error).message };
      }
      let permit: CircuitPermit;
      try {
        permit = breaker.begin();
      } catch (error) {
        if (error instanceof CircuitOpenError) return { token, outcome: 'failed', code: 'unavailable', error: error.message };
        throw error;
      }
      const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { Authorization: authorization, 'Content-Type': 'application/json', Accept: 'application/json' },
          body: payload,
          signal: attemptSignal,
        });
      } catch (error) {
        if (signal?.aborted) {
          permit.release();
          return { token, outcome: 'failed', code: 'aborted', error: 'The push was cancelled' };
        }
        permit.failure();
        const timedOut = (error as Error).name === 'TimeoutError' || attemptSignal.aborted;
        last = timedOut
          ? { token, outcome: 'failed', code: 'timeout', error: `FCM did not answer within ${timeoutMs / 1000} s` }
          : { token, outcome: 'failed', code: 'network', error: `FCM could not be reached (${(error as Error).message})` };
        if (attempt < maxAttempts) await sleep(backoffMs(attempt), signal).catch(() => undefined);
        continue;
      }

      const text = await response.text().catch(() => '');
      let body: unknown = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = null;
      }
      // A 4xx (429 included) means FCM is up and answered; 5xx and answers that are not FCM's JSON count against it.
      if (response.status >= 500 || (response.ok && body === null)) permit.failure();
      else permit.success();
      if (response.ok) {
        const name = (body as { name?: unknown } | null)?.name;
        return { token, outcome: 'sent', message_id: typeof name === 'string' ? name : undefined };
      }
      const { code, message: fcmMessage } = fcmErrorCode(body, response.status);
      if (response.status === 401 && !renewed && code !== 'THIRD_PARTY_AUTH_ERROR') {
        // The cached access token expired or was revoked: fetch a new one and try again at once.
        renewed = true;
        cached = undefined;
        attempt--;
        continue;
      }
      const detail = `FCM answered ${response.status} ${code}${fcmMessage ? `: ${fcmMessage}` : ''}`;
      if (DEAD_CODES.has(code)) return { token, outcome: 'dead', code, error: detail };
      if (!RETRIED.has(response.status)) return { token, outcome: 'failed', code, error: detail };
      last = { token, outcome: 'failed', code, error: detail };
      if (attempt >= maxAttempts) break;
      const asked = retryAfterMs(response.headers.get('retry-after'), now());
      if (asked !== null && asked > maxRetryAfterMs) {
        return { ...last, error: `${detail} (FCM asks to wait ${Math.ceil(asked / 1000)} s before trying again)` };
      }
      await sleep(asked ?? backoffMs(attempt), signal).catch(() => undefined);
    }
    return last;
  }

  return { mode: 'live', send, tokenFetches: () => fetches };
}
