import { VimeoError, type CataloguePage, type VimeoCatalogue } from './types';
import { toCatalogueVideo, VIDEO_FIELDS, WirePage } from './wire';
import { parseRateLimitReset } from './rateLimit';
import { createCircuitBreaker, type CircuitBreaker } from '../../lib/circuitBreaker';
import { retrying, type Sleep } from '../../lib/retry';

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
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  log?: { warn(details: object, message: string): void };
  /** Opens after repeated timeouts, network errors, 5xx and unreadable pages (default: 5 in a row, 30 s). */
  breaker?: CircuitBreaker;
}

const ACCEPT = 'application/vnd.vimeo.*+json;version=3.4';

/** A 2xx whose body cannot be read: Vimeo is unwell, so it counts against the breaker. */
class Unreadable extends VimeoError {}

// With the default five attempts the longest back-off is 8 s; the cap only bounds larger settings.
const MAX_BACKOFF_MS = 60_000;
// A 429 that says nothing about when the limit lifts: Vimeo's blocks last about a minute.
const UNSTATED_RATE_LIMIT_MS = 60_000;

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

  function fetchPage(url: string, page: number, signal: AbortSignal): Promise<WirePage> {
    return retrying<WirePage, string>(
      {
        attempts: maxAttempts,
        budgets: { rate_limited: max429s },
        timeoutMs,
        backoff: { firstMs: backoffMs, maxMs: MAX_BACKOFF_MS },
        maxWaitMs: maxWait,
        breaker,
        signal,
        fetch: doFetch,
        sleep: options.sleep,
        now,
        random: options.random,
      },
      {
        prepare: () => {
          const waitMs = pausedUntil - now();
          pausedUntil = 0;
          return { url, init: { headers: { authorization: `bearer ${options.token}`, accept: ACCEPT } }, waitMs };
        },
        classify: (response, text, retryAfterMs) => {
          if (response.status === 429) {
            const reset = parseRateLimitReset(response.headers.get('x-ratelimit-reset'), now());
            const waitMs = reset !== null ? Math.max(0, reset - now()) : (retryAfterMs ?? UNSTATED_RATE_LIMIT_MS);
            return { retry: 'HTTP 429 Too Many Requests', budget: 'rate_limited', waitMs };
          }
          notePause(response.headers);
          if (response.status >= 500) return { retry: `HTTP ${response.status}${describeError(text)}`, unwell: true };
          if (!response.ok) return { fail: new VimeoError(explainRefusal(response.status, text, options.userId)) };
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            return { fail: new Unreadable(`Vimeo sent page ${page} as something other than JSON; the sync stopped there.`), unwell: true };
          }
          const parsed = WirePage.safeParse(json);
          if (!parsed.success) {
            const issue = parsed.error.issues[0]!;
            return {
              fail: new Unreadable(`Vimeo sent page ${page} in a shape the sync cannot read (${issue.path.join('.')}: ${issue.message}).`),
              unwell: true,
            };
          }
          return { done: parsed.data };
        },
        unreachable: (error, timedOut) =>
          timedOut ? `no answer within ${timeoutMs / 1000} s` : `network error (${((error as Error).cause as Error | undefined)?.message ?? error.message})`,
        onRetry: ({ budget, count, waitMs, last }) => {
          if (budget === 'rate_limited') options.log?.warn({ page, waitMs }, 'Vimeo rate limit reached; waiting for the reset');
          else options.log?.warn({ page, attempt: count, delayMs: Math.round(waitMs), reason: last }, 'Vimeo request failed; retrying');
        },
        giveUp: (last, { budget, attempts }) => {
          if (budget === 'rate_limited') {
            throw new VimeoError(`Vimeo kept answering 429 Too Many Requests on page ${page} (${attempts} times in a row); the sync stopped there.`);
          }
          throw new VimeoError(`Vimeo failed ${attempts} times in a row on page ${page} (last: ${last}); the sync stopped there.`);
        },
        circuitOpen: (error) => {
          throw new VimeoError(`${error.message} The sync stopped at page ${page}.`);
        },
      },
    );
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
