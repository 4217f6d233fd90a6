import type { FastifyInstance } from 'fastify';
import { vacuumSearchTables } from './indexQueries';
import { pushSearchChanges, SEARCH_PUSH_QUEUE, setSearchPush } from './push';

/** How often queued changes go to hosted Algolia: small enough to feel immediate, batched all the same. */
export const SEARCH_PUSH_EVERY_MS = 5_000;

export const SEARCH_VACUUM_QUEUE = 'search.vacuum';
export const SEARCH_VACUUM_EVERY_MS = 60 * 60_000;

/**
 * Hosted Algolia only: queue changes (migration 0016's triggers) and push them in batches.
 * Always: vacuum the search tables hourly. Their ordered reads and capped counts are index-only
 * scans, which need the visibility map; PGlite has no autovacuum to keep it (PostgreSQL's does too).
 * server/src/schedules.ts schedules both (the push only with hosted Algolia).
 */
export async function registerSearchJobs(app: FastifyInstance) {
  await setSearchPush(app.database, app.searchIndexer.mode === 'algolia');
  app.jobs.define(SEARCH_PUSH_QUEUE, async () => pushSearchChanges(app.database, app.searchIndexer), { maxAttempts: 1 });
  app.jobs.define(SEARCH_VACUUM_QUEUE, async () => ({ vacuumed: await vacuumSearchTables(app.database) }), { maxAttempts: 1, lane: 'sync' });
}
