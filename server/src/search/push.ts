import { CUSTOMERS_INDEX, VIDEOS_INDEX } from '@contract/search';
import type { Database } from '../db/client';
import type { IndexChange, SearchIndexer } from '../integrations/algolia';
import { customerRecord, videoRecord } from './engine';
import { clientsAfter, dequeueChanges, indexedClients, indexedVideos, queuedChanges, reindexEmbedded, setSearchOutbox, videosAfter } from './indexQueries';

export const SEARCH_PUSH_QUEUE = 'search.push';
const BATCH = 1000;

/** Turns the outbox triggers (migration 0016) on for hosted Algolia, off for the embedded search. */
export async function setSearchPush(database: Database, on: boolean) {
  await setSearchOutbox(database, on);
}

/** The records as they are now; ids that are gone (or soft-deleted videos) become deletions. */
async function changesFor(database: Database, indexName: string, ids: number[]): Promise<IndexChange[]> {
  const rows =
    indexName === CUSTOMERS_INDEX ? (await indexedClients(database, ids)).map(customerRecord) : (await indexedVideos(database, ids)).map(videoRecord);
  const found = new Set(rows.map((row) => String(row.objectID)));
  return [
    ...rows.map((body) => ({ action: 'updateObject' as const, body: body as { objectID: string } })),
    ...ids.filter((id) => !found.has(String(id))).map((id) => ({ action: 'deleteObject' as const, body: { objectID: String(id) } })),
  ];
}

/**
 * Pushes queued changes in batches of 1,000 until the queue is empty. A batch leaves the queue
 * only after Algolia accepted it, so a failed push is pushed again by the next run.
 */
export async function pushSearchChanges(database: Database, indexer: SearchIndexer): Promise<{ pushed: number }> {
  let pushed = 0;
  for (;;) {
    const queued = await queuedChanges(database, BATCH);
    if (queued.length === 0) return { pushed };
    for (const indexName of [CUSTOMERS_INDEX, VIDEOS_INDEX]) {
      const ids = [...new Set(queued.filter((row) => row.index_name === indexName).map((row) => Number(row.object_id)))];
      if (ids.length > 0) await indexer.batch(indexName, await changesFor(database, indexName, ids));
      pushed += ids.length;
    }
    await dequeueChanges(
      database,
      queued.map((row) => row.id),
    );
  }
}

/**
 * `npm run search:reindex` with hosted Algolia: every customer and video into a fresh temporary
 * index, which then replaces the live one in one move (searches never see a half-built index).
 * The move would also replace the live index's settings, synonyms and rules, so the temporary
 * index gets a copy of them first; it starts empty, as an interrupted reindex may have left records.
 */
export async function rebuildAlgolia(database: Database, indexer: SearchIndexer, log: (line: string) => void = () => undefined) {
  for (const indexName of [CUSTOMERS_INDEX, VIDEOS_INDEX]) {
    const temporary = `${indexName}_reindex`;
    await indexer.deleteIndex(temporary);
    await indexer.copyConfiguration(indexName, temporary);
    let after = 0;
    let count = 0;
    for (;;) {
      const rows = indexName === CUSTOMERS_INDEX ? await clientsAfter(database, after, BATCH) : await videosAfter(database, after, BATCH);
      if (rows.length === 0) break;
      const records = indexName === CUSTOMERS_INDEX ? rows.map(customerRecord) : rows.map(videoRecord);
      await indexer.batch(
        temporary,
        records.map((body) => ({ action: 'updateObject', body: body as { objectID: string } })),
      );
      after = rows[rows.length - 1]!.id;
      count += rows.length;
    }
    await indexer.replaceIndex(temporary, indexName);
    log(`  ${indexName}: ${count.toLocaleString('en-US')} records`);
  }
}

/** `npm run search:reindex` on the embedded search: rebuilds migration 0015's tables from clients. */
export async function rebuildEmbedded(database: Database) {
  await reindexEmbedded(database);
}
