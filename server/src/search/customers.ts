import type { Database } from '../db/client';
import { bestPerClient, type RankedClient } from './ranking';
import { MAX_EXPANSIONS, severalWords } from './severalWords';
import { MIN_TYPO_LENGTH, typoCandidates } from './text';

/**
 * Ranking of the Customers index (ranking.ts): fewer typos, then fewer prefix-only
 * words, then a name word before an e-mail / MindBody id word, then by name (first, last), then id.
 * Every read is an index range read in that order with a LIMIT, so a query costs what its page
 * costs, not what its matches would: migration 0015 keeps the tables (search_words,
 * search_prefixes, search_vocab).
 */
export interface CustomerMatches {
  ranked: RankedClient[];
  /** The same on every page of a query: exact when `exhaustive`, else an estimate. */
  nbHits: number;
  exhaustive: boolean;
  typoUsed: boolean;
}

type Row = { client_id: number | string; field: number | string; sort_key: string; tier: number | string; n?: number | string | null };

const MAX_CHAR = String.fromCodePoint(0x10ffff);
/** Counts of huge result sets stop here (Algolia pages no further than 1,000 hits either). */
export const COUNT_CAP = 1000;
/** E-mail prefix matches read at most (then ranked by name). */
const MULTI_WORD_CAP = 2000;
const upper = (prefix: string) => prefix + MAX_CHAR;
const RANK = 'ORDER BY field, sort_key, client_id';

/** Rows of one query word: tier 0 exact, 1 prefix, 2 one typo. */
const rank = (rows: Row[]): RankedClient[] =>
  bestPerClient(
    rows.map((row) => {
      const tier = Number(row.tier);
      return { client_id: Number(row.client_id), typos: tier === 2 ? 1 : 0, prefixes: tier === 1 ? 1 : 0, field: Number(row.field), sort_key: row.sort_key };
    }),
  );

/**
 * Known words one edit away from each of `words` (typo tolerance, words of 4+ characters), in one
 * vocabulary read. The candidates go as one comma-separated string: words never hold ASCII
 * punctuation, and PGlite reads one string much faster than an array of hundreds.
 */
async function typoWords(database: Database, words: string[]): Promise<string[][]> {
  const variants = words.map(typoCandidates);
  const all = [...new Set(variants.flatMap((set) => [...set]))];
  if (all.length === 0) return words.map(() => []);
  const rows = await database.query<{ word: string }>("SELECT word FROM search_vocab WHERE word = ANY(string_to_array($1, ','))", [all.join(',')]);
  return variants.map((set) => rows.map((row) => row.word).filter((word) => set.has(word)));
}

/** The best clients for each of `words` (whole words), merged: per word an ordered read with LIMIT. */
const topOfWordsSql = (wordsParam: string, limitParam: string) => `
  SELECT w.client_id, w.field, w.sort_key FROM unnest(${wordsParam}::text[]) AS x (word)
  CROSS JOIN LATERAL (SELECT client_id, field, sort_key FROM search_words WHERE word = x.word ${RANK} LIMIT ${limitParam}) w`;

/**
 * One query word: exact matches, then prefix matches, then (4+ characters, too few hits) typos.
 * Each read is a small statement of its own: PGlite plans every statement anew, and a plan of one
 * big statement costs more than running several small ones.
 */
