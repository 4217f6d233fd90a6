import type { FastifyInstance } from 'fastify';
import { pushSearchChanges, SEARCH_PUSH_QUEUE, setSearchPush } from './push';

/** How often queued changes go to hosted Algolia: small enough to feel immediate, batched all the same. */
export const SEARCH_PUSH_EVERY_MS = 5_000;

/** Hosted Algolia only: queue changes (migration 0016's triggers) and push them in batches. */
export async function registerSearchJobs(app: FastifyInstance) {
  const hosted = app.searchIndexer.mode === 'algolia';
  await setSearchPush(app.database, hosted);
  app.jobs.define(SEARCH_PUSH_QUEUE, async () => pushSearchChanges(app.database, app.searchIndexer), { maxAttempts: 1 });
  if (hosted) await app.jobs.schedule(SEARCH_PUSH_QUEUE, SEARCH_PUSH_QUEUE, SEARCH_PUSH_EVERY_MS);
}
