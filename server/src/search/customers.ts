import type { Database } from '../db/client';
import { MIN_TYPO_LENGTH, oneEditVariants } from './text';

/**
 * Ranking of the Customers index (issue 9): exact word > word prefix > one typo, then a name word
 * before an e-mail / MindBody id word, then by name (first, last), then id. Every read is an index
 * range read in that order with a LIMIT, so a query costs what its page costs, not what its
 * matches would: migration 0015 keeps the tables (search_words, search_prefixes, search_vocab).
 */
export interface RankedClient {
  client_id: number;
  /** 0 exact, 1 prefix, 2 typo (summed over the query's words). */
  tier: number;
  field: number;
  sort_key: string;
}

export interface CustomerMatches {
  ranked: RankedClient[];
  /** Total matches when `exhaustive`; otherwise counted up to COUNT_CAP (an estimate). */
  nbHits: number;
  exhaustive: boolean;
  typoUsed: boolean;
}

type Row = { client_id: number | string; field: number | string; sort_key: string; tier: number | string; n?: number | string | null };

/** Above this many words a prefix expands to, each word is rare: one range read instead. */
const MAX_EXPANSIONS = 200;
/** Counts of huge result sets stop here (Algolia pages no further than 1,000 hits either). */
export const COUNT_CAP = 1000;
/** Matches of a several-word query are read up to this many, then ranked. */
const MULTI_WORD_CAP = 2000;
const MAX_CHAR = String.fromCodePoint(0x10ffff);
const upper = (prefix: string) => prefix + MAX_CHAR;
const RANK = 'ORDER BY field, sort_key, client_id';

const compare = (a: RankedClient, b: RankedClient) =>
  a.tier - b.tier || a.field - b.field || (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0) || a.client_id - b.client_id;

/** Keeps each client's best match. */
function rank(rows: Row[]): RankedClient[] {
  const best = new Map<number, RankedClient>();
  for (const row of rows) {
    const next = { client_id: Number(row.client_id), tier: Number(row.tier), field: Number(row.field), sort_key: row.sort_key };
    const known = best.get(next.client_id);
    if (!known || compare(next, known) < 0) best.set(next.client_id, next);
  }
  return [...best.values()].sort(compare);
}

const typoAlphabet = (word: string) =>
  /^[0-9]+$/.test(word) ? '' : [...new Set(`abcdefghijklmnopqrstuvwxyz${word}`)].filter((c) => !/[0-9]/.test(c)).join('');

/** Known words one edit away from `word` (typo tolerance, words of 4+ characters). */
async function typoWords(database: Database, word: string): Promise<string[]> {
  const alphabet = typoAlphabet(word);
  if (word.length < MIN_TYPO_LENGTH || !alphabet) return [];
  const rows = await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word = ANY($1::text[])', [oneEditVariants(word, alphabet)]);
  return rows.map((row) => row.word);
}

/** The best clients for each of `words` (whole words), merged: per word an ordered read with LIMIT. */
const topOfWordsSql = (wordsParam: string, limitParam: string) => `
  SELECT w.client_id, w.field, w.sort_key FROM unnest(${wordsParam}::text[]) AS x (word)
  CROSS JOIN LATERAL (SELECT client_id, field, sort_key FROM search_words WHERE word = x.word ${RANK} LIMIT ${limitParam}) w`;

/**
 * One query word: exact matches, then prefix matches, in one statement. Prefix matches of 1-2
 * characters come from search_prefixes; longer ones expand through search_vocab into whole words.
 */
async function exactAndPrefix(database: Database, word: string, limit: number): Promise<{ rows: Row[]; capped: number }> {
  const prefix =
    word.length <= 2
      ? `SELECT client_id, field, sort_key FROM search_prefixes WHERE prefix = $1 ${RANK} LIMIT $2 * 2`
      : `SELECT * FROM (${topOfWordsSql('(SELECT array_agg(word) FROM x)', '$2 * 2')}) e WHERE (SELECT count(*) FROM x) <= ${MAX_EXPANSIONS}
         UNION ALL
         SELECT * FROM (SELECT client_id, field, sort_key FROM search_words WHERE word > $1 AND word < $3 ${RANK} LIMIT 20000) r
         WHERE (SELECT count(*) FROM x) > ${MAX_EXPANSIONS}`;
  const count =
    word.length <= 2
      ? `SELECT count(*) FROM (SELECT 1 FROM search_prefixes WHERE prefix = $1 LIMIT ${COUNT_CAP}) c`
      : `SELECT count(*) FROM (SELECT 1 FROM search_words WHERE word >= $1 AND word < $3 LIMIT ${COUNT_CAP}) c`;
  const rows = await database.query<Row>(
    `WITH x AS (SELECT word FROM search_vocab WHERE word > $1 AND word < $3 ORDER BY word LIMIT ${MAX_EXPANSIONS + 1})
     SELECT client_id, field, sort_key, 0 AS tier, NULL::int AS n FROM (SELECT client_id, field, sort_key FROM search_words WHERE word = $1 ${RANK} LIMIT $2) e
     UNION ALL SELECT client_id, min(field), sort_key, 1, NULL FROM (${prefix}) p GROUP BY client_id, sort_key
     UNION ALL SELECT NULL, NULL, NULL, NULL, (${count})::int`,
    [word, limit, upper(word)],
  );
  const capped = Number(rows[rows.length - 1]!.n);
  return { rows: rows.slice(0, -1), capped };
}

