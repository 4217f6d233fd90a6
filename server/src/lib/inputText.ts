import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findUnsafeText, removeUnsafeCharacters } from '@contract/text';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes data from an outside service (a webhook): NUL and unpaired surrogates are
     * removed instead of refused, since the service would redeliver the same event forever.
     */
    scrubsText?: boolean;
  }
}

/** A parsed JSON value (or query/params object) with U+0000 and unpaired surrogates removed from every string and key. */
export function scrubText<T>(value: T): T {
  if (typeof value === 'string') return removeUnsafeCharacters(value) as T;
  if (Array.isArray(value)) return value.map((item) => scrubText(item)) as T;
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [removeUnsafeCharacters(key), scrubText(item)])) as T;
  }
  return value;
}

const PARTS = [
  ['params', 'params'],
  ['querystring', 'query'],
  ['body', 'body'],
] as const;

/**
 * Every route, before its schema runs: text PostgreSQL cannot store is a 400 naming the field
 * (path, query, body, JSON object keys), so no such value reaches a query and answers 500.
 * Routes fed by outside services say `config: { scrubsText: true }` and get it cleaned instead.
 */
export function registerInputTextCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    // A request that matched no route reads nothing and is answered 404 as it is.
    if (request.routeOptions.url === undefined) return;
    if (request.routeOptions.config?.scrubsText) {
      for (const [, key] of PARTS) (request as unknown as Record<string, unknown>)[key] = scrubText(request[key]);
      return;
    }
    for (const [context, key] of PARTS) {
      const problem = findUnsafeText(request[key], context);
      if (problem) throw new HttpError(400, `Invalid request: ${problem.path}: ${problem.message}`, [problem]);
    }
  });
}
