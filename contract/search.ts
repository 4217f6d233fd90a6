import { z } from 'zod';
import { MAX_QUERIES_PER_CALL } from './searchRules';

/**
 * Customer search (the spec's 'Customer search widget', its hits and its 'Customer search' call): Algolia's
 * search protocol, answered by our own endpoint or by hosted Algolia (docs/search.md).
 */
/** The spec's 'Customer search hit'; `title` is the full name. */
export const CustomerHit = z.object({
  objectID: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  mb_client_id: z.string().nullable(),
  related_pg_id: z.number().int(),
  title: z.string(),
});
export type CustomerHit = z.infer<typeof CustomerHit>;

/** The spec's 'Video search hit'. */
export const VideoHit = z.object({
  objectID: z.string(),
  related_pg_id: z.number().int(),
  thumbnail_url: z.string().nullable(),
  title: z.string(),
  instructor: z.string().nullable(),
});
export type VideoHit = z.infer<typeof VideoHit>;

export const HighlightResult = z.object({
  value: z.string(),
  matchLevel: z.enum(['none', 'partial', 'full']),
  matchedWords: z.array(z.string()),
  fullyHighlighted: z.boolean().optional(),
});
export type HighlightResult = z.infer<typeof HighlightResult>;

/** One query of a multi-query call: v5 flattens the parameters, v4 sends `params` as a URL-encoded string. */
export const SearchRequest = z
  .object({
    indexName: z.string({ message: 'indexName is required' }).min(1, 'indexName is required').max(256),
    params: z.union([z.string().max(16_384), z.record(z.string(), z.unknown())]).optional(),
  })
  .loose();
export type SearchRequest = z.infer<typeof SearchRequest>;

export const MultiQueryBody = z
  .object({
    requests: z
      .array(SearchRequest, { message: 'requests must be an array of queries' })
      .max(MAX_QUERIES_PER_CALL, `at most ${MAX_QUERIES_PER_CALL} queries per call`),
    strategy: z.enum(['none', 'stopIfEnoughMatches']).optional(),
  })
  .loose();
export type MultiQueryBody = z.infer<typeof MultiQueryBody>;

/** POST /1/indexes/{index}/query: the parameters flattened, or `params` as a string. */
export const SingleQueryBody = z.object({ params: z.union([z.string().max(16_384), z.record(z.string(), z.unknown())]).optional() }).loose();

/** Credentials and Algolia's own query parameters; anything else is ignored. */
export const SearchQueryString = z
  .object({
    'x-algolia-api-key': z.string().max(512).optional(),
    'x-algolia-application-id': z.string().max(256).optional(),
    'x-algolia-agent': z.string().max(1024).optional(),
  })
  .loose();

export const SearchIndexParams = z.object({ index: z.string().min(1).max(256) });

export const SearchResult = z.object({
  hits: z.array(z.record(z.string(), z.unknown())),
  nbHits: z.number().int(),
  page: z.number().int(),
  nbPages: z.number().int(),
  hitsPerPage: z.number().int(),
  processingTimeMS: z.number().int(),
  exhaustiveNbHits: z.boolean(),
  exhaustive: z.object({ nbHits: z.boolean(), typo: z.boolean() }),
  query: z.string(),
  params: z.string(),
  index: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const MultiQueryResponse = z.object({ results: z.array(SearchResult) });

/** Algolia's error shape (4xx are not retried by its clients). */
export const AlgoliaError = z.object({ message: z.string(), status: z.number().int() });

export const searchErrorResponses = {
  400: AlgoliaError,
  401: AlgoliaError,
  403: AlgoliaError,
  404: AlgoliaError,
  429: AlgoliaError,
  500: AlgoliaError,
} as const;

export * from './searchConfig';
export * from './searchRules';
