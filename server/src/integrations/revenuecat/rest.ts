import type { Config } from '../../config';
import { retrying } from '../../lib/retry';

/** RevenueCat's REST API v1, as far as the console uses it: deleting an erased client's subscriber. */
export interface RevenueCatRest {
  mode: 'revenuecat' | 'sandbox';
  /**
   * `DELETE /v1/subscribers/{app_user_id}`: deletes the subscriber and its purchase history (it does
   * not cancel a store subscription). A subscriber RevenueCat does not know counts as deleted.
   */
  deleteSubscriber(appUserId: string): Promise<void>;
}

export class RevenueCatError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RevenueCatError';
  }
}

/**
 * One call, through the one retry helper: a few quick retries of a 429, a 5xx or no answer within the
 * call; the erasure job's own retries (with back-off, after a restart too) take over from there.
 */
const POLICY = { attempts: 3, timeoutMs: 15_000, backoff: { firstMs: 1000, maxMs: 10_000 }, maxWaitMs: 30_000 } as const;

export function createRevenueCatClient(options: { apiUrl: string; secretKey: string; fetch?: typeof fetch }): RevenueCatRest {
  return {
    mode: 'revenuecat',
    async deleteSubscriber(appUserId) {
      const url = `${options.apiUrl.replace(/\/$/, '')}/subscribers/${encodeURIComponent(appUserId)}`;
      await retrying<void, RevenueCatError>(
        { ...POLICY, ...(options.fetch ? { fetch: options.fetch } : {}) },
        {
          prepare: () => ({ url, init: { method: 'DELETE', headers: { authorization: `Bearer ${options.secretKey}`, accept: 'application/json' } } }),
          classify: (response, body) => {
            if (response.ok || response.status === 404) return { done: undefined };
            // The documented error body: { "message": string, "code": number }.
            let message = response.statusText;
            try {
              const parsed = JSON.parse(body) as { message?: unknown };
              if (typeof parsed.message === 'string') message = parsed.message;
            } catch {
              // not JSON: the status text says it
            }
            const error = new RevenueCatError(`RevenueCat answered ${response.status}: ${message}`, response.status);
            return response.status === 429 || response.status >= 500 ? { retry: error, unwell: response.status >= 500 } : { fail: error };
          },
          unreachable: (error) => new RevenueCatError(`RevenueCat could not be reached: ${error.message}`),
          giveUp: (last) => {
            throw last;
          },
        },
      );
    },
  };
}

/** Without a secret key: nothing leaves the machine; each call is recorded. An id containing 'FAIL' fails, to try the retries. */
export function createRevenueCatSandbox(): RevenueCatRest & { deleted: string[] } {
  const deleted: string[] = [];
  return {
    mode: 'sandbox',
    deleted,
    async deleteSubscriber(appUserId) {
      if (appUserId.includes('FAIL')) throw new RevenueCatError('RevenueCat answered 500: sandbox failure', 500);
      deleted.push(appUserId);
    },
  };
}

export function createRevenueCatRest(config: Config): RevenueCatRest {
  return config.REVENUECAT_SECRET_API_KEY
    ? createRevenueCatClient({ apiUrl: config.REVENUECAT_API_URL, secretKey: config.REVENUECAT_SECRET_API_KEY })
    : createRevenueCatSandbox();
}
