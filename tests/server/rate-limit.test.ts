import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../server/src/lib/rateLimit';

describe('per-key rate limiter', () => {
  it('allows `limit` requests per window per key and refills over time', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 20_000 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 20_000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('forgets idle keys when it holds too many', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: () => now, maxKeys: 2 });
    limiter.take('a');
    limiter.take('b');
    now += 1000;
    limiter.take('c'); // a and b are full again and dropped
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('c').allowed).toBe(false);
  });
});
