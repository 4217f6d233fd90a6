import type { MindbodyConfig } from '../../config';
import { createMindbodyApi, toSearchParams, type CallMeter, type MindbodyApi, type MindbodyTransport, type Query } from './api';
import { MindbodyError } from './errors';
import { createCircuitBreaker } from '../../lib/circuitBreaker';
import { retrying, type RetryingHttpOptions } from '../../lib/retry';

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

/** The caller gave up (shutdown, or its deadline): the last failure says what Mindbody did meanwhile. */
const cancelled = (last: MindbodyError | undefined) =>
  new MindbodyError(last ? last.message : 'The Mindbody call was cancelled', 'aborted', last?.status, last?.code, last?.kind);

const BACKOFF = { firstMs: 1000, maxMs: 30_000 };

function errorDetails(response: Response, body: string): { message: string; code?: string } {
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
  const now = options.now ?? (() => new Date());
  const breaker = options.breaker ?? createCircuitBreaker({ service: 'Mindbody', now: () => now().getTime() });
  const tokens = new Map<number, Promise<Token>>();
  let issued = 0;

  async function send(
    siteId: number,
    method: 'GET' | 'POST',
    path: string,
    init: { query?: Query; body?: unknown; token?: boolean },
    signal?: AbortSignal,
    meter?: CallMeter,
  ) {
    const url = `${config.apiUrl}${path}${init.query ? `?${toSearchParams(init.query)}` : ''}`;
    return retrying<unknown, MindbodyError>(
      {
        attempts: maxAttempts,
        timeoutMs,
        backoff: BACKOFF,
        maxWaitMs: maxRetryAfterMs,
        breaker,
        signal,
        fetch: doFetch,
        sleep: options.sleep,
        now: () => now().getTime(),
        random: options.random,
      },
      {
        prepare: async () => {
          const headers: Record<string, string> = { 'Api-Key': config.apiKey, SiteId: String(siteId), Accept: 'application/json' };
          if (init.body !== undefined) headers['Content-Type'] = 'application/json';
          if (init.token) headers.Authorization = (await staffToken(siteId, signal, meter)).header;
          return { url, init: { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) } };
        },
        // Mindbody bills every request it receives, retries too: the meter sees each one.
        beforeSend: () => meter?.spend(),
        classify: (response, body) => {
          if (response.ok) {
            if (response.status === 204) return { done: null };
            try {
              return { done: body === '' ? null : JSON.parse(body) };
            } catch {
              return {
                fail: new MindbodyError(`Mindbody answered ${method} ${path} with something that is not JSON`, 'malformed', response.status),
                unwell: true,
              };
            }
          }
          const details = errorDetails(response, body);
          const kind = response.status === 401 || response.status === 403 ? 'auth' : 'request';
          const refused = new MindbodyError(
            `Mindbody refused ${method} ${path} (${response.status}${details.code ? ` ${details.code}` : ''}): ${details.message}`,
            kind,
            response.status,
            details.code,
          );
          // A refusal or a rate limit is an answer: Mindbody is up. Only 5xx counts against it.
          if (response.status === 401 && init.token) {
            // The cached token expired or was revoked: issue a new one and try again at once.
            tokens.delete(siteId);
            return { retry: refused, again: 'at-once' };
          }
          if (response.status === 429) {
            return { retry: new MindbodyError(`Mindbody rate limit reached (429): ${details.message}`, 'rate_limited', 429, details.code) };
          }
          if (response.status >= 500) {
            return {
              retry: new MindbodyError(`Mindbody failed (${response.status}): ${details.message}`, 'server', response.status, details.code),
              unwell: true,
            };
          }
          return { fail: refused };
        },
        unreachable: (error, timedOut) =>
          timedOut
            ? new MindbodyError(`Mindbody did not answer ${method} ${path} within ${timeoutMs / 1000} s`, 'timeout')
            : new MindbodyError(`Mindbody could not be reached (${error.message})`, 'network'),
        giveUp: (last) => {
          throw last;
        },
        aborted: (last) => {
          throw cancelled(last);
        },
        circuitOpen: (error) => {
          throw new MindbodyError(error.message, 'unavailable');
        },
      },
    );
  }

  function staffToken(siteId: number, signal?: AbortSignal, meter?: CallMeter): Promise<Token> {
    const cached = tokens.get(siteId);
    if (cached) {
      return cached.then((token) => {
        if (token.expiresAt - TOKEN_MARGIN_MS > now().getTime()) return token;
        tokens.delete(siteId);
        return staffToken(siteId, signal, meter);
      });
    }
    const pending = (async (): Promise<Token> => {
      issued++;
      const body = (await send(
        siteId,
        'POST',
        '/usertoken/issue',
        { body: { Username: config.staffUsername, Password: config.staffPassword } },
        signal,
        meter,
      )) as { AccessToken?: string; TokenType?: string; Expires?: string } | null;
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
    get: (siteId, path, query, signal, meter) => send(siteId, 'GET', path, { query, token: true }, signal, meter),
    checkAvailable: () => breaker.check(),
    tokenIssues: () => issued,
  };
}

/** The live Mindbody client for the configured sites. */
export function createMindbodyClient(config: MindbodyConfig, options: HttpClientOptions = {}, timeZoneOf?: (siteId: number) => string): MindbodyApi {
  return createMindbodyApi(createHttpTransport(config, options), { mode: 'live', siteIds: config.siteIds, timeZoneOf });
}
