import type { MindbodyConfig } from '../../config';
import { createMindbodyApi, toSearchParams, type MindbodyApi, type MindbodyTransport, type Query } from './api';
import { MindbodyError } from './errors';
import { CircuitOpenError, createCircuitBreaker, type CircuitBreaker, type CircuitPermit, type RetryingHttpOptions } from '../../lib/circuitBreaker';

/** Mindbody's per-call cap: a request that takes longer is abandoned and retried. */
export const MAX_TIMEOUT_MS = 10_000;

/** Per attempt at most MAX_TIMEOUT_MS; the breaker defaults to 5 failures in a row, 30 s. */
export type HttpClientOptions = RetryingHttpOptions;

interface Token {
  header: string;
  expiresAt: number;
}

// Renew this long before Mindbody's stated expiry, so a token never dies mid-listing.
const TOKEN_MARGIN_MS = 5 * 60_000;
// When the answer names no expiry: Mindbody documents 7 days idle; an hour is safe.
const DEFAULT_TOKEN_LIFETIME_MS = 60 * 60_000;

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** The caller gave up (shutdown, or its deadline): the last failure says what Mindbody did meanwhile. */
const cancelled = (last: MindbodyError | undefined) =>
  new MindbodyError(last ? last.message : 'The Mindbody call was cancelled', 'aborted', last?.status, last?.code, last?.kind);

/** Exponential backoff with ±20 % jitter: 1 s, 2 s, 4 s, … at most 30 s. */
export const backoffMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);

/** Retry-After is either seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

async function errorDetails(response: Response): Promise<{ message: string; code?: string }> {
  const body = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(body) as { Error?: { Message?: string; Code?: string }; Message?: string };
    const message = parsed.Error?.Message ?? parsed.Message;
    if (message) return { message: String(message).slice(0, 500), code: parsed.Error?.Code };
  } catch {
    // not JSON
  }
  return { message: body.slice(0, 200) || response.statusText || `HTTP ${response.status}` };
}

/**
 * The HTTP side of the Mindbody Public API v6: Api-Key and SiteId on every call, a staff user token
 * from POST /usertoken/issue cached per site until shortly before it expires and issued again on a
 * 401, a timeout per attempt, and retries with backoff on 429 (honouring Retry-After), 5xx,
 * timeouts and network errors.
 */
