import { CUSTOMERS_INDEX, VIDEOS_INDEX } from '@contract/search';
import type { Database } from '../db/client';
import type { IndexChange, SearchIndexer } from '../integrations/algolia';
import { customerRecord, videoRecord } from './engine';

export const SEARCH_PUSH_QUEUE = 'search.push';
const BATCH = 1000;

const CUSTOMER_COLUMNS = 'id, first_name, last_name, email_address, mb_client_id';
const VIDEO_COLUMNS = 'id, title, thumbnail_url, instructor';

/** Turns the outbox triggers (migration 0016) on for hosted Algolia, off for the embedded search. */
export async function setSearchPush(database: Database, on: boolean) {
  await database.query(`INSERT INTO app_settings (key, value) VALUES ('search_push', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
    on ? 'on' : 'off',
  ]);
  if (!on) await database.query('DELETE FROM search_outbox');
}

/** The records as they are now; ids that are gone (or soft-deleted videos) become deletions. */
async function changesFor(database: Database, indexName: string, ids: number[]): Promise<IndexChange[]> {
  const rows =
    indexName === CUSTOMERS_INDEX
      ? // An erased client leaves the hosted index (their row stays, emptied).
        (
          await database.query<Record<string, unknown>>(`SELECT ${CUSTOMER_COLUMNS} FROM clients WHERE id = ANY($1::bigint[]) AND erased_at IS NULL`, [ids])
        ).map(customerRecord)
      : (await database.query<Record<string, unknown>>(`SELECT ${VIDEO_COLUMNS} FROM videos WHERE id = ANY($1::int[]) AND deleted_at IS NULL`, [ids])).map(
          videoRecord,
        );
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
    const queued = await database.query<{ id: number | string; index_name: string; object_id: number | string }>(
      'SELECT id, index_name, object_id FROM search_outbox ORDER BY id LIMIT $1',
      [BATCH],
    );
    if (queued.length === 0) return { pushed };
    for (const indexName of [CUSTOMERS_INDEX, VIDEOS_INDEX]) {
      const ids = [...new Set(queued.filter((row) => row.index_name === indexName).map((row) => Number(row.object_id)))];
      if (ids.length > 0) await indexer.batch(indexName, await changesFor(database, indexName, ids));
      pushed += ids.length;
    }
    await database.query('DELETE FROM search_outbox WHERE id = ANY($1::bigint[])', [queued.map((row) => Number(row.id))]);
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
    const [table, columns, where] =
      indexName === CUSTOMERS_INDEX ? ['clients', CUSTOMER_COLUMNS, 'erased_at IS NULL'] : ['videos', VIDEO_COLUMNS, 'deleted_at IS NULL'];
    await indexer.deleteIndex(temporary);
    await indexer.copyConfiguration(indexName, temporary);
    let after = 0;
    let count = 0;
    for (;;) {
      const rows = await database.query<Record<string, unknown>>(`SELECT ${columns} FROM ${table} WHERE id > $1 AND ${where} ORDER BY id LIMIT $2`, [
        after,
        BATCH,
      ]);
      if (rows.length === 0) break;
      const records = rows.map(indexName === CUSTOMERS_INDEX ? customerRecord : videoRecord);
      await indexer.batch(
        temporary,
        records.map((body) => ({ action: 'updateObject', body: body as { objectID: string } })),
      );
      after = Number(rows[rows.length - 1]!.id);
      count += rows.length;
    }
    await indexer.replaceIndex(temporary, indexName);
    log(`  ${indexName}: ${count.toLocaleString('en-US')} records`);
  }
}

/** `npm run search:reindex` on the embedded search: rebuilds migration 0015's tables from clients. */
export async function rebuildEmbedded(database: Database) {
  await database.transaction((tx) =>
    tx.execScript(`TRUNCATE search_words, search_prefixes, search_vocab;
      SELECT search_index_clients(ARRAY(SELECT id FROM clients));`),
  );
  await database.execScript('ANALYZE search_words; ANALYZE search_prefixes; ANALYZE search_vocab;');
}
