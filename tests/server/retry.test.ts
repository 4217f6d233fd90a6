import { describe, expect, it } from 'vitest';
import { CircuitOpenError, createCircuitBreaker } from '../../server/src/lib/circuitBreaker';
import { backoffMs, parseRetryAfter, retrying, sleep, type RetryHooks, type RetryPolicy, type Verdict } from '../../server/src/lib/retry';

// The one retry helper of the outside-service clients, driven without a network, a clock or a
// timer: fetch, sleep, now, random and the attempt timeout are all injected.

const NOW = Date.parse('2026-11-22T12:00:00Z');

interface Scripted {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Throw as fetch does when nobody answers. */
  network?: string;
}

/** A fetch that answers from a script, one entry per call, and records what it was asked. */
function scriptedFetch(script: Scripted[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fake = async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const next = script[Math.min(calls.length - 1, script.length - 1)]!;
    if (init.signal?.aborted) throw init.signal.reason;
    if (next.network) throw new TypeError('fetch failed', { cause: new Error(next.network) });
    return new Response(next.body ?? '', { status: next.status ?? 200, headers: next.headers });
  };
  return { fetch: fake as typeof fetch, calls };
}

/** A policy whose waits are recorded instead of slept, on a fixed clock, with no jitter (random 0.5). */
function policy(fetcher: typeof fetch, overrides: Partial<RetryPolicy> = {}) {
  const waits: number[] = [];
  const base: RetryPolicy = {
    attempts: 4,
    timeoutMs: 1000,
    backoff: { firstMs: 100, maxMs: 1000 },
    maxWaitMs: 10_000,
    fetch: fetcher,
    sleep: async (ms) => void waits.push(ms),
    now: () => NOW,
    random: () => 0.5,
    ...overrides,
  };
  return { policy: base, waits };
}

/** Hooks for a JSON service: 2xx done, 429 and 5xx retried (5xx unwell), other 4xx fail. */
function hooks(extra: Partial<RetryHooks<string, string>> = {}): RetryHooks<string, string> {
  return {
    prepare: (number) => ({ url: `https://service.test/call?attempt=${number}`, init: { method: 'POST' } }),
    classify: (response, body): Verdict<string, string> => {
      if (response.ok) return { done: body };
      if (response.status === 429) return { retry: `429 ${body}` };
      if (response.status >= 500) return { retry: `${response.status} ${body}`, unwell: true };
      return { fail: new Error(`refused ${response.status}`) };
    },
    unreachable: (error, timedOut) => (timedOut ? 'timeout' : `network: ${(error.cause as Error | undefined)?.message ?? error.message}`),
    giveUp: (last, info) =>
      `gave up (${info.budget}, ${info.attempts}): ${last}${info.retryAfterMs === undefined ? '' : ` after asking ${info.retryAfterMs} ms`}`,
    ...extra,
  };
}

describe('Retry-After, read once for every client', () => {
  it('reads delay-seconds and HTTP dates as milliseconds to wait', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const header of [null, undefined, '', '   ', 'soon', '-5', '5s', '0x10']) expect(parseRetryAfter(header, NOW)).toBeNull();
  });
});

describe('back-off', () => {
  it('doubles from the first wait up to the cap, with ±20 % jitter by default', () => {
    const policy = { firstMs: 500, maxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffMs(policy, retry, () => 0.5))).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
    expect(backoffMs(policy, 2, () => 0)).toBe(800);
    expect(backoffMs(policy, 2, () => 1)).toBe(1200);
    expect(backoffMs(policy, 40, () => 1)).toBe(12_000);
  });

  it('takes another jitter range, and clamps a random source that strays out of [0, 1]', () => {
    expect(backoffMs({ firstMs: 1000, jitter: [1, 1.2] }, 1, () => 0)).toBe(1000);
    expect(backoffMs({ firstMs: 1000, jitter: [1, 1.2] }, 1, () => 7)).toBe(1200);
    expect(backoffMs({ firstMs: 1000 }, 3, () => -1)).toBe(3200);
  });
});

