import type { Database } from '../db/client';
import { MIN_TYPO_LENGTH, oneEditVariants, wordBits } from './text';
import { wordStats } from './wordStats';

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
/** E-mail prefix matches read at most (then ranked by name). */
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

/**
 * Known words one edit away from each of `words` (typo tolerance, words of 4+ characters), in one
 * vocabulary read. The candidates go as one comma-separated string: words never hold ASCII
 * punctuation, and PGlite reads one string much faster than an array of hundreds.
 */
async function typoWords(database: Database, words: string[]): Promise<string[][]> {
  const variants = words.map((word) => {
    const alphabet = typoAlphabet(word);
    return word.length < MIN_TYPO_LENGTH || !alphabet ? new Set<string>() : new Set(oneEditVariants(word, alphabet));
  });
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
  let complete = exact.length < wanted;
  let rows = exact;
  if (complete) {
    // Clients matched exactly come again as prefix matches: read that many more.
    const limit = wanted + exact.length;
    let prefix: Row[];
    if (word.length <= 2) {
      prefix = await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM search_prefixes WHERE prefix = $1 ${RANK} LIMIT $2`, [word, limit]);
    } else {
      const expansions = (
        await database.query<{ word: string }>('SELECT word FROM search_vocab WHERE word > $1 AND word < $2 ORDER BY word LIMIT $3', [word, hi, MAX_EXPANSIONS + 1])
      ).map((row) => row.word);
      prefix =
        expansions.length > MAX_EXPANSIONS
          ? await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM search_words WHERE word > $1 AND word < $2 ${RANK} LIMIT $3`, [word, hi, limit])
          : expansions.length > 0
            ? await database.query<Row>(`SELECT client_id, field, sort_key, 1 AS tier FROM (${topOfWordsSql('$1', '$2')}) t ${RANK} LIMIT $2`, [expansions, limit])
            : [];
    }
    rows = [...exact, ...prefix];
    if (prefix.length >= limit) complete = false;
  }
  let ranked = rank(rows);
  let typoUsed = false;
  let typoCut: string[] = [];
  if (typos && ranked.length < wanted) {
    const near = (await typoWords(database, [word]))[0]!;
    if (near.length > 0) {
      typoUsed = true;
      const limit = wanted + ranked.length;
      const typo = await database.query<Row>(`SELECT client_id, field, sort_key, 2 AS tier FROM (${topOfWordsSql('$1', '$2')}) t ${RANK} LIMIT $2`, [near, limit]);
      ranked = rank([...rows, ...typo]);
      if (typo.length >= limit) {
        complete = false;
        typoCut = near;
      }
    }
  }
  if (complete) return { ranked, nbHits: ranked.length, exhaustive: true, typoUsed };
  // 'fishre' read 20 of the Fishers: their number counts too, not only the words starting 'fishre'.
  const typoCount =
    typoCut.length > 0
      ? Number((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM search_words WHERE word = ANY($1::text[]) LIMIT ${COUNT_CAP}) c`, [typoCut]))[0]!.n)
      : 0;
  return { ranked, nbHits: Math.max(ranked.length, (await cappedCount(database, word)) + typoCount), exhaustive: false, typoUsed };
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

/** Candidates read per driving word in a several-word query, before ranking. */
const MULTI_WORD_WINDOW = 20;

/**
 * Several words: every one must match (as a prefix, or whole with one typo). The rarest word
 * drives (wordStats): its matches are read in ranking order and each is kept only if the other
 * words match the same client, until enough are found. A candidate whose index entry's sig rules
 * a word out is passed over at once; the others get an index probe into search_words
 * (client_id, word) each.
 * Those are then ranked over all words. So 'olivia s' reads a few dozen Olivias, not every 's'.
 */
async function severalWords(database: Database, queryWords: string[], wanted: number, typos: boolean): Promise<CustomerMatches> {
  // The rarest word drives; among words rarer than every common one, the longest.
  const stats = await wordStats(database);
  const cost = queryWords.map((word) => stats.estimate(word));
  const driverIndex = queryWords.reduce(
    (best, word, i) => (cost[i]! < cost[best]! || (cost[i] === cost[best] && word.length > queryWords[best]!.length) ? i : best),
    0,
  );
  const driver = queryWords[driverIndex]!;
  const others = queryWords.filter((_, i) => i !== driverIndex);
  const near = typos ? await typoWords(database, queryWords) : queryWords.map(() => []);
  const window = Math.max(wanted, MULTI_WORD_WINDOW);
  const params: unknown[] = [driver, upper(driver), near[driverIndex], window];
  const probes = others.map((word) => {
    params.push(word, upper(word));
    const [w, hi] = [`$${params.length - 1}`, `$${params.length}`];
    const typo = near[queryWords.indexOf(word)]!;
    if (typo.length > 0) params.push(typo);
    const matches = typo.length > 0 ? `((o.word >= ${w} AND o.word < ${hi}) OR o.word = ANY($${params.length}::text[]))` : `o.word >= ${w} AND o.word < ${hi}`;
    // Read from the candidate's index entry: a client lacking the bits of every form of the word is
    // passed over without a probe (migration 0026). OFFSET 0 keeps the probe a probe: misjudging a
    // word's rows, the planner would otherwise hash every client of the other word first.
    const sigTests = [...new Set([word, ...typo].map((form) => wordBits(form)))].map((bits) => {
      params.push(bits.toString());
      return `(s.sig & $${params.length}::bigint) = $${params.length}::bigint`;
    });
    return {
      exists: `(${sigTests.join(' OR ')}) AND EXISTS (SELECT 1 FROM search_words o WHERE o.client_id = s.client_id AND ${matches} OFFSET 0)`,
      tier: `(SELECT min(CASE WHEN o.word = ${w} THEN 0 WHEN o.word > ${w} AND o.word < ${hi} THEN 1 ELSE 2 END) FROM search_words o WHERE o.client_id = s.client_id AND ${matches})`,
    };
  });
  const filter = probes.map((probe) => probe.exists).join(' AND ');
  const extraTier = probes.map((probe) => probe.tier).join(' + ');
  const driverRows =
    driver.length <= 2
      ? `SELECT s.client_id, s.field, s.sort_key, 1 + ${extraTier} AS tier FROM search_prefixes s
         WHERE s.prefix = $1 AND $2::text IS NOT NULL AND $3::text[] IS NOT NULL AND ${filter} ORDER BY s.field, s.sort_key, s.client_id LIMIT $4`
      : `SELECT m.client_id, m.field, m.sort_key, x.tier + m.extra AS tier
         FROM ((SELECT word, CASE WHEN word = $1 THEN 0 ELSE 1 END AS tier FROM search_vocab WHERE word >= $1 AND word < $2 ORDER BY word LIMIT ${MAX_EXPANSIONS})
               UNION ALL SELECT unnest($3::text[]), 2) x
         CROSS JOIN LATERAL (SELECT s.client_id, s.field, s.sort_key, ${extraTier} AS extra FROM search_words s
                             WHERE s.word = x.word AND ${filter} ORDER BY s.field, s.sort_key, s.client_id LIMIT $4) m`;
  const rows = await database.query<Row>(driverRows, params);
  const ranked = rank(rows);
  // Fewer rows than one word's window: no word was cut short, so all matches are here.
  const complete = rows.length < window;
  return { ranked, nbHits: ranked.length, exhaustive: complete, typoUsed: rows.some((row) => Number(row.tier) >= 2) };
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
