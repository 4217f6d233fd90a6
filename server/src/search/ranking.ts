/**
 * Algolia's tie-breaking order for the Customers index (docs/search.md): fewer typos, then fewer words
 * matched only as a prefix (exactness), then a name word before an e-mail / MindBody id word
 * (attribute), then by name, then id. Every query word must match, so Algolia's `words` criterion
 * never separates two hits; proximity is left to the name order.
 */

/** How a query word matched a client's best word: whole, as the start of a word, or with one typo. */
export type MatchKind = 0 | 1 | 2;
export const EXACT: MatchKind = 0;
export const PREFIX: MatchKind = 1;
export const TYPO: MatchKind = 2;

export interface RankedClient {
  client_id: number;
  /** Query words matched only with a typo. */
  typos: number;
  /** Query words matched only as the start of a word. */
  prefixes: number;
  /** 0 a name word, 1 an e-mail or MindBody id word. */
  field: number;
  sort_key: string;
}

export const compareRanked = (a: RankedClient, b: RankedClient) =>
  a.typos - b.typos ||
  a.prefixes - b.prefixes ||
  a.field - b.field ||
  (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0) ||
  a.client_id - b.client_id;

/** Keeps each client's best match, best first. */
export function bestPerClient(rows: RankedClient[]): RankedClient[] {
  const best = new Map<number, RankedClient>();
  for (const row of rows) {
    const known = best.get(row.client_id);
    if (!known || compareRanked(row, known) < 0) best.set(row.client_id, row);
  }
  return [...best.values()].sort(compareRanked);
}

/** A word's kind in a combination; null: any kind, not told apart (see boundKinds). */
export type Combination = (MatchKind | null)[];

/**
 * Every way the query's words can match, one kind per word, grouped in rank order: each group
 * holds the combinations with the same number of typos and prefix-only words. A client matches
 * through exactly one combination (each word's best kind), so the groups split the matches.
 */
export function kindGroups(kindsPerWord: (MatchKind | null)[][]): Combination[][] {
  let combinations: Combination[] = [[]];
  for (const kinds of kindsPerWord) combinations = combinations.flatMap((prefix) => kinds.map((kind) => [...prefix, kind]));
  const groups = new Map<string, { typos: number; prefixes: number; members: Combination[] }>();
  for (const combination of combinations) {
    if (combination.length === 0) continue;
    const typos = combination.filter((kind) => kind === TYPO).length;
    const prefixes = combination.filter((kind) => kind === PREFIX).length;
    const key = `${typos}/${prefixes}`;
    if (!groups.has(key)) groups.set(key, { typos, prefixes, members: [] });
    groups.get(key)!.members.push(combination);
  }
  return [...groups.values()].sort((a, b) => a.typos - b.typos || a.prefixes - b.prefixes).map((group) => group.members);
}

/**
 * Keeps a long query's combinations few (each is one read): from the last word on, words are
 * matched in any kind, not told apart, until at most `max` combinations are left. The first word
 * always keeps its kinds. A query of a few words is ranked in full.
 */
export function boundKinds(kindsPerWord: MatchKind[][], max: number): (MatchKind | null)[][] {
  const bounded: (MatchKind | null)[][] = kindsPerWord.map((kinds) => [...kinds]);
  const count = () => bounded.reduce((product, kinds) => product * kinds.length, 1);
  for (let i = bounded.length - 1; i > 0 && count() > max; i--) if (bounded[i]!.length > 1) bounded[i] = [null];
  return bounded;
}

/**
 * How many clients match every word if the words occur independently of each other: `clients` times
 * the share of clients each word matches. Names are drawn independently of each other; a sample
 * read in name order is not (the first rows of 'hill' are Adam and Ava Hill, never Jack).
 */
export function independentEstimate(clients: number, rowsPerWord: number[]): number {
  if (clients <= 0 || rowsPerWord.length === 0) return 0;
  return Math.round(rowsPerWord.reduce((product, rows) => product * Math.min(1, rows / clients), clients));
}

/**
 * A total counted from the first `scanned` candidate rows (at most `scanCap`), `found` of which
 * matched: exact when every candidate was read, else `estimate` (never fewer than were found).
 */
export function estimateTotal(found: number, scanned: number, scanCap: number, estimate: number): { nbHits: number; exact: boolean } {
  if (scanned < scanCap) return { nbHits: found, exact: true };
  return { nbHits: Math.max(found, Math.round(estimate)), exact: false };
}