async function singleWord(database: Database, word: string, wanted: number, typos: boolean): Promise<CustomerMatches> {
  const hi = upper(word);
  const exact = await database.query<Row>(`SELECT client_id, field, sort_key, 0 AS tier FROM search_words WHERE word = $1 ${RANK} LIMIT $2`, [word, wanted]);
  let rows = exact;
  if (exact.length < wanted) {
    // Clients matched exactly come again as prefix matches: read that many more.
    const limit = wanted + exact.length;
    let prefix: Row[];
    if (word.length <= 2) {
      prefix = await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM search_prefixes WHERE prefix = $1 ${RANK} LIMIT $2`, [word, limit]);
    } else {
      const expansions = (
        await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word > $1 AND word < $2 ORDER BY word LIMIT $3', [
          word,
          hi,
          MAX_EXPANSIONS + 1,
        ])
      ).map((row) => row.word);
      prefix =
        expansions.length > MAX_EXPANSIONS
          ? await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM search_words WHERE word > $1 AND word < $2 ${RANK} LIMIT $3`, [
              word,
              hi,
              limit,
            ])
          : expansions.length > 0
            ? await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM (${topOfWordsSql('$1', '$2')}) t ${RANK} LIMIT $2`, [
                expansions,
                limit,
              ])
            : [];
    }
    rows = [...exact, ...prefix];
  }
  let ranked = rank(rows);
  let typoUsed = false;
  const base = await cappedCount(database, word);
  // Typo forms are looked up when the page or the total needs them; past COUNT_CAP the total does not.
  const near = typos && word.length >= MIN_TYPO_LENGTH && (ranked.length < wanted || base < COUNT_CAP) ? (await typoWords(database, [word]))[0]! : [];
  if (near.length > 0 && ranked.length < wanted) {
    typoUsed = true;
    const limit = wanted + ranked.length;
    const typo = await database.query<Row>(`SELECT client_id, field, sort_key, 2 AS tier FROM (${topOfWordsSql('$1', '$2')}) t ${RANK} LIMIT $2`, [
      near,
      limit,
    ]);
    ranked = rank([...rows, ...typo]);
  }
  const counted = await countSingleWord(database, word, near, base);
  return { ranked, nbHits: counted.nbHits, exhaustive: counted.exact, typoUsed };
}

/**
 * The total of one word, the same whatever the page: its clients (by prefix, and by one typo when
 * typos apply), counted exactly while they are fewer than COUNT_CAP; beyond, COUNT_CAP (an estimate).
 */
async function countSingleWord(database: Database, word: string, near: string[], base: number): Promise<{ nbHits: number; exact: boolean }> {
  if (base >= COUNT_CAP) return { nbHits: COUNT_CAP, exact: false };
  const [row] = await database.query<{ rows: number | string; clients: number | string }>(
    word.length <= 2
      ? `SELECT count(*) AS rows, count(DISTINCT client_id) AS clients FROM (SELECT client_id FROM search_prefixes WHERE prefix = $1 LIMIT ${COUNT_CAP + 1}) c`
      : `SELECT count(*) AS rows, count(DISTINCT client_id) AS clients
         FROM ((SELECT client_id FROM search_words WHERE word >= $1 AND word < $2)
               UNION ALL (SELECT client_id FROM search_words WHERE word = ANY($3::text[])) LIMIT ${COUNT_CAP + 1}) c`,
    word.length <= 2 ? [word] : [word, upper(word), near],
  );
  if (Number(row!.rows) > COUNT_CAP) return { nbHits: COUNT_CAP, exact: false };
  return { nbHits: Number(row!.clients), exact: true };
}

/**
 * How many matches a word has, counted up to COUNT_CAP (an estimate: a client matching through
 * two words counts twice). Short words are typed over and over and their counts move slowly, so a
 * count is reused for a minute.
 */
const COUNT_TTL_MS = 60_000;
const countsByDatabase = new WeakMap<Database, Map<string, { n: number; at: number }>>();
async function cappedCount(database: Database, word: string): Promise<number> {
  let counts = countsByDatabase.get(database);
  if (!counts) countsByDatabase.set(database, (counts = new Map()));
  const known = counts.get(word);
  const now = Date.now();
  if (known && now - known.at < COUNT_TTL_MS) return known.n;
  const [row] = await database.query<{ n: number }>(
    word.length <= 2
      ? `SELECT count(*)::int AS n FROM (SELECT 1 FROM search_prefixes WHERE prefix = $1 LIMIT ${COUNT_CAP}) c`
      : `SELECT count(*)::int AS n FROM (SELECT 1 FROM search_words WHERE word >= $1 AND word < $2 LIMIT ${COUNT_CAP}) c`,
    word.length <= 2 ? [word] : [word, upper(word)],
  );
  if (counts.size >= 10_000) counts.clear();
  counts.set(word, { n: Number(row!.n), at: now });
  return Number(row!.n);
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

export async function matchCustomers(database: Database, query: string, queryWords: string[], wanted: number, typos: boolean): Promise<CustomerMatches> {
  if (queryWords.length === 0) return { ranked: [], nbHits: 0, exhaustive: true, typoUsed: false };
  // An address holds no NUL (PostgreSQL text cannot): such a query is read word by word.
  if (looksLikeEmail(query) && queryWords.length > 1 && !query.includes('\u0000')) {
    const byEmail = await emailPrefix(database, query.trim(), wanted);
    if (byEmail.length > 0) return { ranked: byEmail, nbHits: byEmail.length, exhaustive: byEmail.length < MULTI_WORD_CAP, typoUsed: false };
  }
  if (queryWords.length === 1) return singleWord(database, queryWords[0]!, wanted, typos);
  return severalWords(database, queryWords, wanted, typos);
}
