import { CircuitOpenError, type CircuitBreaker, type CircuitPermit } from './circuitBreaker';

/**
 * The one retry loop for calls to outside services (FCM, Mindbody, Vimeo, Algolia): attempts, a
 * timeout per attempt, exponential back-off with jitter, the one Retry-After parser, a cap on any
 * wait, the service's circuit breaker, and the caller's abort signal. Each client only says what
 * to send and what an answer means (`classify`); how long to wait and when to stop is decided here.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Retry-After (RFC 9110's definition): delay-seconds or an HTTP date, as milliseconds to wait from
 * `nowMs`; a date in the past is 0. Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  const text = header?.trim();
  if (!text) return null;
  // Integer seconds per the RFC; fractions are read too, as some services send them.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP-date form starts with the day's name; Date.parse alone would take '-5' for a year.
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

export interface Backoff {
  /** The wait before the first retry; doubled for every further one. */
  firstMs: number;
  /** Longest back-off (before jitter). */
  maxMs?: number;
  /** The back-off is multiplied by a random factor in [low, high]; default ±20 %. */
  jitter?: readonly [low: number, high: number];
}

/** The back-off before retry `retry` (1 = the first retry). */
export function backoffMs(backoff: Backoff, retry: number, random: () => number = Math.random): number {
  const [low, high] = backoff.jitter ?? [0.8, 1.2];
  const base = Math.min(backoff.maxMs ?? Number.POSITIVE_INFINITY, backoff.firstMs * 2 ** Math.max(0, retry - 1));
  return base * (low + Math.min(1, Math.max(0, random())) * (high - low));
}

/**
 * What an answer means, said by the service's client:
 * - done: return `done` (a result object may say the call failed: FCM's dead or deferred tokens);
 * - fail: stop and throw `fail`;
 * - retry: try again after a back-off (never sooner than `waitMs` or the answer's Retry-After),
 *   counted against `budget` ('attempts' unless named); `again: 'at-once'` retries without waiting
 *   or counting, once per call (after renewing an access token; a second one gives up with budget
 *   'again'). `retry` is kept as the last failure.
 * `unwell` counts the answer against the circuit breaker (5xx, unreadable); any other answer says
 * the service is up. Timeouts and network errors always count against it.
 */
export type Verdict<T, E> =
  | { done: T; unwell?: boolean }
  | { fail: Error; unwell?: boolean }
  | { retry: E; unwell?: boolean; waitMs?: number | null; budget?: string; again?: 'at-once' };

export interface Prepared {
  url: string;
  init: Omit<RequestInit, 'signal'>;
  /** Wait this long before sending (a rate limit the previous answer announced). */
  waitMs?: number;
}

export interface GaveUp {
  /** The budget that ran out ('again': a second at-once retry), or null when a Retry-After longer than `maxWaitMs` ended the retries. */
  budget: string | null;
  attempts: number;
  /** Set when the service asked to wait longer than this call may. */
  retryAfterMs?: number;
}

export interface RetryPolicy {
  /** Attempts in the 'attempts' budget, the first included. */
  attempts: number;
  /** Further budgets, e.g. { rate_limited: 5 } for 429s counted apart from other failures. */
  budgets?: Record<string, number>;
  /** One attempt: sending and reading the whole answer. */
  timeoutMs: number;
  /** Default: 1 s, doubling up to 30 s. */
  backoff?: Backoff;
  /** The longest single wait (default 60 s); a longer Retry-After is cut to it, or ends the retries with 'give-up'. */
  maxWaitMs?: number;
  longRetryAfter?: 'cap' | 'give-up';
  breaker?: CircuitBreaker;
  /** The caller's: aborting it ends the call at once, mid-attempt or mid-wait. */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  /** The signal that ends one attempt after `timeoutMs` (a seam for tests). */
  timeout?: (ms: number) => AbortSignal;
}

export interface RetryHooks<T, E> {
  /** Builds attempt `number`'s request (an access token, a host). Its errors end the call. */
  prepare(number: number): Promise<Prepared> | Prepared;
  /** Once the breaker let the attempt through, just before it is sent (a call meter); may throw. */
  beforeSend?(): void;
  /** Reads one answer; `body` is its text, read within the attempt's timeout. */
  classify(response: Response, body: string, retryAfterMs: number | null): Verdict<T, E> | Promise<Verdict<T, E>>;
  /** The failure kept for `giveUp` when an attempt timed out or reached nobody. */
  unreachable(error: Error, timedOut: boolean): E;
  /** A budget ran out, or the service asked to wait too long: return a result or throw. */
  giveUp(last: E, info: GaveUp): T;
  /** The caller's signal aborted; `last` is the latest failure, if any. Default: throw the signal's reason. */
  aborted?(last: E | undefined): T;
  /** The breaker refused the attempt. Default: throw the CircuitOpenError. */
  circuitOpen?(error: CircuitOpenError): T;
  /** Before each wait between attempts (logging). */
  onRetry?(info: { last: E; waitMs: number; budget: string; count: number }): void;
}

