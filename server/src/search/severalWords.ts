import type { Database } from '../db/client';
import {
  EXACT,
  PREFIX,
  TYPO,
  bestPerClient,
  boundKinds,
  estimateTotal,
  independentEstimate,
  kindGroups,
  type Combination,
  type MatchKind,
  type RankedClient,
} from './ranking';
import { typoCandidates } from './text';
import {
  Params,
  countingRead,
  driverRows,
  matchesAs,
  noBetterMatch,
  sigTest,
  taggedRead,
  taggedRows,
  vocabOfWords,
  type WordPlan,
} from './severalWordsQueries';
import { wordStats, type WordStats } from './wordStats';

/** Above this many words a prefix expands to, the prefix is read as one range instead. */
export const MAX_EXPANSIONS = 200;
/**
 * Rows of the rarest word that the total of a several-word query is counted from: the total is
 * exact when that word (with its prefix and typo forms) has fewer, an estimate beyond.
 */
export const MULTI_WORD_COUNT_SCAN = 1000;
/** Combinations of kinds read at most (one read each): three words of three kinds. */
const MAX_COMBINATIONS = 27;
const MAX_CHAR = String.fromCodePoint(0x10ffff);

export interface SeveralWordsMatches {
  ranked: RankedClient[];
  nbHits: number;
  exhaustive: boolean;
  typoUsed: boolean;
}

/**
 * What each query word can match, in one statement: the known words it starts (and whether it is
 * one itself), and the known words one edit away, looked up as one comma-separated string (words
 * hold no ASCII punctuation, and PGlite reads one string much faster than an array of hundreds).
 */
async function planWords(database: Database, words: string[], typos: boolean, stats: WordStats): Promise<WordPlan[]> {
  const his = words.map((word) => word + MAX_CHAR);
  const candidates = words.map((word) => (typos ? typoCandidates(word) : new Set<string>()));
  const vocab = await vocabOfWords(database, words, his, [...new Set(candidates.flatMap((set) => [...set]))].join(','), MAX_EXPANSIONS + 2);
  const near = vocab.filter((row) => Number(row.i) === 0).map((row) => row.word);
  return words.map((word, i) => {
    const mine = vocab.filter((row) => Number(row.i) === i + 1).map((row) => row.word);
    const known = mine[0] === word;
    const started = mine.filter((w) => w !== word);
    const typoForms = near.filter((w) => candidates[i]!.has(w) && !w.startsWith(word));
    const kinds: MatchKind[] = [];
    if (known) kinds.push(EXACT);
    if (started.length > 0) kinds.push(PREFIX);
    if (typoForms.length > 0) kinds.push(TYPO);
    const exact = stats.exact(word);
    return {
      word,
      hi: his[i]!,
      known,
      expansions: started.length > MAX_EXPANSIONS ? null : started,
      typos: typoForms,
      kinds,
      rows: {
        [EXACT]: exact,
        [PREFIX]: Math.max(0, stats.estimate(word) - ([...word].length <= 2 ? 0 : exact)),
        [TYPO]: typoForms.reduce((sum, typo) => sum + stats.exact(typo), 0),
      } as Record<MatchKind, number>,
    };
  });
}

/** The word to read a combination from: the one whose matching rows are fewest (then exact, then longest). */
function cheapestWord(plans: WordPlan[], kindOf: (i: number) => MatchKind | null): number {
  const cost = (i: number) => (kindOf(i) === null ? Infinity : plans[i]!.rows[kindOf(i)!]);
  return plans.reduce((best, plan, i) => {
    const [a, b] = [cost(i), cost(best)];
    if (a !== b) return a < b ? i : best;
    if (kindOf(i) !== kindOf(best)) return kindOf(i)! < kindOf(best)! ? i : best;
    return plan.word.length > plans[best]!.word.length ? i : best;
  }, 0);
}

/** The first `limit` clients, in rank order, whose words match best as `combination` says. */
function combinationSql(plans: WordPlan[], combination: Combination, tag: number, limit: number, params: Params): string {
  const driver = cheapestWord(plans, (i) => combination[i]!);
  const tests = plans.flatMap((plan, i) => {
    if (i === driver) return noBetterMatch(plan, combination[i]!, params);
    const kind = combination[i] ?? undefined;
    return [sigTest(plan, kind, params), matchesAs(plan, kind, params)];
  });
  const limitParam = params.add(limit);
  return taggedRead(tag, driverRows(plans[driver]!, combination[driver]!, tests.length ? tests.join(' AND ') : 'true', limitParam, params), limitParam);
}

/**
 * The best `limit` clients of each combination of these groups, in one statement (with the total's
 * count when `count` is given: PGlite runs one statement at a time, so one fewer is time saved).
 * A combination that filled its limit may have more (cut); they rank after the ones read.
 */
