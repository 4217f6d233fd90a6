import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { runMigrations } from '../../server/src/db/migrate';
import { matchCustomers } from '../../server/src/search/customers';
import { MIN_TYPO_LENGTH, queryWords, wordBits, withinOneEdit, words } from '../../server/src/search/text';
import { wordStats } from '../../server/src/search/wordStats';
import { testDatabases } from '../support/databases';
import { insertClient } from '../support/clientFixtures';

// Several-word queries pass over candidates whose sig (migration 0026) lacks a query word's bits.
// A wrong bit anywhere would silently drop real matches, so matches are checked against every client.

const FIRST = ['Sofia', 'Sophia', 'Émile', 'Ōta', 'Ramón', 'Jo', 'Lucas', 'Mia', 'Rafael', 'Zoë'];
const LAST = ['Rodriguez', 'Rivera', 'Smith', 'Schmidt', 'Lee', 'Garcia', 'Müller', 'Øster', 'Nguyen', 'Roberts'];
const DOMAINS = ['gmail.com', 'rocket-mail.com', 'studio-fit.com', 'proton.me'];

const people = Array.from({ length: 100 }, (_, n) => {
  const first = FIRST[n % FIRST.length]!;
  const last = LAST[(n * 7 + Math.floor(n / 10)) % LAST.length]!;
  return {
    first_name: first,
    last_name: last,
    // Some e-mails carry a word the name lacks ('rocket', 'r12'), so a match may come from the e-mail alone.
    email_address: `${first.toLowerCase()}.${n % 3 === 0 ? 'r' : last.toLowerCase()}${n}@${DOMAINS[n % DOMAINS.length]}`,
    mb_client_id: n % 4 === 0 ? null : String(100_000 + n),
  };
});

const QUERIES = [
  'sofia r',
  'sofia rod',
  'sofia rdoriguez',
  'rodriguez sofia',
  'so ri',
  'jo sm',
  'mia lee 9',
  'lucas 10001',
  'émile mü',
  'ota øster',
  'zoë rocket',
  'rafael r1',
  'ramón riv',
  'ramon riv',
  'emile',
  'zoe r',
  'oster',
  'ota o',
  'sophia gmail',
  'lee m',
  'garcia ja',
  'nguyen z',
];

/** Every query word matches one of the client's words as a prefix, or whole with one typo (4+ characters). */
function matchesByHand(person: (typeof people)[number], query: string) {
  const own = [person.first_name, person.last_name, person.email_address, person.mb_client_id ?? ''].flatMap((value) => words(value).map((w) => w.text));
  return queryWords(query).every((q) => own.some((w) => w.startsWith(q) || (q.length >= MIN_TYPO_LENGTH && withinOneEdit(q, w))));
}

describe.each(testDatabases())('several-word customer search on $name', ({ open }) => {
  let database: Database;
  const ids: number[] = [];

  beforeAll(async () => {
    database = await open();
    for (const person of people) ids.push(await insertClient(database, person));
    // With statistics, the rarest word drives (a 1-2 letter one too, through search_prefixes).
    await database.execScript('ANALYZE search_words; ANALYZE search_prefixes;');
  });
  afterAll(async () => {
    await database.close();
  });

  it('gives query words the same bits as the database gives client words', async () => {
    const samples = ['a', 'r', 'ro', 'rodriguez', '12', '1', 'ß', 'émile', 'ōta', '日本語', '😀x', 'zoë', 'øster', 'x'.repeat(64)];
    const rows = await database.query<{ word: string; bits: string }>('SELECT w AS word, search_word_bits(w)::text AS bits FROM unnest($1::text[]) AS w', [
      samples,
    ]);
    expect(rows.map((row) => [row.word, row.bits])).toEqual(samples.map((word) => [word, wordBits(word).toString()]));
  });

  it.each(QUERIES)('finds exactly the clients every word of "%s" matches', async (query) => {
    const expected = people.flatMap((person, i) => (matchesByHand(person, query) ? [ids[i]!] : [])).sort((a, b) => a - b);
    const found = await matchCustomers(database, query, queryWords(query), 1000, true);
    expect(found.ranked.map((match) => match.client_id).sort((a, b) => a - b)).toEqual(expected);
  });

  it('judges how common a word is from the statistics', async () => {
    const stats = await wordStats(database);
    // 25 of the 100 e-mails are at gmail.com; 10 clients are named Sofia.
    expect(stats.estimate('gmail')).toBeGreaterThan(stats.estimate('sofia'));
    expect(stats.estimate('gm')).toBeGreaterThanOrEqual(stats.estimate('gmail'));
    expect(stats.estimate('sofia')).toBeGreaterThan(0);
    expect(stats.estimate('zebedee')).toBe(0);
  });

  it('reads the statistics again once they are a minute old, without making a search wait for them', async () => {
    const own = await open();
    try {
      const t = Date.now();
      await insertClient(own, { first_name: 'Ada', last_name: 'Quill', email_address: 'ada@example.com' });
      await own.execScript('ANALYZE search_words; ANALYZE search_prefixes;');
      const first = await wordStats(own, t);
      for (let i = 0; i < 40; i++) await insertClient(own, { first_name: 'Zebedee', last_name: `Quill${i}`, email_address: `zq${i}@example.com` });
      await own.execScript('ANALYZE search_words; ANALYZE search_prefixes;');
      expect(await wordStats(own, t + 30_000)).toBe(first);
      // A minute old: the search gets what was known, and the new statistics follow.
      expect(await wordStats(own, t + 61_000)).toBe(first);
      expect(first.estimate('zebedee')).toBe(0);
      await vi.waitFor(async () => expect((await wordStats(own, t + 61_001)).estimate('zebedee')).toBeGreaterThan(0));
    } finally {
      await own.close();
    }
  });

  it('keeps every client findable after a name or e-mail change', async () => {
    await database.query("UPDATE clients SET last_name = 'Quintero', email_address = 'sofia.q@rocket-mail.com' WHERE id = $1", [ids[0]]);
    const found = await matchCustomers(database, 'sofia quin', queryWords('sofia quin'), 1000, true);
    expect(found.ranked.map((match) => match.client_id)).toEqual([ids[0]]);
    const byMail = await matchCustomers(database, 'sofia rocket', queryWords('sofia rocket'), 1000, true);
    expect(byMail.ranked.map((match) => match.client_id)).toContain(ids[0]);
  });
});

describe.each(testDatabases())('upgrading to migration 0026 on $name', ({ open }) => {
  it('gives clients stored before it their signatures, and vacuums the rebuilt tables', async () => {
    const database = await open({ migrateThrough: '0025_videos_version.sql' });
    try {
      const before = await insertClient(database, { first_name: 'Sofia', last_name: 'Rodriguez', email_address: 'sofia.r@gmail.com' });
      await insertClient(database, { first_name: 'Sofia', last_name: 'Anderson', email_address: 'sofia.anderson@gmail.com' });
      expect(await runMigrations(database)).toContain('0026_search_signatures.sql');

      const found = await matchCustomers(database, 'sofia ro', queryWords('sofia ro'), 20, true);
      expect(found.ranked.map((match) => match.client_id)).toEqual([before]);
      const [stats] = await database.query<{ vacuumed: number }>(
        "SELECT count(*)::int AS vacuumed FROM pg_stat_all_tables WHERE relname IN ('search_words', 'search_prefixes') AND (last_vacuum IS NOT NULL OR vacuum_count > 0)",
      );
      expect(stats!.vacuumed).toBe(2);
    } finally {
      await database.close();
    }
  });
});
