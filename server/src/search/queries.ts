import type { SearchResult } from '@contract/search';
import type { Database } from '../db/client';
import { searchIndex } from './engine';
import { readSearchParams } from './params';

/** One query of Algolia's protocol, in any of its spellings (docs/search.md), on Customers or Videos. */
export const searchOne = (database: Database, indexName: string, request: Record<string, unknown>): Promise<SearchResult> =>
  searchIndex(database, indexName, readSearchParams(request));

/** Algolia's multi-query: each request names its index. One after another: each holds the embedded database in turn anyway. */
export async function searchMany(database: Database, requests: readonly { indexName: string }[]): Promise<{ results: SearchResult[] }> {
  const results: SearchResult[] = [];
  for (const request of requests) results.push(await searchOne(database, request.indexName, request as Record<string, unknown>));
  return { results };
}