class Aborted extends Error {}

/** One call to an outside service under `policy`; see the module comment. */
export async function retrying<T, E>(policy: RetryPolicy, hooks: RetryHooks<T, E>): Promise<T> {
  const doFetch = policy.fetch ?? fetch;
  const wait = policy.sleep ?? sleep;
  const now = policy.now ?? Date.now;
  const outer = policy.signal;
  const backoff = policy.backoff ?? { firstMs: 1000, maxMs: 30_000 };
  const maxWaitMs = policy.maxWaitMs ?? 60_000;
  const counts = new Map<string, number>();
  let againUsed = false;
  let last: E | undefined;
  const pause = async (ms: number) => {
    if (ms <= 0) return;
    await wait(ms, outer).catch(() => {
      throw new Aborted();
    });
    if (outer?.aborted) throw new Aborted();
  };

  try {
    for (;;) {
      if (outer?.aborted) throw new Aborted();
      const request = await hooks.prepare((counts.get('attempts') ?? 0) + 1);
      await pause(request.waitMs ?? 0);
      let permit: CircuitPermit | undefined;
      try {
        permit = policy.breaker?.begin();
      } catch (error) {
        if (error instanceof CircuitOpenError && hooks.circuitOpen) return hooks.circuitOpen(error);
        throw error;
      }
      try {
        hooks.beforeSend?.();
      } catch (error) {
        permit?.release();
        throw error;
      }

      let verdict: Verdict<T, E>;
      const timeout = (policy.timeout ?? AbortSignal.timeout)(policy.timeoutMs);
      let answer: { response: Response; body: string } | undefined;
      try {
        const response = await doFetch(request.url, { ...request.init, signal: outer ? AbortSignal.any([outer, timeout]) : timeout });
        answer = { response, body: await response.text() };
      } catch (error) {
        if (outer?.aborted) {
          permit?.release();
          throw new Aborted();
        }
        permit?.failure();
        verdict = { retry: hooks.unreachable(error instanceof Error ? error : new Error(String(error)), timeout.aborted), unwell: true };
      }
      if (answer) {
        const retryAfterMs = parseRetryAfter(answer.response.headers.get('retry-after'), now());
        try {
          verdict = await hooks.classify(answer.response, answer.body, retryAfterMs);
        } catch (error) {
          permit?.release();
          throw error;
        }
        if (verdict.unwell) permit?.failure();
        else permit?.success();
        if ('retry' in verdict && verdict.waitMs == null && retryAfterMs !== null) verdict = { ...verdict, waitMs: retryAfterMs };
      }

      if ('done' in verdict!) return verdict.done;
      if ('fail' in verdict!) throw verdict.fail;
      last = verdict!.retry;
      if (verdict!.again === 'at-once') {
        // A second one (the renewed token refused too) ends the call.
        if (againUsed) return hooks.giveUp(last, { budget: 'again', attempts: counts.get('attempts') ?? 0 });
        againUsed = true;
        continue;
      }
      const budget = verdict!.budget ?? 'attempts';
      const count = (counts.get(budget) ?? 0) + 1;
      counts.set(budget, count);
      const limit = budget === 'attempts' ? policy.attempts : (policy.budgets?.[budget] ?? policy.attempts);
      if (count >= limit) return hooks.giveUp(last, { budget, attempts: count });
      const asked = verdict!.waitMs ?? null;
      if (asked !== null && asked > maxWaitMs && policy.longRetryAfter === 'give-up') {
        return hooks.giveUp(last, { budget: null, attempts: count, retryAfterMs: asked });
      }
      const delay = Math.max(asked === null ? 0 : Math.min(asked, maxWaitMs), backoffMs(backoff, count, policy.random));
      hooks.onRetry?.({ last, waitMs: delay, budget, count });
      await pause(delay);
    }
  } catch (error) {
    if (!(error instanceof Aborted)) throw error;
    if (hooks.aborted) return hooks.aborted(last);
    throw outer?.reason ?? new Error('The call was cancelled');
  }
}

/** The knobs every outside-service HTTP client takes: time bound, retries, breaker, and test seams. */
export interface RetryingHttpOptions {
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts per call, the first included (429, 5xx, timeouts and network errors are retried). */
  maxAttempts?: number;
  /** The longest Retry-After honoured. */
  maxRetryAfterMs?: number;
  /** Opens after repeated timeouts, network errors, 5xx and malformed answers. */
  breaker?: CircuitBreaker;
  fetch?: typeof fetch;
  /** Waits between attempts; tests record them instead of sleeping. */
  sleep?: Sleep;
  now?: () => Date;
  random?: () => number;
}
