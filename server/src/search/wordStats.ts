import type { Database } from '../db/client';
import { searchStatistics } from './indexQueries';

/**
 * How many clients a query word matches, estimated from ANALYZE's most common values of
 * search_words.word and search_prefixes.prefix (migration 0026 keeps 1,000 of each). A several-word
 * query reads the clients of its rarest word and checks the others, so 'gmail sofia' reads the
 * Sofias, not the 125,000 gmail addresses. Words outside the lists are rarer than any in them.
 */
export interface WordStats {
  /** Estimated matching rows; 0 when the word is rarer than every common one (or never analyzed). */
  estimate(word: string): number;
  /** Estimated clients having `word` itself as a word (0 when rarer than every common one). */
  exact(word: string): number;
  /** The planner's estimate of all clients (0 before the first ANALYZE). */
  clients: number;
}

const STATS_TTL_MS = 60_000;
const known = new WeakMap<Database, { stats: WordStats; at: number; refreshing?: Promise<WordStats> }>();

/**
 * The statistics, read again once a minute. A search that finds them older gets them as they are
 * and the new read runs beside it: reading pg_stats costs ~20 ms on PGlite, no search should wait.
 */
export async function wordStats(database: Database, now = Date.now()): Promise<WordStats> {
  const cached = known.get(database);
  if (!cached) return readStats(database, now);
  if (now - cached.at >= STATS_TTL_MS && !cached.refreshing) {
    cached.refreshing = readStats(database, now).catch(() => {
      cached.refreshing = undefined;
      return cached.stats;
    });
  }
  return cached.stats;
}

async function readStats(database: Database, now: number): Promise<WordStats> {
  const rows = await searchStatistics(database);
  const counts = (table: string) => {
    const row = rows.find((r) => r.table === table);
    const total = Number(row?.rows ?? 0);
    return (row?.vals ?? []).map((value, i) => [value, Math.round((row!.freqs?.[i] ?? 0) * total)] as const);
  };
  const words = counts('search_words');
  const wholeWords = new Map(words);
  const prefixes = new Map(counts('search_prefixes'));
  const stats: WordStats = {
    estimate(word) {
      if ([...word].length <= 2) return prefixes.get(word) ?? 0;
      // A 3+ letter word matches every word it starts.
      let sum = 0;
      for (const [value, count] of words) if (value.startsWith(word)) sum += count;
      return sum;
    },
    exact: (word) => wholeWords.get(word) ?? 0,
    clients: Number(rows.find((r) => r.table === 'clients')?.rows ?? 0),
  };
  known.set(database, { stats, at: now });
  return stats;
}
