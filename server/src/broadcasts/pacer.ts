/**
 * Paces sends to FCM: at most `perMinute` messages a minute (the project's quota) and at most
 * `maxInFlight` requests at once. Both start low (50 a second, 8 in flight) and grow fast until the
 * first 429 (the rate doubles each second, one more request in flight per accepted message: TCP's
 * slow start), so a quota smaller than believed costs a few 429s, not a wave. On a
 * 429 / RESOURCE_EXHAUSTED it slows down by itself (once per wave: answers to requests started
 * before the slow-down do not slow it again): the requests in flight are halved, the rate drops to
 * 90 % of what FCM accepted in the last second (halved when it accepted nothing), nothing starts
 * before FCM's Retry-After, and the rate climbs back by 5 % a second of quiet. One pacer per server process
 * serves every broadcast.
 */
export interface Pacer {
  /** Waits for a free slot within the rate; `release` reports how FCM answered. */
  take(signal?: AbortSignal): Promise<{ release(answer: { deferred: boolean; retryAfterMs?: number }): void }>;
  readonly state: { rate: number; limit: number; inFlight: number; slowDowns: number };
}

export interface PacerOptions {
  perMinute: number;
  maxInFlight: number;
  /** Without Retry-After a 429 still pauses this long. */
  pauseMs?: number;
  /** Start slow and double each second until the first 429 (live FCM); false: at full pace (the sandbox). */
  rampUp?: boolean;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const abortable = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

/** How far ahead of its slot a send may start: small bursts keep timers coarse at high rates. */
const BURST_MS = 20;
/** Growth of the rate per second without a 429. */
const RECOVERY_PER_SECOND = 0.05;
/** After a 429 the pace is this share of what FCM accepted in the last second (the quota it showed). */
const BELOW_SEEN = 0.9;
/** Requests in flight at first. */
const INITIAL_IN_FLIGHT = 8;
/** Messages a second at first: a quota smaller than believed then costs a few 429s, not a wave. */
const INITIAL_PER_SECOND = 50;

export function createPacer(options: PacerOptions): Pacer {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? abortable;
  const ceiling = options.perMinute / 60_000;
  const pauseMs = options.pauseMs ?? 1000;
  const rampUp = options.rampUp ?? true;
  let rate = rampUp ? Math.min(ceiling, INITIAL_PER_SECOND / 1000) : ceiling;
  let limit = rampUp ? Math.min(options.maxInFlight, INITIAL_IN_FLIGHT) : options.maxInFlight;
  let inFlight = 0;
  let nextSlot = now();
  let pausedUntil = 0;
  let slowedAt = -Infinity;
  let lastGrowth = now();
  let slowDowns = 0;
  // Slow start until the first 429, then one more request in flight per window of answers.
  let slowStart = rampUp;
  const waiting: (() => void)[] = [];
  // Messages FCM accepted, in tenths of the last second.
  const accepted = Array.from({ length: 10 }, () => ({ tenth: -1, n: 0 }));
  const countAccepted = (at: number) => {
    const tenth = Math.floor(at / 100);
    const bucket = accepted[tenth % 10]!;
    if (bucket.tenth !== tenth) Object.assign(bucket, { tenth, n: 0 });
    bucket.n++;
  };
  /** Per ms, over the last second. */
  const acceptedRate = (at: number) => accepted.filter((b) => b.tenth > Math.floor(at / 100) - 10).reduce((sum, b) => sum + b.n, 0) / 1000;

  function grow() {
    const at = now();
    const seconds = (at - lastGrowth) / 1000;
    lastGrowth = at;
    if (seconds <= 0) return;
    const factor = (slowStart ? 2 : 1 + RECOVERY_PER_SECOND) ** seconds;
    rate = Math.min(ceiling, rate * factor);
  }

  function wake() {
    while (waiting.length > 0 && inFlight < Math.max(1, Math.floor(limit))) {
      inFlight++;
      waiting.shift()!();
    }
  }

  return {
    get state() {
      return { rate: rate * 60_000, limit: Math.floor(limit), inFlight, slowDowns };
    },

    async take(signal) {
      grow();
      if (inFlight < Math.max(1, Math.floor(limit)) && waiting.length === 0) inFlight++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        for (;;) {
          const at = now();
          const slot = Math.max(nextSlot, at, pausedUntil);
          const wait = slot - at - (slot === pausedUntil ? 0 : BURST_MS);
          if (wait <= 0) {
            nextSlot = slot + 1 / rate;
            break;
          }
          await sleep(wait);
          if (signal?.aborted) throw signal.reason;
        }
      } catch (error) {
        inFlight--;
        wake();
        throw error;
      }
      const startedAt = now();
      let released = false;
      return {
        release(answer) {
          if (released) return;
          released = true;
          inFlight--;
          if (answer.deferred) {
            const at = now();
            pausedUntil = Math.max(pausedUntil, at + (answer.retryAfterMs ?? pauseMs));
            // One slow-down per wave: requests started before the last one were sent at the old pace.
            if (startedAt > slowedAt) {
              slowedAt = at;
              slowDowns++;
              // Just under the quota FCM just showed (what it took in the last second); halved when it took nothing.
              const seen = acceptedRate(at);
              rate = Math.max(ceiling / 10_000, seen > 0 ? Math.min(rate, seen) * BELOW_SEEN : rate / 2);
              limit = Math.max(1, limit / 2);
              slowStart = false;
              lastGrowth = at;
            }
            nextSlot = Math.max(nextSlot, pausedUntil);
          } else {
            countAccepted(now());
            if (startedAt > slowedAt) limit = Math.min(options.maxInFlight, limit + (slowStart ? 1 : 1 / limit));
          }
          wake();
        },
      };
    },
  };
}

/** A broadcast's own throttle (max_per_minute): evenly spaced sends, on top of the channel's pacer. */
export function createThrottle(perMinute: number | null, now: () => number = () => performance.now(), sleep = abortable) {
  if (!perMinute) return { wait: async () => undefined };
  const gap = 60_000 / perMinute;
  let nextSlot = now();
  return {
    async wait(signal?: AbortSignal) {
      const at = now();
      const slot = Math.max(nextSlot, at);
      nextSlot = slot + gap;
      if (slot - at > 0) await sleep(slot - at, signal);
    },
  };
}