async function readGroups(database: Database, plans: WordPlan[], groups: Combination[][], limit: number, count?: CountRead) {
  const params = new Params();
  const combinations = groups.flatMap((group, g) => group.map((combination) => ({ g, combination })));
  const reads = combinations.map(({ combination }, tag) => combinationSql(plans, combination, tag, limit, params));
  const rows = await taggedRows(database, [...(count ? [count.sql(params)] : []), ...reads], params);
  const counted = rows.find((row) => Number(row.tag) === -1);
  const results = groups.map((_, g) => {
    const mine = combinations.flatMap((entry, tag) => (entry.g === g ? [tag] : []));
    const read = mine.map((tag) => {
      const combination = combinations[tag]!.combination;
      const typos = combination.filter((kind) => kind === TYPO).length;
      const prefixes = combination.filter((kind) => kind === PREFIX).length;
      const own = rows.filter((row) => Number(row.tag) === tag);
      return {
        rows: own.map((row) => ({ client_id: Number(row.client_id), typos, prefixes, field: Number(row.field), sort_key: row.sort_key })),
        cut: own.length >= limit,
      };
    });
    return { found: bestPerClient(read.flatMap((r) => r.rows)), cut: read.some((r) => r.cut) };
  });
  return { results, total: count && counted ? count.total(Number(counted.client_id), Number(counted.field)) : undefined };
}

interface CountRead {
  /** One row: tag -1, the rows scanned as client_id, the clients matching as field. */
  sql(params: Params): string;
  total(scanned: number, found: number): { nbHits: number; exact: boolean };
}

/**
 * The total, independent of the page: the rarest word's rows (all its forms) are read up to
 * MULTI_WORD_COUNT_SCAN and those whose client matches every other word counted. Fewer rows: the
 * count is exact. More: the words are taken as independent (wordStats), never below what was found.
 */
function countRead(plans: WordPlan[], stats: WordStats): CountRead {
  const total = (plan: WordPlan) => plan.kinds.reduce<number>((sum, kind) => sum + plan.rows[kind], 0);
  const driver = plans.reduce(
    (best, plan, i) => (total(plan) < total(plans[best]!) || (total(plan) === total(plans[best]!) && plan.word.length > plans[best]!.word.length) ? i : best),
    0,
  );
  return {
    sql(params) {
      const matched =
        plans.flatMap((plan, i) => (i === driver ? [] : [sigTest(plan, undefined, params), matchesAs(plan, undefined, params)])).join(' AND ') || 'true';
      const sources = plans[driver]!.kinds.map((kind) => `(${driverRows(plans[driver]!, kind, 'true', null, params)})`);
      return countingRead(matched, sources, MULTI_WORD_COUNT_SCAN);
    },
    total(scanned, found) {
      const rows = plans.map((plan, i) => (i === driver ? Math.max(total(plan), scanned) : total(plan)));
      return estimateTotal(found, scanned, MULTI_WORD_COUNT_SCAN, independentEstimate(stats.clients, rows));
    },
  };
}

/**
 * Several words: every one must match (as a prefix, or whole with one typo). The matches are read
 * group by group in rank order (all words exact, then one prefix-only word, …, then typos), each
 * combination of kinds one index-ordered read with LIMIT from the word whose matching rows are
 * fewest (wordStats), so 'gmail sofia' reads the Sofias, not every gmail address. The first group
 * is read alone (it fills most pages); the others, when needed, in one more statement.
 */
export async function severalWords(database: Database, queryWords: string[], wanted: number, typos: boolean): Promise<SeveralWordsMatches> {
  const stats = await wordStats(database);
  const plans = await planWords(database, queryWords, typos, stats);
  if (plans.some((plan) => plan.kinds.length === 0)) return { ranked: [], nbHits: 0, exhaustive: true, typoUsed: false };
  const groups = kindGroups(
    boundKinds(
      plans.map((plan) => plan.kinds),
      MAX_COMBINATIONS,
    ),
  );
  const count = countRead(plans, stats);
  let counted: { nbHits: number; exact: boolean } | undefined;
  const ranked: RankedClient[] = [];
  // Each group's reads take `wanted` rows (not only what the page still lacks), so the later groups
  // can be read together; a client read twice through a prefix's two words can leave a group short.
  let pending = groups;
  let firstOnly = true;
  let limit = wanted;
  while (pending.length > 0 && ranked.length < wanted) {
    const batch = firstOnly ? pending.slice(0, 1) : pending;
    const read = await readGroups(database, plans, batch, limit, counted ? undefined : count);
    counted ??= read.total;
    const results = read.results;
    let done = 0;
    for (const result of results) {
      const need = wanted - ranked.length;
      if (result.cut && result.found.length < need) break;
      ranked.push(...result.found.slice(0, need));
      done++;
      if (ranked.length >= wanted) break;
    }
    if (done < results.length && ranked.length < wanted) limit *= 2;
    else firstOnly = false;
    pending = pending.slice(done);
  }
  counted ??= (await readGroups(database, plans, [], 0, count)).total!;
  return { ranked, nbHits: counted.nbHits, exhaustive: counted.exact, typoUsed: ranked.some((row) => row.typos > 0) };
}
