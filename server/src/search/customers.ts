import type { Database } from '../db/client';
import { MIN_TYPO_LENGTH, oneEditVariants } from './text';

/**
 * Ranking of the Customers index (issue 9): exact word > word prefix > one typo, then a name word
 * before an e-mail / MindBody id word, then by name (first, last), then id. Every read below is an
 * index range read in that order with a LIMIT, so the cost follows the page, not the number of
 * matches: migration 0015 keeps the tables (search_words, search_prefixes, search_vocab).
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
  /** Total matches when known exactly; otherwise a lower bound (see `exhaustive`). */
  nbHits: number;
  exhaustive: boolean;
  typoUsed: boolean;
}

type Row = { client_id: number | string; field: number; sort_key: string };

/** Above this many words a prefix expands to, each word is rare: one range read then. */
const MAX_EXPANSIONS = 200;
/** Counts of huge result sets stop here (Algolia pages no further than 1,000 hits either). */
export const COUNT_CAP = 1000;
/** Candidates of a multi-word query read from its most selective word. */
const MULTI_WORD_CANDIDATES = 5000;
const MAX_CHAR = String.fromCodePoint(0x10ffff);

const upper = (prefix: string) => prefix + MAX_CHAR;
const compare = (a: RankedClient, b: RankedClient) =>
  a.tier - b.tier || a.field - b.field || (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0) || a.client_id - b.client_id;

const RANK = 'ORDER BY field, sort_key, client_id';

class Collector {
  private readonly best = new Map<number, RankedClient>();
  add(rows: Row[], tier: number) {
    for (const row of rows) {
      const id = Number(row.client_id);
      const known = this.best.get(id);
      const next = { client_id: id, tier, field: Number(row.field), sort_key: row.sort_key };
      if (!known || compare(next, known) < 0) this.best.set(id, next);
    }
  }
  get size() {
    return this.best.size;
  }
  sorted() {
    return [...this.best.values()].sort(compare);
  }
}

async function topOfWords(database: Database, wordList: string[], limit: number): Promise<Row[]> {
  if (wordList.length === 0) return [];
  return database.query<Row>(
    `SELECT client_id, min(field) AS field, sort_key FROM (
       SELECT w.client_id, w.field, w.sort_key FROM unnest($1::text[]) AS x (word)
       CROSS JOIN LATERAL (SELECT client_id, field, sort_key FROM search_words WHERE word = x.word ${RANK} LIMIT $2) w
     ) m GROUP BY client_id, sort_key ${RANK} LIMIT $2`,
    [wordList, limit],
  );
}

function typoAlphabet(word: string): string {
  if (/^[0-9]+$/.test(word)) return '';
  return [...new Set(`abcdefghijklmnopqrstuvwxyz${word}`)].filter((c) => !/[0-9]/.test(c)).join('');
}

/** The best `limit` clients for one query word, by tier; `complete` when nothing was cut off. */
async function matchWord(database: Database, word: string, limit: number, typos: boolean) {
  const collector = new Collector();
  let complete = true;

  const exact = await database.query<Row>(`SELECT client_id, field, sort_key FROM search_words WHERE word = $1 ${RANK} LIMIT $2`, [word, limit]);
  collector.add(exact, 0);
  if (exact.length >= limit) return { collector, complete: false, typoUsed: false };

  // Clients matched exactly show up again as prefix matches; ask for that many more.
  const prefixLimit = limit + exact.length;
  let prefix: Row[];
  if (word.length <= 2) {
    prefix = await database.query<Row>(`SELECT client_id, field, sort_key FROM search_prefixes WHERE prefix = $1 ${RANK} LIMIT $2`, [word, prefixLimit]);
  } else {
    const expansions = (
      await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word > $1 AND word < $2 ORDER BY word LIMIT $3', [
        word,
        upper(word),
        MAX_EXPANSIONS + 1,
      ])
    ).map((row) => row.word);
    prefix =
      expansions.length > MAX_EXPANSIONS
        ? await database.query<Row>(
            `SELECT client_id, min(field) AS field, sort_key FROM search_words WHERE word > $1 AND word < $2
             GROUP BY client_id, sort_key ${RANK} LIMIT $3`,
            [word, upper(word), prefixLimit],
          )
        : await topOfWords(database, expansions, prefixLimit);
  }
  collector.add(prefix, 1);
  if (prefix.length >= prefixLimit) complete = false;

  let typoUsed = false;
  if (typos && word.length >= MIN_TYPO_LENGTH && collector.size < limit) {
    const alphabet = typoAlphabet(word);
    if (alphabet) {
      const near = (await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word = ANY($1::text[])', [oneEditVariants(word, alphabet)])).map(
        (row) => row.word,
      );
      if (near.length > 0) {
        typoUsed = true;
        const typo = await topOfWords(database, near, limit + collector.size);
        collector.add(typo, 2);
        if (typo.length >= limit + collector.size) complete = false;
      }
    }
  }
  return { collector, complete, typoUsed };
}