describe('retrying', () => {
  it('retries 5xx with back-off until an answer is done, and sends each attempt the request prepare built', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 500 }, { status: 503 }, { body: 'ok' }]);
    const { policy: p, waits } = policy(fetch);
    expect(await retrying(p, hooks())).toBe('ok');
    expect(waits).toEqual([100, 200]);
    expect(calls.map((call) => call.url)).toEqual([1, 2, 3].map((n) => `https://service.test/call?attempt=${n}`));
    expect(calls.every((call) => call.init.method === 'POST' && call.init.signal instanceof AbortSignal)).toBe(true);
  });

  it('gives up when the attempts are used, without waiting after the last one', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 502, body: 'bad gateway' }]);
    const { policy: p, waits } = policy(fetch, { attempts: 3 });
    expect(await retrying(p, hooks())).toBe('gave up (attempts, 3): 502 bad gateway');
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('throws what a fail verdict carries, at once', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 403 }]);
    const { policy: p, waits } = policy(fetch);
    await expect(retrying(p, hooks())).rejects.toThrow('refused 403');
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('never waits less than Retry-After, nor less than its back-off, and cuts a long Retry-After to the cap', async () => {
    const { fetch } = scriptedFetch([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 503, headers: { 'retry-after': 'Sun, 22 Nov 2026 12:05:00 GMT' } },
      { body: 'ok' },
    ]);
    const { policy: p, waits } = policy(fetch, { maxWaitMs: 60_000 });
    expect(await retrying(p, hooks())).toBe('ok');
    expect(waits).toEqual([3000, 200, 60_000]);
  });

  it("lets a client's own wait (a rate-limit reset) stand in for Retry-After", async () => {
    const { fetch } = scriptedFetch([{ status: 429, headers: { 'retry-after': '1' } }, { body: 'ok' }]);
    const { policy: p, waits } = policy(fetch);
    const classify: RetryHooks<string, string>['classify'] = (response, body) => (response.ok ? { done: body } : { retry: 'limited', waitMs: 4500 });
    expect(await retrying(p, hooks({ classify }))).toBe('ok');
    expect(waits).toEqual([4500]);
  });

  it("with 'give-up', ends the call when the service asks to wait longer than it may", async () => {
    const { fetch, calls } = scriptedFetch([{ status: 500, body: 'busy', headers: { 'retry-after': '120' } }]);
    const { policy: p, waits } = policy(fetch, { maxWaitMs: 20_000, longRetryAfter: 'give-up' });
    expect(await retrying(p, hooks())).toBe('gave up (null, 1): 500 busy after asking 120000 ms');
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('counts a named budget apart from the attempts, each with its own limit and back-off', async () => {
    const { fetch, calls } = scriptedFetch([{ status: 500 }, { status: 429 }, { status: 429 }, { status: 429 }]);
    const { policy: p, waits } = policy(fetch, { attempts: 2, budgets: { rate_limited: 3 } });
    const classify: RetryHooks<string, string>['classify'] = (response) =>
      response.status === 429 ? { retry: 'limited', budget: 'rate_limited' } : { retry: 'failed', unwell: true };
    expect(await retrying(p, hooks({ classify }))).toBe('gave up (rate_limited, 3): limited');
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([100, 100, 200]);
  });

  it("retries an 'at-once' verdict without waiting or counting it, and gives up on a second one", async () => {
    let renewals = 0;
    const classify: RetryHooks<string, string>['classify'] = (response, body) => {
      if (response.status !== 401) return { done: body };
      renewals++;
      return { retry: 'token refused', again: 'at-once' };
    };
    const renewed = scriptedFetch([{ status: 401 }, { body: 'ok' }]);
    const first = policy(renewed.fetch, { attempts: 1 });
    expect(await retrying(first.policy, hooks({ classify }))).toBe('ok');
    expect(first.waits).toEqual([]);

    const refused = scriptedFetch([{ status: 401 }]);
    const second = policy(refused.fetch);
    expect(await retrying(second.policy, hooks({ classify }))).toBe('gave up (again, 0): token refused');
    expect(refused.calls).toHaveLength(2);
    expect(renewals).toBe(3);
  });

  it('retries an attempt whose timeout fired and one that reached nobody, saying which', async () => {
    const { fetch, calls } = scriptedFetch([{ network: 'ECONNREFUSED' }, { body: 'never read' }]);
    let timeouts = 0;
    // The first attempt's signal is live; the second one's has already timed out.
    const timeout = (ms: number) => (++timeouts === 2 ? AbortSignal.abort(new DOMException(`${ms} ms`, 'TimeoutError')) : new AbortController().signal);
    const seen: string[] = [];
    const { policy: p } = policy(fetch, { attempts: 2, timeout });
    const result = await retrying(p, hooks({ onRetry: ({ last }) => void seen.push(last) }));
    expect(seen).toEqual(['network: ECONNREFUSED']);
    expect(result).toBe('gave up (attempts, 2): timeout');
    expect(calls).toHaveLength(2);
  });

  it('waits before sending when prepare asks to (a rate limit announced by the last answer)', async () => {
    const { fetch } = scriptedFetch([{ body: 'ok' }]);
    const { policy: p, waits } = policy(fetch);
    expect(await retrying(p, hooks({ prepare: () => ({ url: 'https://service.test/', init: {}, waitMs: 12_000 }) }))).toBe('ok');
    expect(waits).toEqual([12_000]);
  });

  it("ends at once when the caller's signal aborts, before an attempt or during a wait", async () => {
    const before = new AbortController();
    before.abort(new Error('shutting down'));
    const untouched = scriptedFetch([{ body: 'ok' }]);
    await expect(retrying(policy(untouched.fetch, { signal: before.signal }).policy, hooks())).rejects.toThrow('shutting down');
    expect(untouched.calls).toHaveLength(0);

    const during = new AbortController();
    const failing = scriptedFetch([{ status: 500, body: 'down' }]);
    const { policy: p } = policy(failing.fetch, {
      signal: during.signal,
      sleep: (ms, signal) => {
        during.abort(new Error('deadline'));
        return sleep(ms, signal);
      },
    });
    expect(await retrying(p, hooks({ aborted: (last) => `cancelled after: ${last}` }))).toBe('cancelled after: 500 down');
    expect(failing.calls).toHaveLength(1);
  });

  it('counts timeouts, network errors, 5xx and unwell answers against the breaker, and answers (429, 4xx) for it', async () => {
    const breaker = createCircuitBreaker({ service: 'Service', failureThreshold: 3, coolDownMs: 30_000, now: () => NOW });
    const answered = scriptedFetch([{ status: 429 }, { status: 404 }]);
    await expect(retrying(policy(answered.fetch, { breaker }).policy, hooks())).rejects.toThrow('refused 404');
    expect(breaker.state()).toBe('closed');

    const failing = scriptedFetch([{ network: 'ECONNRESET' }, { status: 500 }, { status: 500 }, { body: 'never' }]);
    const opened: CircuitOpenError[] = [];
    const { policy: p } = policy(failing.fetch, { breaker, attempts: 5 });
    const result = await retrying(p, hooks({ circuitOpen: (error) => (opened.push(error), `refused: ${error.message}`) }));
    expect(result).toBe('refused: Service is unavailable right now after repeated failures; retry in 30 s.');
    expect(failing.calls).toHaveLength(3);
    expect(breaker.state()).toBe('open');
  });

  it('lets nothing through and counts nothing when beforeSend refuses (a spent call budget)', async () => {
    const breaker = createCircuitBreaker({ service: 'Service', failureThreshold: 1, now: () => NOW });
    const { fetch, calls } = scriptedFetch([{ body: 'ok' }]);
    const spent = () => {
      throw new Error('call budget spent');
    };
    await expect(retrying(policy(fetch, { breaker }).policy, hooks({ beforeSend: spent }))).rejects.toThrow('call budget spent');
    expect(calls).toHaveLength(0);
    expect(breaker.state()).toBe('closed');
  });

  it('does not take a mistake in classify for a network error', async () => {
    const { fetch, calls } = scriptedFetch([{ body: 'ok' }]);
    const classify = (): Verdict<string, string> => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    };
    await expect(retrying(policy(fetch).policy, hooks({ classify }))).rejects.toThrow(TypeError);
    expect(calls).toHaveLength(1);
  });
});
