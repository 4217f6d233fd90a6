import { createHash } from 'node:crypto';
import { HttpError } from './errors';

/**
 * Idempotency-Key on the calls that act on many clients (broadcasts, bulk actions): the key is kept
 * per staff member and call with a digest of the request, under a unique index, so a repeated
 * request answers the first one's result and a concurrent one waits for it. An Intent is the
 * request's key, kept per staff member and call, and a digest of what it asked.
 */
export interface Intent {
  key: string;
  digest: string;
}

/** The Intent of a request with an Idempotency-Key header (none without one). */
export function intentOf(call: string, staffId: number | null | undefined, key: string | undefined, request: unknown): Intent | undefined {
  if (key === undefined) return undefined;
  return { key: `${staffId ?? 'system'}:${call}:${key}`, digest: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

export const isUniqueViolation = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? '') === '23505';

/** The same key with another request: refused, never answered with the first one's result. */
export const keyReused = () =>
  new HttpError(409, 'This Idempotency-Key was already used for a different request: send a new key for a new request', [
    { path: 'Idempotency-Key', message: 'used for a different request' },
  ]);
