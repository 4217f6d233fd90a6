import type { Config } from '../../config';

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

const TIMEOUT_MS = 15_000;

export function createRevenueCatClient(options: { apiUrl: string; secretKey: string; fetch?: typeof fetch }): RevenueCatRest {
  const send = options.fetch ?? fetch;
  return {
    mode: 'revenuecat',
    async deleteSubscriber(appUserId) {
      const url = `${options.apiUrl.replace(/\/$/, '')}/subscribers/${encodeURIComponent(appUserId)}`;
      let response: Response;
      try {
        response = await send(url, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${options.secretKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new RevenueCatError(`RevenueCat could not be reached: ${(error as Error).message}`);
      }
      if (response.ok || response.status === 404) return;
      // The documented error body: { "message": string, "code": number }.
      const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
      const message = typeof body?.message === 'string' ? body.message : response.statusText;
      throw new RevenueCatError(`RevenueCat answered ${response.status}: ${message}`, response.status);
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
