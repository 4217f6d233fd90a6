import { VimeoError, type CataloguePage, type VimeoCatalogue } from './types';
import { toCatalogueVideo, VIDEO_FIELDS, WirePage } from './wire';
import { parseRateLimitReset, parseRetryAfter } from './rateLimit';
import { CircuitOpenError, createCircuitBreaker, type CircuitBreaker } from '../../lib/circuitBreaker';

export interface VimeoClientOptions {
  /** https://api.vimeo.com, or a stand-in in tests. */
  baseUrl: string;
  token: string;
  /** 'me' for the token's own account, else a Vimeo user id. */
  userId: string;
  perPage?: number;
  /** One request, body included. */
  timeoutMs?: number;
  /** Tries per page on 5xx, timeouts and network errors before the sync gives up. */
  maxAttempts?: number;
  /** First retry delay; doubled on every further retry. */
  backoffMs?: number;
  /** Longest a rate-limit pause may last; Vimeo blocks for up to a minute. */
  maxRateLimitWaitMs?: number;
  /** 429s in a row on one page before the sync gives up. */
  max429s?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  log?: { warn(details: object, message: string): void };
  /** Opens after repeated timeouts, network errors, 5xx and unreadable pages (default: 5 in a row, 30 s). */
  breaker?: CircuitBreaker;
}

const ACCEPT = 'application/vnd.vimeo.*+json;version=3.4';

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A 2xx whose body cannot be read: Vimeo is unwell, so it counts against the breaker. */
class Unreadable extends VimeoError {}

/** Transient trouble worth another try (5xx, timeouts, dropped connections). */
class Retryable extends Error {
  constructor(message: string, readonly waitAtLeastMs = 0) {
    super(message);
  }
}