export function createHttpTransport(config: MindbodyConfig, options: HttpClientOptions = {}): MindbodyTransport & { tokenIssues(): number } {
  const timeoutMs = Math.min(options.timeoutMs ?? MAX_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const maxAttempts = options.maxAttempts ?? 5;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => new Date());
  const breaker = options.breaker ?? createCircuitBreaker({ service: 'Mindbody', now: () => now().getTime() });
  const tokens = new Map<number, Promise<Token>>();
  let issued = 0;

  async function send(siteId: number, method: 'GET' | 'POST', path: string, init: { query?: Query; body?: unknown; token?: boolean }, signal?: AbortSignal) {
    const url = `${config.apiUrl}${path}${init.query ? `?${toSearchParams(init.query)}` : ''}`;
    let tokenRenewed = false;
    let lastError: MindbodyError | undefined;
    const pause = async (ms: number) => {
      try {
        await sleep(ms, signal);
      } catch {
        throw cancelled(lastError);
      }
    };
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (signal?.aborted) throw cancelled(lastError);
      const headers: Record<string, string> = { 'Api-Key': config.apiKey, SiteId: String(siteId), Accept: 'application/json' };
      if (init.body !== undefined) headers['Content-Type'] = 'application/json';
      if (init.token) headers.Authorization = (await staffToken(siteId, signal)).header;
      const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let permit: CircuitPermit;
      try {
        permit = breaker.begin();
      } catch (error) {
        if (error instanceof CircuitOpenError) throw new MindbodyError(error.message, 'unavailable');
        throw error;
      }
      let response: Response;
      try {
        response = await doFetch(url, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: attemptSignal });
      } catch (error) {
        if (signal?.aborted) {
          permit.release();
          throw cancelled(lastError);
        }
        permit.failure();
        const timedOut = (error as Error).name === 'TimeoutError' || attemptSignal.aborted;
        lastError = timedOut
          ? new MindbodyError(`Mindbody did not answer ${method} ${path} within ${timeoutMs / 1000} s`, 'timeout')
          : new MindbodyError(`Mindbody could not be reached (${(error as Error).message})`, 'network');
        if (attempt < maxAttempts) await pause(backoffMs(attempt));
        continue;
      }

      if (response.ok) {
        if (response.status === 204) {
          permit.success();
          return null;
        }
        const body = await response.text().catch(() => {
          permit.failure();
          throw new MindbodyError(`Mindbody's answer to ${method} ${path} broke off`, 'network', response.status);
        });
        try {
          const parsed = body === '' ? null : JSON.parse(body);
          permit.success();
          return parsed;
        } catch {
          permit.failure();
          throw new MindbodyError(`Mindbody answered ${method} ${path} with something that is not JSON`, 'malformed', response.status);
        }
      }

      const details = await errorDetails(response);
      // A refusal or a rate limit is an answer: Mindbody is up. Only 5xx counts against it.
      if (response.status >= 500) permit.failure();
      else permit.success();
      if (response.status === 401 && init.token && !tokenRenewed) {
        // The cached token expired or was revoked: issue a new one and try again at once.
        tokenRenewed = true;
        tokens.delete(siteId);
        attempt--;
        continue;
      }
      if (response.status === 429) {
        lastError = new MindbodyError(`Mindbody rate limit reached (429): ${details.message}`, 'rate_limited', 429, details.code);
        if (attempt < maxAttempts) {
          const wait = retryAfterMs(response.headers.get('retry-after'), now());
          await pause(Math.min(wait ?? backoffMs(attempt), maxRetryAfterMs));
        }
        continue;
      }
      if (response.status >= 500) {
        lastError = new MindbodyError(`Mindbody failed (${response.status}): ${details.message}`, 'server', response.status, details.code);
        if (attempt < maxAttempts) await pause(backoffMs(attempt));
        continue;
      }
      const kind = response.status === 401 || response.status === 403 ? 'auth' : 'request';
      throw new MindbodyError(`Mindbody refused ${method} ${path} (${response.status}${details.code ? ` ${details.code}` : ''}): ${details.message}`, kind, response.status, details.code);
    }
    throw lastError ?? new MindbodyError(`Mindbody call ${method} ${path} failed`, 'server');
  }

  function staffToken(siteId: number, signal?: AbortSignal): Promise<Token> {
    const cached = tokens.get(siteId);
    if (cached) {
      return cached.then((token) => {
        if (token.expiresAt - TOKEN_MARGIN_MS > now().getTime()) return token;
        tokens.delete(siteId);
        return staffToken(siteId, signal);
      });
    }
    const pending = (async (): Promise<Token> => {
      issued++;
      const body = (await send(siteId, 'POST', '/usertoken/issue', { body: { Username: config.staffUsername, Password: config.staffPassword } }, signal)) as
        | { AccessToken?: string; TokenType?: string; Expires?: string }
        | null;
      if (!body?.AccessToken) throw new MindbodyError('Mindbody issued no staff user token (AccessToken missing)', 'auth');
      const expires = body.Expires ? Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(body.Expires) ? body.Expires : `${body.Expires}Z`) : NaN;
      return {
        // Mindbody names the scheme in TokenType ("Bearer"); send the bare token when it names none.
        header: body.TokenType ? `${body.TokenType} ${body.AccessToken}` : body.AccessToken,
        expiresAt: Number.isNaN(expires) ? now().getTime() + DEFAULT_TOKEN_LIFETIME_MS : expires,
      };
    })();
    tokens.set(siteId, pending);
    pending.catch(() => tokens.delete(siteId));
    return pending;
  }

  return {
    get: (siteId, path, query, signal) => send(siteId, 'GET', path, { query, token: true }, signal),
    checkAvailable: () => breaker.check(),
    tokenIssues: () => issued,
  };
}

/** The live Mindbody client for the configured sites. */
export function createMindbodyClient(config: MindbodyConfig, options: HttpClientOptions = {}): MindbodyApi {
  return createMindbodyApi(createHttpTransport(config, options), { mode: 'live', siteIds: config.siteIds });
}
