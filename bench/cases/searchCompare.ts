import type { Database } from '../../server/src/db/client';
import { searchOne } from '../../server/src/search/queries';
import { distribution } from '../lib/stats';
import type { Figure } from '../lib/figures';
import { SEARCH_QUERIES } from './search';

/**
 * The customer search beside what a developer would write instead, for the same
 * queries (bench/cases/search.ts) with the same page (20 hits and a total), in-process on the
 * stopped server's database:
 * - `ILIKE '%word%'` on first name, last name and e-mail, every word, ordered by name;
 * - the same through a pg_trgm GIN index (a side table of each client's names and e-mail, built once
 *   per data set), and for typos pg_trgm's word similarity (`<%`), best first.
 * ILIKE finds no typo at all, and neither ranks exact names first: the figures compare time only.
 */
const TRIGRAM_TABLE = 'bench_search_trgm';

async function ensureTrigramTable(database: Database) {
  const [built] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = $1`, [`${TRIGRAM_TABLE}_doc`]);
  if (built!.n > 0) return;
  await database.execScript(`
    DROP TABLE IF EXISTS ${TRIGRAM_TABLE};
    CREATE TABLE ${TRIGRAM_TABLE} AS SELECT id, lower(concat_ws(' ', first_name, last_name, email_address)) AS doc FROM clients;
    ALTER TABLE ${TRIGRAM_TABLE} ADD PRIMARY KEY (id);
    CREATE INDEX ${TRIGRAM_TABLE}_doc ON ${TRIGRAM_TABLE} USING gin (doc gin_trgm_ops);
    ANALYZE ${TRIGRAM_TABLE};`);
}

const COLUMNS = 'c.id, c.first_name, c.last_name, c.email_address, count(*) OVER () AS total';
const words = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean);
const contains = (word: string) => `%${word.replace(/[\\%_]/g, '\\$&')}%`;

/** The query a developer would write first: every word somewhere in the names or the e-mail. */
function ilike(query: string): [string, unknown[]] {
  const list = words(query);
  const where = list.map((_, i) => `(c.first_name ILIKE $${i + 1} OR c.last_name ILIKE $${i + 1} OR c.email_address ILIKE $${i + 1})`).join(' AND ');
  return [`SELECT ${COLUMNS} FROM clients c WHERE ${where} ORDER BY c.last_name, c.first_name LIMIT 20`, list.map(contains)];
}

/** The same through a trigram index; a typo query by word similarity instead. */
function trigram(query: string, typo: boolean): [string, unknown[]] {
  if (typo) {
    return [
      `SELECT ${COLUMNS} FROM ${TRIGRAM_TABLE} t JOIN clients c USING (id) WHERE $1 <% t.doc ORDER BY word_similarity($1, t.doc) DESC, c.id LIMIT 20`,
      [query.toLowerCase()],
    ];
  }
  const list = words(query);
  const where = list.map((_, i) => `t.doc LIKE $${i + 1}`).join(' AND ');
  return [`SELECT ${COLUMNS} FROM ${TRIGRAM_TABLE} t JOIN clients c USING (id) WHERE ${where} ORDER BY c.last_name, c.first_name LIMIT 20`, list.map(contains)];
}

async function timeEach(queries: string[], rounds: number, run: (query: string) => Promise<unknown>, warmUp = true) {
  // A whole-table read is as fast the first time as the next: only the search endpoint warms up.
  if (warmUp) for (const query of queries) await run(query);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now();
      await run(query);
      times.push(performance.now() - started);
    }
  }
  return distribution(times);
}

export async function searchCompareCase(database: Database, { quick }: { quick: boolean }): Promise<Figure[]> {
  const setupStarted = performance.now();
  await ensureTrigramTable(database);
  const setupMs = Math.round(performance.now() - setupStarted);
  const figures: Figure[] = [];
  for (const [kind, queries] of Object.entries(SEARCH_QUERIES)) {
    const typo = kind === 'one-typo name';
    const engine = await timeEach(queries, quick ? 2 : 5, (query) => searchOne(database, 'Customers', { query, hitsPerPage: 20 }));
    const naive = await timeEach(queries, 1, (query) => database.query(...ilike(query)), false);
    const indexed = await timeEach(queries, 1, (query) => database.query(...trigram(query, typo)), false);
    const figure = (name: string, value: number, unit: Figure['unit'], detail: Record<string, number | string> = {}): Figure => ({
      group: 'search-compare',
      name: `${kind}: ${name}`,
      unit,
      value,
      detail,
    });
    const times = (slower: { p50: number }) => Math.round((slower.p50 / Math.max(engine.p50, 0.01)) * 10) / 10;
    const indexName = typo ? 'pg_trgm word similarity (<%)' : 'pg_trgm GIN index';
    figures.push(
      figure('the search endpoint (p50)', engine.p50, 'ms', { ...engine, queries: queries.join(' ') }),
      figure("ILIKE '%…%' (p50)", naive.p50, 'ms', { ...naive }),
      figure(`${indexName} (p50)`, indexed.p50, 'ms', { ...indexed, trigramTableBuiltMs: setupMs }),
      figure("ILIKE '%…%', times the search endpoint", times(naive), '×'),
      figure(`${indexName}, times the search endpoint`, times(indexed), '×'),
    );
  }
  return figures;
}
