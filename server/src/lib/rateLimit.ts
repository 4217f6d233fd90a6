export interface RateLimiter {
  /** Spends one request for `key`; when refused, says how long until the next one is allowed. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterMs: number };
}

/**
 * A token bucket per key, in process memory: `limit` requests per `windowMs`, refilled smoothly.
 * With several server instances each keeps its own buckets, so the effective limit is per instance.
 */
export function createRateLimiter(options: { limit: number; windowMs: number; now: () => number; maxKeys?: number }): RateLimiter {
  const { limit, windowMs, now } = options;
  const maxKeys = options.maxKeys ?? 50_000;
  const perMs = limit / windowMs;
  const buckets = new Map<string, { tokens: number; at: number }>();

  // A clock set back (NTP, tests) must not drain a bucket.
  const refill = (bucket: { tokens: number; at: number }, time: number) => Math.min(limit, bucket.tokens + Math.max(0, time - bucket.at) * perMs);

  function prune(time: number) {
    // Full buckets carry no information; forget them first, then the oldest if still too many.
    for (const [key, bucket] of buckets) if (refill(bucket, time) >= limit) buckets.delete(key);
    for (const key of buckets.keys()) {
      if (buckets.size < maxKeys) break;
      buckets.delete(key);
    }
  }

  return {
    take(key) {
      const time = now();
      if (buckets.size >= maxKeys && !buckets.has(key)) prune(time);
      const bucket = buckets.get(key) ?? { tokens: limit, at: time };
      const tokens = refill(bucket, time);
      if (tokens >= 1) {
        buckets.set(key, { tokens: tokens - 1, at: time });
        return { allowed: true };
      }
      buckets.set(key, { tokens, at: time });
      return { allowed: false, retryAfterMs: Math.ceil((1 - tokens) / perMs) };
    },
  };
}
