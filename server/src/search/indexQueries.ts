import { z } from 'zod';
import type { Database } from '../db/client';
import { ClientRow } from './customerQueries';
import { VideoRow } from './videoQueries';

const OutboxRow = z.object({ id: z.number(), index_name: z.string(), object_id: z.number() });
const StatsRow = z.object({ table: z.string(), rows: z.number(), vals: z.array(z.string()).nullable(), freqs: z.array(z.number()).nullable() });
export type StatsRow = z.infer<typeof StatsRow>;

const CUSTOMER_COLUMNS = 'id, first_name, last_name, email_address, mb_client_id';
const VIDEO_COLUMNS = 'id, title, thumbnail_url, instructor';

/** Turns the outbox triggers (migration 0016) on or off; off empties the outbox. */
export async function setSearchOutbox(database: Database, on: boolean) {
  await database.execute(`INSERT INTO app_settings (key, value) VALUES ('search_push', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
    on ? 'on' : 'off',
  ]);
  if (!on) await database.execute('DELETE FROM search_outbox');
}

/** The oldest `limit` changes queued for hosted Algolia. */
export async function queuedChanges(database: Database, limit: number) {
  return database.rows(OutboxRow, 'SELECT id, index_name, object_id FROM search_outbox ORDER BY id LIMIT $1', [limit]);
}

export async function dequeueChanges(database: Database, ids: number[]) {
  await database.execute('DELETE FROM search_outbox WHERE id = ANY($1::bigint[])', [ids]);
}

/** These clients as the hosted index holds them; an erased client is left out (their row stays, emptied). */
export async function indexedClients(database: Database, ids: number[]) {
  return database.rows(ClientRow, `SELECT ${CUSTOMER_COLUMNS} FROM clients WHERE id = ANY($1::bigint[]) AND erased_at IS NULL`, [ids]);
}

/** These videos as the hosted index holds them; soft-deleted ones are left out. */
export async function indexedVideos(database: Database, ids: number[]) {
  return database.rows(VideoRow, `SELECT ${VIDEO_COLUMNS} FROM videos WHERE id = ANY($1::int[]) AND deleted_at IS NULL`, [ids]);
}

/** The next `limit` clients (not erased) after id `after`, in id order. */
export async function clientsAfter(database: Database, after: number, limit: number) {
  return database.rows(ClientRow, `SELECT ${CUSTOMER_COLUMNS} FROM clients WHERE id > $1 AND erased_at IS NULL ORDER BY id LIMIT $2`, [after, limit]);
}

/** The next `limit` videos (not deleted) after id `after`, in id order. */
export async function videosAfter(database: Database, after: number, limit: number) {
  return database.rows(VideoRow, `SELECT ${VIDEO_COLUMNS} FROM videos WHERE id > $1 AND deleted_at IS NULL ORDER BY id LIMIT $2`, [after, limit]);
}

/** Rebuilds migration 0015's tables from clients, then analyzes them. */
export async function reindexEmbedded(database: Database) {
  await database.transaction((tx) =>
    tx.execScript(`TRUNCATE search_words, search_prefixes, search_vocab;
      SELECT search_index_clients(ARRAY(SELECT id FROM clients));`),
  );
  await database.execScript('ANALYZE search_words; ANALYZE search_prefixes; ANALYZE search_vocab;');
}

/** The search tables, vacuumed and analyzed one by one; answers how many. */
export async function vacuumSearchTables(database: Database): Promise<number> {
  const tables = ['search_words', 'search_prefixes', 'search_vocab'];
  for (const table of tables) await database.execScript(`VACUUM (ANALYZE) ${table};`);
  return tables.length;
}

/** ANALYZE's row estimates and most common words / prefixes of the search tables, and the clients' row estimate. */
export async function searchStatistics(database: Database) {
  return database.rows(
    StatsRow,
    `SELECT t.relname AS table, greatest(t.reltuples, 0)::float8 AS rows,
            s.most_common_vals::text::text[] AS vals, s.most_common_freqs::float8[] AS freqs
     FROM pg_class t
     LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = t.relname AND s.attname IN ('word', 'prefix')
     WHERE t.relname IN ('search_words', 'search_prefixes', 'clients') AND t.relnamespace = to_regnamespace(current_schema())`,
  );
}
