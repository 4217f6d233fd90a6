/**
 * A circuit breaker for one outside service. After `failureThreshold` failures in a row it opens:
 * calls fail at once with CircuitOpenError ("… retry in N s") instead of waiting out timeouts
 * against a service that is down. After `coolDownMs` one probe call goes through (half-open);
 * its success closes the breaker, its failure opens it for another cool-down.
 *
 * Use one breaker per service and process. An HTTP client hands it to `retrying` (lib/retry.ts),
 * which asks it before every attempt, retries included, and reports each outcome; other callers
 * (the OIDC discovery) wrap a call:
 *
 *   const breaker = createCircuitBreaker({ service: 'Identity provider' });
 *   const answer = await breaker.run(() => discover(issuer), { isFailure: (error) => isTransient(error) });
 *
 * Only failures that say the service is unwell should count (timeouts, network errors, 5xx,
 * malformed answers); a 4xx refusal means the service is up and answered.
 */
export class CircuitOpenError extends Error {
  constructor(
    readonly service: string,
    /** Milliseconds until the next probe is let through. */
    readonly retryInMs: number,
  ) {
    super(`${service} is unavailable right now after repeated failures; retry in ${Math.max(1, Math.ceil(retryInMs / 1000))} s.`);
    this.name = 'CircuitOpenError';
  }
}

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Shown to staff: "Vimeo is unavailable right now…". */
  service: string;
  /** Failures in a row that open the breaker (default 5). */
  failureThreshold?: number;
  /** How long it stays open before one probe is allowed (default 30 s). */
  coolDownMs?: number;
  now?: () => number;
}

/** One call let through: report how it went, exactly once. */
export interface CircuitPermit {
  /** The service answered (a 4xx refusal or a 429 counts: it is up). */
  success(): void;
  /** Timeout, network error, 5xx, malformed answer. */
  failure(): void;
  /** Neither (the caller gave up, e.g. on shutdown). */
  release(): void;
}

export interface CircuitBreaker {
  /** Runs `call` unless the breaker is open; counts its outcome (every error, unless `isFailure` says otherwise). */
  run<T>(call: () => Promise<T>, options?: { isFailure?: (error: unknown) => boolean }): Promise<T>;
  /** For retry loops that classify answers themselves: throws CircuitOpenError, or lets one call through. */
  begin(): CircuitPermit;
  /** Throws CircuitOpenError when a call would be refused now; for refusing before queueing work. */
  check(): void;
  state(): CircuitState;
}

export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const threshold = options.failureThreshold ?? 5;
  const coolDownMs = options.coolDownMs ?? 30_000;
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | null = null;
  let probing = false;

  const state = (): CircuitState => {
    if (openedAt === null) return 'closed';
    return now() - openedAt >= coolDownMs ? 'half-open' : 'open';
  };

  function check() {
    const current = state();
    if (current === 'open') throw new CircuitOpenError(options.service, openedAt! + coolDownMs - now());
    // While the one probe is out, everyone else waits for its verdict.
    if (current === 'half-open' && probing) throw new CircuitOpenError(options.service, 1000);
  }

  function begin(): CircuitPermit {
    check();
    const probe = state() === 'half-open';
    if (probe) probing = true;
    let settled = false;
    const settle = (outcome: 'success' | 'failure' | 'release') => {
      if (settled) return;
      settled = true;
      if (probe) probing = false;
      if (outcome === 'success') {
        failures = 0;
        openedAt = null;
      } else if (outcome === 'failure') {
        failures++;
        if (probe || failures >= threshold) openedAt = now();
      }
    };
    return { success: () => settle('success'), failure: () => settle('failure'), release: () => settle('release') };
  }

  return {
    check,
    state,
    begin,
    async run(call, runOptions = {}) {
      const permit = begin();
      try {
        const result = await call();
        permit.success();
        return result;
      } catch (error) {
        if (runOptions.isFailure?.(error) ?? true) permit.failure();
        else permit.success();
        throw error;
      }
    },
  };
}
