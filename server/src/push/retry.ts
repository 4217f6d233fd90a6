import type { TokenResult } from '../integrations/fcm';
import { backoffMs } from '../lib/retry';

/** A deferred token is tried this many times from the job queue before the push counts as failed. */
export const MAX_PUSH_RETRIES = 6;
const LONGEST_RETRY_MS = 3_600_000;

/**
 * When to try a deferred token again, the `attempt`-th time (1 = the first retry): exponential
 * back-off from 1 minute for QUOTA_EXCEEDED (FCM's ErrorCode doc: at least 1 minute) and from
 * 10 s for UNAVAILABLE, with up to 20 % jitter added, never sooner than FCM's Retry-After.
 */
export function pushRetryDelayMs(code: string | undefined, attempt: number, retryAfterMs: number | undefined, jitter = Math.random()): number {
  const firstMs = code === 'QUOTA_EXCEEDED' ? 60_000 : 10_000;
  const backoff = backoffMs({ firstMs, maxMs: LONGEST_RETRY_MS, jitter: [1, 1.2] }, attempt, () => jitter);
  return Math.ceil(Math.max(backoff, retryAfterMs ?? 0));
}

export type PushStatus = 'sent' | 'failed' | 'queued';

/** A push's state from its per-token results: delivered to one device is enough; otherwise queued while a retry is due. */
export function pushVerdict(results: readonly TokenResult[]): { status: PushStatus; reason: string | null } {
  const plural = results.length > 1 ? 's' : '';
  if (results.some((r) => r.outcome === 'sent')) return { status: 'sent', reason: null };
  const deferred = results.filter((r) => r.outcome === 'deferred');
  if (deferred.length > 0) {
    const next = deferred
      .map((r) => r.retry_at)
      .filter((at): at is string => !!at)
      .sort()[0];
    return {
      status: 'queued',
      reason: `FCM asked to wait (${deferred[0]!.code ?? 'busy'}): the push is queued and will be retried${next ? ` at ${next.slice(0, 19).replace('T', ' ')} UTC` : ''}`,
    };
  }
  if (results.every((r) => r.outcome === 'dead')) {
    return {
      status: 'failed',
      reason: `FCM reported the client's device token${plural} as no longer usable (the app was removed or signed out, or the token is invalid)`,
    };
  }
  return {
    status: 'failed',
    reason: `FCM did not deliver to the client's device${plural}: ${results.find((r) => r.outcome === 'failed')?.error ?? 'unknown error'}`,
  };
}
