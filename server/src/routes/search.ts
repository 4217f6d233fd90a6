import { createHash } from 'node:crypto';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MultiQueryBody,
  MultiQueryResponse,
  SearchIndexParams,
  SearchQueryString,
  SearchResult,
  SingleQueryBody,
  searchErrorResponses,
} from '@contract/search';
import { sameSecret } from '../integrations/keys';
import { createRateLimiter } from '../lib/rateLimit';
import { SearchParamsError } from '../search/params';
import { UnknownIndexError } from '../search/engine';
import { searchMany, searchOne } from '../search/queries';
import { SESSION_COOKIE } from '../auth/sessions';
import { describeValidationError } from '../lib/errors';
import { nestsDeeperThan, tooDeepMessage } from '../lib/jsonDepth';

class AlgoliaHttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const DESCRIPTION = `Algolia's search protocol (docs/search.md), answered from our own database so the console's
InstantSearch widget works without a hosted search service. Accepts the v5 form (parameters flattened
into each request, or \`params\` as an object) and the v4 form (\`params\` as a URL-encoded string), a
\`text/plain\` JSON body, and the credentials as query parameters or \`x-algolia-*\` headers. Needs a staff
session **and** the application id + search-only key (customer e-mails are personal data). Indexes:
Customers, Videos. Errors use Algolia's \`{ message, status }\` shape.`;

/** Our Algolia-compatible endpoint: POST {prefix}/1/indexes/*\/queries and /1/indexes/{index}/query. */
const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const limiter = createRateLimiter({ limit: app.config.SEARCH_RATE_LIMIT_PER_MINUTE, windowMs: 60_000, now: () => Date.now() });

  // v5 sends JSON as text/plain (no CORS preflight), v4 as form-urlencoded: every body is JSON text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    if (nestsDeeperThan(body as string)) return done(new AlgoliaHttpError(400, tooDeepMessage));
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(new AlgoliaHttpError(400, 'Invalid JSON in the request body'));
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const invalid = describeValidationError(error);
    if (invalid) return reply.status(400).send({ message: invalid.message, status: 400 });
    if (error instanceof AlgoliaHttpError) return reply.status(error.statusCode).send({ message: error.message, status: error.statusCode });
    if (error instanceof SearchParamsError) return reply.status(400).send({ message: error.message, status: 400 });
    if (error instanceof UnknownIndexError) return reply.status(404).send({ message: error.message, status: 404 });
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'search failed');
      return reply.status(500).send({ message: 'Internal server error', status: 500 });
    }
    return reply.status(status).send({ message: error.message, status });
  });

  app.addHook('preHandler', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const appId = query['x-algolia-application-id'] ?? header('x-algolia-application-id');
    const apiKey = query['x-algolia-api-key'] ?? header('x-algolia-api-key');
    if (appId !== app.config.SEARCH_APP_ID || !sameSecret(apiKey, app.integrationKeys.searchApiKey.value)) {
      throw new AlgoliaHttpError(403, 'Invalid Application-ID or API key');
    }
    const session = createHash('sha256')
      .update(request.cookies[SESSION_COOKIE] ?? '')
      .digest('base64url');
    const verdict = limiter.take(session);
    if (!verdict.allowed) throw new AlgoliaHttpError(429, `Too many search requests: try again in ${Math.ceil(verdict.retryAfterMs / 1000)} s`);
  });

  // find-my-way reads a literal `*` as a wildcard, so the multi-query path takes its index as a parameter.
  app.post(
    '/1/indexes/:index/queries',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['search'],
        summary: 'Customer search: several queries at once (Algolia multi-query; use * as the index)',
        description: DESCRIPTION,
        params: SearchIndexParams,
        querystring: SearchQueryString,
        body: MultiQueryBody,
        response: { 200: MultiQueryResponse, ...searchErrorResponses },
      },
    },
    async (request) => {
      if (request.params.index !== '*') throw new AlgoliaHttpError(404, 'Use /1/indexes/*/queries for several queries');
      return searchMany(app.database, request.body.requests);
    },
  );

  app.post(
    '/1/indexes/:index/query',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['search'],
        summary: 'Customer search: one query on one index (Customers or Videos)',
        description: DESCRIPTION,
        params: SearchIndexParams,
        querystring: SearchQueryString,
        body: SingleQueryBody,
        response: { 200: SearchResult, ...searchErrorResponses },
      },
    },
    async (request) => searchOne(app.database, request.params.index, { ...(request.body as Record<string, unknown>), indexName: request.params.index }),
  );
};

export default searchRoutes;