/** The real Vimeo API 3.4: GET /me/videos (or /users/{id}/videos), following paging.next to the end. */
export function createVimeoClient(options: VimeoClientOptions): VimeoCatalogue {
  const base = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const perPage = options.perPage ?? 100;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? 1_000;
  const maxWait = options.maxRateLimitWaitMs ?? 120_000;
  const max429s = options.max429s ?? 5;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const breaker = options.breaker ?? createCircuitBreaker({ service: 'Vimeo', now });
  const listPath = options.userId === 'me' ? '/me/videos' : `/users/${encodeURIComponent(options.userId)}/videos`;
  // Set when X-RateLimit-Remaining reaches 0: the next request waits for the reset instead of earning a 429.
  let pausedUntil = 0;

  /** paging.next is relative to the API root; any other host would receive our token, so it is refused. */
  function pageUrl(next: string | null): string {
    const url = next === null ? new URL(base + listPath) : next.startsWith('/') ? new URL(base + next) : new URL(next);
    if (url.origin !== origin) throw new VimeoError(`Vimeo's next-page link points to another host (${url.host}); the sync stopped there.`);
    if (!url.searchParams.has('per_page')) url.searchParams.set('per_page', String(perPage));
    if (!url.searchParams.has('fields')) url.searchParams.set('fields', VIDEO_FIELDS);
    return url.toString();
  }

  function notePause(headers: Headers) {
    const remaining = headers.get('x-ratelimit-remaining');
    if (remaining === null || Number(remaining) > 0) return;
    const reset = parseRateLimitReset(headers.get('x-ratelimit-reset'), now());
    if (reset !== null) pausedUntil = Math.min(reset, now() + maxWait);
  }

  async function attempt(url: string, page: number, signal: AbortSignal): Promise<WirePage | { rateLimitedMs: number }> {
    const requestSignal = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        headers: { authorization: `bearer ${options.token}`, accept: ACCEPT },
        signal: requestSignal,
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const timedOut = (error as Error).name === 'TimeoutError';
      const cause = ((error as Error).cause as Error | undefined)?.message;
      throw new Retryable(timedOut ? `no answer within ${timeoutMs / 1000} s` : `network error (${cause ?? (error as Error).message})`);
    }
    notePause(response.headers);
    if (response.status === 429) {
      const reset = parseRateLimitReset(response.headers.get('x-ratelimit-reset'), now()) ?? parseRetryAfter(response.headers.get('retry-after'), now());
      return { rateLimitedMs: Math.min(Math.max(0, (reset ?? now() + 60_000) - now()), maxWait) };
    }
    if (response.status >= 500) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), now());
      throw new Retryable(`HTTP ${response.status}${describeError(text)}`, retryAfter === null ? 0 : Math.min(retryAfter - now(), maxWait));
    }
    if (!response.ok) throw new VimeoError(explainRefusal(response.status, text, options.userId));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Unreadable(`Vimeo sent page ${page} as something other than JSON; the sync stopped there.`);
    }
    const parsed = WirePage.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Unreadable(`Vimeo sent page ${page} in a shape the sync cannot read (${issue.path.join('.')}: ${issue.message}).`);
    }
    return parsed.data;
  }

  async function fetchPage(url: string, page: number, signal: AbortSignal): Promise<WirePage> {
    let failures = 0;
    let limited = 0;
    for (;;) {
      const wait = pausedUntil - now();
      pausedUntil = 0;
      if (wait > 0) await sleep(wait, signal);
      try {
        const result = await breaker.run(() => attempt(url, page, signal), {
          isFailure: (error) => error instanceof Retryable || error instanceof Unreadable,
        });
        if (!('rateLimitedMs' in result)) return result;
        limited++;
        if (limited >= max429s) {
          throw new VimeoError(`Vimeo kept answering 429 Too Many Requests on page ${page} (${limited} times in a row); the sync stopped there.`);
        }
        options.log?.warn({ page, waitMs: result.rateLimitedMs }, 'Vimeo rate limit reached; waiting for the reset');
        pausedUntil = now() + result.rateLimitedMs;
      } catch (error) {
        if (error instanceof CircuitOpenError) throw new VimeoError(`${error.message} The sync stopped at page ${page}.`);
        if (!(error instanceof Retryable)) throw error;
        failures++;
        if (failures >= maxAttempts) {
          throw new VimeoError(`Vimeo failed ${failures} times in a row on page ${page} (last: ${error.message}); the sync stopped there.`);
        }
        const delay = Math.max(error.waitAtLeastMs, backoffMs * 2 ** (failures - 1) * (0.8 + Math.random() * 0.4));
        options.log?.warn({ page, attempt: failures, delayMs: Math.round(delay), reason: error.message }, 'Vimeo request failed; retrying');
        await sleep(delay, signal);
      }
    }
  }

  async function* pages(signal: AbortSignal): AsyncGenerator<CataloguePage> {
    let url: string | null = pageUrl(null);
    const visited = new Set<string>();
    let page = 0;
    let pagesTotal: number | null = null;
    while (url) {
      if (visited.has(url)) throw new VimeoError(`Vimeo's paging led back to page ${page}; the sync stopped there.`);
      visited.add(url);
      page++;
      const body = await fetchPage(url, page, signal);
      if (page === 1 && typeof body.total === 'number') pagesTotal = Math.max(1, Math.ceil(body.total / (body.per_page || perPage)));
      yield { page, pagesTotal, videos: body.data.map(toCatalogueVideo) };
      url = body.paging?.next ? pageUrl(body.paging.next) : null;
    }
  }

  return { source: 'vimeo', pages, checkAvailable: () => breaker.check() };
}

function describeError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; developer_message?: unknown };
    const detail = typeof body.developer_message === 'string' ? body.developer_message : body.error;
    return typeof detail === 'string' && detail ? `: ${detail.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

function explainRefusal(status: number, text: string, userId: string): string {
  const detail = describeError(text);
  if (status === 401) return `Vimeo rejected the access token (HTTP 401${detail}). Check VIMEO_ACCESS_TOKEN.`;
  if (status === 403) return `Vimeo refused to list the videos (HTTP 403${detail}). The access token may lack the 'private' scope.`;
  if (status === 404) return `Vimeo has no user '${userId}' (HTTP 404${detail}). Check VIMEO_USER_ID.`;
  return `Vimeo refused the request (HTTP ${status}${detail}).`;
}