async function cappedCount(database: Database, word: string): Promise<number> {
  const [row] =
    word.length <= 2
      ? await database.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM search_prefixes WHERE prefix = $1 LIMIT $2) s', [word, COUNT_CAP])
      : await database.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM search_words WHERE word >= $1 AND word < $2 LIMIT $3) s', [
          word,
          upper(word),
          COUNT_CAP,
        ]);
  return Number(row!.n);
}

/** The words one query word may match as a whole (itself and, for typos, its one-edit neighbours). */
async function wordCondition(database: Database, word: string, typos: boolean) {
  const near =
    typos && word.length >= MIN_TYPO_LENGTH && typoAlphabet(word)
      ? (await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word = ANY($1::text[])', [oneEditVariants(word, typoAlphabet(word))])).map(
          (row) => row.word,
        )
      : [];
  return { word, hi: upper(word), near };
}

export async function matchCustomers(database: Database, queryWordList: string[], wanted: number, typos: boolean): Promise<CustomerMatches> {
  if (queryWordList.length === 1) {
    const word = queryWordList[0]!;
    const { collector, complete, typoUsed } = await matchWord(database, word, wanted, typos);
    const ranked = collector.sorted();
    if (complete) return { ranked, nbHits: ranked.length, exhaustive: true, typoUsed };
    return { ranked, nbHits: Math.max(ranked.length, await cappedCount(database, word)), exhaustive: false, typoUsed };
  }

  // Several words: every one must match (each as a prefix, or with one typo). Candidates come
  // from the most selective word; each of the others is then one index probe per candidate.
  const counts = await Promise.all(queryWordList.map((word) => cappedCount(database, word)));
  const driverIndex = counts.indexOf(Math.min(...counts));
  const driver = queryWordList[driverIndex]!;
  const { collector, complete, typoUsed } = await matchWord(database, driver, MULTI_WORD_CANDIDATES, typos);
  const candidates = collector.sorted();
  const others = await Promise.all(queryWordList.filter((_, i) => i !== driverIndex).map((word) => wordCondition(database, word, typos)));
  if (candidates.length === 0) return { ranked: [], nbHits: 0, exhaustive: complete, typoUsed };

  const params: unknown[] = [candidates.map((c) => c.client_id)];
  const tiers = others.map((other) => {
    params.push(other.word, other.hi, other.near);
    const [w, hi, near] = [`$${params.length - 2}`, `$${params.length - 1}`, `$${params.length}::text[]`];
    return `(SELECT min(CASE WHEN s.word = ${w} THEN 0 WHEN s.word > ${w} AND s.word < ${hi} THEN 1 ELSE 2 END)
             FROM search_words s WHERE s.client_id = c.id AND ((s.word >= ${w} AND s.word < ${hi}) OR s.word = ANY(${near})))`;
  });
  const rows = await database.query<{ id: number | string; tiers: number[] }>(
    `SELECT id, tiers FROM (SELECT c.id, ARRAY[${tiers.join(', ')}] AS tiers FROM unnest($1::bigint[]) AS c (id)) t
     WHERE array_position(tiers, NULL) IS NULL`,
    params,
  );
  const extra = new Map(rows.map((row) => [Number(row.id), row.tiers.reduce((sum, tier) => sum + Number(tier), 0)]));
  const ranked = candidates
    .filter((c) => extra.has(c.client_id))
    .map((c) => ({ ...c, tier: c.tier + extra.get(c.client_id)! }))
    .sort(compare);
  const usedTypo = typoUsed || rows.some((row) => row.tiers.some((tier) => Number(tier) === 2));
  return { ranked, nbHits: ranked.length, exhaustive: complete, typoUsed: usedTypo };
}