async function singleWord(database: Database, word: string, wanted: number, typos: boolean): Promise<CustomerMatches> {
  const { rows, capped } = await exactAndPrefix(database, word, wanted);
  let ranked = rank(rows);
  // Complete when no read hit its LIMIT: then the count is exact.
  const exact = rows.filter((row) => Number(row.tier) === 0).length;
  let complete = exact < wanted && rows.length - exact < wanted * 2 && capped < COUNT_CAP;
  let typoUsed = false;
  if (typos && ranked.length < wanted) {
    const near = await typoWords(database, word);
    if (near.length > 0) {
      typoUsed = true;
      const typo = await database.query<Row>(`SELECT client_id, min(field) AS field, sort_key, 2 AS tier FROM (${topOfWordsSql('$1', '$2')}) t GROUP BY client_id, sort_key`, [
        near,
        wanted + ranked.length,
      ]);
      ranked = rank([...rows, ...typo]);
      if (typo.length >= wanted + ranked.length) complete = false;
    }
  }
  return complete
    ? { ranked, nbHits: ranked.length, exhaustive: true, typoUsed }
    : { ranked, nbHits: Math.max(ranked.length, capped), exhaustive: false, typoUsed };
}

/**
 * A query typed as the start of an e-mail address ('olivia.smith1', 'sofia.r@'): one range read of
 * the e-mail index (migration 0015), ranked exact address first, then by name.
 */
async function emailPrefix(database: Database, query: string, wanted: number): Promise<RankedClient[]> {
  const pattern = `${query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  const rows = await database.query<Row>(
    `SELECT id AS client_id, 1 AS field, search_sort_key(first_name, last_name) COLLATE "C" AS sort_key,
            CASE WHEN lower(email_address) = $2 THEN 0 ELSE 1 END AS tier
     FROM (SELECT * FROM clients WHERE lower(email_address) LIKE $1 ORDER BY lower(email_address) LIMIT $3) c`,
    [pattern, query.toLowerCase(), Math.max(wanted, MULTI_WORD_CAP)],
  );
  return rank(rows);
}

export const looksLikeEmail = (query: string) => /^[^\s@]+[.@_+-]\S*$/.test(query.trim()) && /[a-z0-9]/i.test(query);

/**
 * Several words: every one must match (as a prefix, or whole with one typo). One statement joins
 * the words' matches by client; the planner starts from the rarest word and probes the others
 * through search_words (client_id, word), so 'olivia s' does not read every 's' word.
 */
async function severalWords(database: Database, queryWords: string[], wanted: number, typos: boolean): Promise<CustomerMatches> {
  const params: unknown[] = [];
  const near = await Promise.all(queryWords.map((word) => (typos ? typoWords(database, word) : Promise.resolve([]))));
  const sets = queryWords.map((word, i) => {
    params.push(word, upper(word));
    const [w, hi] = [`$${params.length - 1}`, `$${params.length}`];
    if (near[i]!.length > 0) params.push(near[i]);
    const matches = near[i]!.length > 0 ? `((word >= ${w} AND word < ${hi}) OR word = ANY($${params.length}::text[]))` : `word >= ${w} AND word < ${hi}`;
    return `(SELECT client_id, field, sort_key, CASE WHEN word = ${w} THEN 0 WHEN word > ${w} AND word < ${hi} THEN 1 ELSE 2 END AS tier
             FROM search_words WHERE ${matches}) m${i}`;
  });
  const joins = sets.map((set, i) => (i === 0 ? set : `JOIN ${set} ON m${i}.client_id = m0.client_id`)).join('\n');
  const rows = await database.query<Row>(
    `SELECT m0.client_id, ${queryWords.map((_, i) => `min(m${i}.field)`).join(' + ')} AS field, min(m0.sort_key) AS sort_key,
            ${queryWords.map((_, i) => `min(m${i}.tier)`).join(' + ')} AS tier
     FROM ${joins}
     GROUP BY m0.client_id LIMIT ${MULTI_WORD_CAP}`,
    params,
  );
  const ranked = rank(rows);
  const complete = rows.length < MULTI_WORD_CAP;
  return { ranked, nbHits: ranked.length, exhaustive: complete, typoUsed: rows.some((row) => Number(row.tier) >= 2) && wanted > 0 };
}

export async function matchCustomers(database: Database, query: string, queryWords: string[], wanted: number, typos: boolean): Promise<CustomerMatches> {
  if (queryWords.length === 0) return { ranked: [], nbHits: 0, exhaustive: true, typoUsed: false };
  if (looksLikeEmail(query) && queryWords.length > 1) {
    const byEmail = await emailPrefix(database, query.trim(), wanted);
    if (byEmail.length > 0) return { ranked: byEmail, nbHits: byEmail.length, exhaustive: byEmail.length < MULTI_WORD_CAP, typoUsed: false };
  }
  if (queryWords.length === 1) return singleWord(database, queryWords[0]!, wanted, typos);
  return severalWords(database, queryWords, wanted, typos);
}
