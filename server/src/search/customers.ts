import type { Database } from '../db/client';
import {
  cappedRows,
  countMatches,
  emailMatches,
  exactMatches,
  expansionsOf,
  knownWords,
  rangeMatches,
  shortPrefixMatches,
  wordsMatches,
  type MatchRow,
} from './customerQueries';
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

/** Counts of huge result sets stop here (Algolia pages no further than 1,000 hits either). */
export const COUNT_CAP = 1000;
/** E-mail prefix matches read at most (then ranked by name). */
const MULTI_WORD_CAP = 2000;

/** Rows of one query word: tier 0 exact, 1 prefix, 2 one typo. */
const rank = (rows: MatchRow[]): RankedClient[] =>
  bestPerClient(
    rows.map((row) => {
      const tier = row.tier;
      return { client_id: row.client_id, typos: tier === 2 ? 1 : 0, prefixes: tier === 1 ? 1 : 0, field: row.field, sort_key: row.sort_key };
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
  const known = await knownWords(database, all.join(','));
  return variants.map((set) => known.filter((word) => set.has(word)));
}

/**
 * One query word: exact matches, then prefix matches, then (4+ characters, too few hits) typos.
 * Each read is a small statement of its own: PGlite plans every statement anew, and a plan of one
 * big statement costs more than running several small ones.
 */
async function singleWord(database: Database, word: string, wanted: number, typos: boolean): Promise<CustomerMatches> {
  const exact = await exactMatches(database, word, wanted);
  let rows = exact;
  if (exact.length < wanted) {
    // Clients matched exactly come again as prefix matches: read that many more.
    const limit = wanted + exact.length;
    let prefix: MatchRow[];
    if (word.length <= 2) {
      prefix = await shortPrefixMatches(database, word, limit);
    } else {
      const expansions = await expansionsOf(database, word, MAX_EXPANSIONS + 1);
      prefix =
        expansions.length > MAX_EXPANSIONS
          ? await rangeMatches(database, word, limit)
          : expansions.length > 0
            ? await wordsMatches(database, expansions, limit, 1)
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
    const typo = await wordsMatches(database, near, limit, 2);
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
  const row = await countMatches(database, word, near, COUNT_CAP);
  if (row.rows > COUNT_CAP) return { nbHits: COUNT_CAP, exact: false };
  return { nbHits: row.clients, exact: true };
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
  const n = await cappedRows(database, word, COUNT_CAP);
  if (counts.size >= 10_000) counts.clear();
  counts.set(word, { n, at: now });
  return n;
}

/**
 * A query typed as the start of an e-mail address ('olivia.smith1', 'sofia.r@'): one range read of
 * the e-mail index (migration 0015), ranked exact address first, then by name.
 */
async function emailPrefix(database: Database, query: string, wanted: number): Promise<RankedClient[]> {
  const pattern = `${query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  return rank(await emailMatches(database, pattern, query.toLowerCase(), Math.max(wanted, MULTI_WORD_CAP)));
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
