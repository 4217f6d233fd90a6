import { z } from 'zod';
import type { Database } from '../db/client';

/**
 * The Customers index's reads (customers.ts, engine.ts). Each is an index range read in rank order
 * with a LIMIT, so a query costs what its page costs: search as you type runs these on every key.
 */
const MatchRow = z.object({ client_id: z.number(), field: z.number(), sort_key: z.string(), tier: z.number() });
export type MatchRow = z.infer<typeof MatchRow>;
const WordRow = z.object({ word: z.string() });
const CountedRow = z.object({ rows: z.number(), clients: z.number() });
const CountRow = z.object({ n: z.number() });
export const ClientRow = z.object({
  id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  mb_client_id: z.string().nullable(),
});

const MAX_CHAR = String.fromCodePoint(0x10ffff);
export const upper = (prefix: string) => prefix + MAX_CHAR;
const RANK = 'ORDER BY field, sort_key, client_id';

/** The best clients for each of `words` (whole words), merged: per word an ordered read with LIMIT. */
const topOfWordsSql = (wordsParam: string, limitParam: string) => `
  SELECT w.client_id, w.field, w.sort_key FROM unnest(${wordsParam}::text[]) AS x (word)
  CROSS JOIN LATERAL (SELECT client_id, field, sort_key FROM search_words WHERE word = x.word ${RANK} LIMIT ${limitParam}) w`;

/** Known words among `candidates`, given as one comma-separated string (PGlite reads one string much faster than an array of hundreds). */
export async function knownWords(database: Database, candidates: string): Promise<string[]> {
  return (await database.rows(WordRow, "SELECT word FROM search_vocab WHERE word = ANY(string_to_array($1, ','))", [candidates])).map((row) => row.word);
}

/** Clients having `word` whole (tier 0). */
export async function exactMatches(database: Database, word: string, limit: number) {
  return database.rows(MatchRow, `SELECT client_id, field, sort_key, 0 AS tier FROM search_words WHERE word = $1 ${RANK} LIMIT $2`, [word, limit]);
}

/** Clients with a word starting with a 1-2 character `prefix` (tier 1). */
export async function shortPrefixMatches(database: Database, prefix: string, limit: number) {
  return database.rows(MatchRow, `SELECT client_id, field, sort_key, 1 AS tier FROM search_prefixes WHERE prefix = $1 ${RANK} LIMIT $2`, [prefix, limit]);
}

/** Known words `word` starts (itself excluded), at most `limit`. */
export async function expansionsOf(database: Database, word: string, limit: number): Promise<string[]> {
  return (await database.rows(WordRow, 'SELECT word FROM search_vocab WHERE word > $1 AND word < $2 ORDER BY word LIMIT $3', [word, upper(word), limit])).map(
    (row) => row.word,
  );
}

/** Clients with a word `word` starts (itself excluded), read as one range (tier 1). */
export async function rangeMatches(database: Database, word: string, limit: number) {
  return database.rows(MatchRow, `SELECT client_id, field, sort_key, 1 AS tier FROM search_words WHERE word > $1 AND word < $2 ${RANK} LIMIT $3`, [
    word,
    upper(word),
    limit,
  ]);
}

/** Clients having one of `words` whole, as `tier` (1: prefix expansions, 2: typo forms). */
export async function wordsMatches(database: Database, words: string[], limit: number, tier: 1 | 2) {
  return database.rows(MatchRow, `SELECT client_id, field, sort_key, ${tier} AS tier FROM (${topOfWordsSql('$1', '$2')}) t ${RANK} LIMIT $2`, [words, limit]);
}

/** Rows and distinct clients matching `word` (by prefix, and as one of `near`), read up to `cap` + 1 rows. */
export async function countMatches(database: Database, word: string, near: string[], cap: number) {
  const [row] = await database.rows(
    CountedRow,
    word.length <= 2
      ? `SELECT count(*) AS rows, count(DISTINCT client_id) AS clients FROM (SELECT client_id FROM search_prefixes WHERE prefix = $1 LIMIT ${cap + 1}) c`
      : `SELECT count(*) AS rows, count(DISTINCT client_id) AS clients
         FROM ((SELECT client_id FROM search_words WHERE word >= $1 AND word < $2)
               UNION ALL (SELECT client_id FROM search_words WHERE word = ANY($3::text[])) LIMIT ${cap + 1}) c`,
    word.length <= 2 ? [word] : [word, upper(word), near],
  );
  return row!;
}

/** Index rows of clients whose words `word` starts, counted up to `cap`. */
export async function cappedRows(database: Database, word: string, cap: number): Promise<number> {
  const [row] = await database.rows(
    CountRow,
    word.length <= 2
      ? `SELECT count(*)::int AS n FROM (SELECT 1 FROM search_prefixes WHERE prefix = $1 LIMIT ${cap}) c`
      : `SELECT count(*)::int AS n FROM (SELECT 1 FROM search_words WHERE word >= $1 AND word < $2 LIMIT ${cap}) c`,
    word.length <= 2 ? [word] : [word, upper(word)],
  );
  return row!.n;
}

/** Clients whose e-mail address starts with `pattern` (a LIKE pattern), exact address first (tier 0). */
export async function emailMatches(database: Database, pattern: string, address: string, limit: number) {
  return database.rows(
    MatchRow,
    `SELECT id AS client_id, 1 AS field, search_sort_key(first_name, last_name) COLLATE "C" AS sort_key,
            CASE WHEN lower(email_address) = $2 THEN 0 ELSE 1 END AS tier
     FROM (SELECT * FROM clients WHERE lower(email_address) LIKE $1 ORDER BY lower(email_address) LIMIT $3) c`,
    [pattern, address, limit],
  );
}

/** A page of every client by first name (an empty query). */
export async function clientsByName(database: Database, offset: number, limit: number) {
  return database.rows(
    ClientRow,
    `SELECT id, first_name, last_name, email_address, mb_client_id FROM clients
       ORDER BY lower(coalesce(first_name, '')), id OFFSET $1 LIMIT $2`,
    [offset, limit],
  );
}

/** The planner's estimate of the clients. */
export async function clientsEstimate(database: Database): Promise<number> {
  const [estimate] = await database.rows(CountRow, "SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'clients'::regclass");
  return estimate?.n ?? 0;
}

export async function clientsById(database: Database, ids: number[]) {
  return database.rows(ClientRow, 'SELECT id, first_name, last_name, email_address, mb_client_id FROM clients WHERE id = ANY($1::bigint[])', [ids]);
}
