import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { MIN_TYPO_LENGTH, queryWords, withinOneEdit, words } from '../../server/src/search/text';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';

// docs/search.md (ranking): staff type a full name and expect that person first, whatever the page size, even when
// many others share the first or last name or a spelling one letter away.

const APP_ID = 'STUDIOTEST';
const KEY = 'search-only-key-for-tests';

/** [first, last, how many] — near-spellings of Jack Hill that sort before him by name come first. */
const GROUPS: [string, string, number][] = [
  ['Jack', 'Hill', 23],
  ['Jace', 'Hill', 23],
  ['Jack', 'Hall', 30],
  ['Jack', 'Hills', 4],
  ['Jackson', 'Hill', 4],
  ['Jackie', 'Hill', 3],
  ['Jackson', 'Hills', 2],
  ['Jace', 'Hall', 3],
  ['Jace', 'Hills', 2],
  ['Ada', 'Hill', 12],
  ['Jack', 'Adams', 12],
  ['Jacob', 'Hill', 5],
  ['Mary', 'Hall', 6],
  ['Garcia', 'Ng', 3],
  ['Lena', 'Garcia', 4],
  ['Lena', 'Garica', 2],
];

interface Person {
  first_name: string;
  last_name: string;
  email_address: string;
}

const people: Person[] = GROUPS.flatMap(([first, last, count], g) =>
  Array.from({ length: count }, (_, i) => ({ first_name: first, last_name: last, email_address: `${first}.${last}${g * 100 + i}@example.com`.toLowerCase() })),
);

/** Best match of a query word against a person's words: 0 exact, 1 prefix, 2 one typo, undefined none. */
function kindOf(person: Person, queryWord: string): number | undefined {
  const own = [person.first_name, person.last_name, person.email_address].flatMap((value) => words(value).map((w) => w.text));
  if (own.includes(queryWord)) return 0;
  if (own.some((w) => w.startsWith(queryWord))) return 1;
  if (queryWord.length >= MIN_TYPO_LENGTH && own.some((w) => withinOneEdit(queryWord, w))) return 2;
  return undefined;
}

/** Algolia's order for our records: fewer typos, then fewer prefix-only words (exactness), then by name. */
function expectedRank(person: Person, query: string): [number, number] | undefined {
  const kinds = queryWords(query).map((word) => kindOf(person, word));
  if (kinds.some((kind) => kind === undefined)) return undefined;
  return [kinds.filter((kind) => kind === 2).length, kinds.filter((kind) => kind === 1).length];
}

interface Hit {
  objectID: string;
  first_name: string;
  last_name: string;
  email_address: string;
}
interface Result {
  hits: Hit[];
  nbHits: number;
  nbPages: number;
  page: number;
  exhaustiveNbHits: boolean;
}

describe.each(testDatabases())('customer search ranking on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const personById = new Map<string, Person>();

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { env: { SEARCH_APP_ID: APP_ID, SEARCH_API_KEY: KEY } });
    cookie = await signIn(app);
    const rows = await database.query<{ id: number | string }>(
      `INSERT INTO clients (first_name, last_name, email_address)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ORDER BY 1, 2, 3 RETURNING id`,
      [people.map((p) => p.first_name), people.map((p) => p.last_name), people.map((p) => p.email_address)],
    );
    const sorted = [...people].sort((a, b) => (a.first_name + a.last_name + a.email_address < b.first_name + b.last_name + b.email_address ? -1 : 1));
    const byEmail = new Map(sorted.map((p) => [p.email_address, p]));
    const stored = await database.query<{ id: number | string; email_address: string }>('SELECT id, email_address FROM clients');
    for (const row of stored) personById.set(String(row.id), byEmail.get(row.email_address)!);
    expect(rows).toHaveLength(people.length);
    await database.execScript('ANALYZE search_words; ANALYZE search_prefixes;');
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const search = async (query: string, hitsPerPage: number, page: number): Promise<Result> => {
    const response = await app.inject({
      method: 'POST',
      url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
      headers: { cookie, 'content-type': 'text/plain' },
      payload: JSON.stringify({ requests: [{ indexName: 'Customers', query, hitsPerPage, page }] }),
    });
    expect(response.statusCode).toBe(200);
    return response.json().results[0];
  };

  /** Every page of the query at this page size, in order. */
  const allPages = async (query: string, hitsPerPage: number) => {
    const first = await search(query, hitsPerPage, 0);
    const pages = [first];
    for (let page = 1; page < first.nbPages; page++) pages.push(await search(query, hitsPerPage, page));
    return pages;
  };

  const expectedMatches = (query: string) =>
    people
      .map((person) => ({ person, rank: expectedRank(person, query) }))
      .filter((entry): entry is { person: Person; rank: [number, number] } => entry.rank !== undefined);

  describe.each([5, 10, 20, 40])('at %i hits per page', (hitsPerPage) => {
    it.each(['jack hill', 'hill jack', 'Jack Hill', 'jace hill', 'jack hall', 'jack hil', 'lena garcia'])(
      'lists "%s" exact full names first, then prefixes, then typos, on every page, with one total',
      async (query) => {
        const pages = await allPages(query, hitsPerPage);
        const expected = expectedMatches(query);
        const hits = pages.flatMap((page) => page.hits);
        // Every page agrees on the total and the number of pages, and together they show each match once.
        for (const page of pages)
          expect({ nbHits: page.nbHits, nbPages: page.nbPages }).toEqual({ nbHits: expected.length, nbPages: Math.ceil(expected.length / hitsPerPage) });
        for (const page of pages.slice(0, -1)) expect(page.hits).toHaveLength(hitsPerPage);
        expect(new Set(hits.map((hit) => hit.objectID)).size).toBe(hits.length);
        expect(hits).toHaveLength(expected.length);
        // In rank order: typos, then prefix-only words, then by name.
        const ranks = hits.map((hit) => {
          const person = personById.get(hit.objectID)!;
          return { rank: expectedRank(person, query)!, name: `${person.first_name} ${person.last_name}`.toLowerCase() };
        });
        const sortedRanks = [...ranks].sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        expect(ranks).toEqual(sortedRanks);
      },
    );

    it('puts every exact "Jack Hill" on the first pages, none of the near-spellings between them', async () => {
      const pages = await allPages('jack hill', hitsPerPage);
      const names = pages.flatMap((page) => page.hits.map((hit) => `${hit.first_name} ${hit.last_name}`));
      expect(names.slice(0, 23)).toEqual(Array(23).fill('Jack Hill'));
      expect(names.slice(23)).not.toContain('Jack Hill');
    });

    it.each(['hill', 'jack', 'garica', 'hils', 'ja'])('keeps one word "%s" in rank order with one total on every page', async (query) => {
      const pages = await allPages(query, hitsPerPage);
      const expected = expectedMatches(query);
      const hits = pages.flatMap((page) => page.hits);
      for (const page of pages) expect(page.nbHits).toBe(expected.length);
      expect(new Set(hits.map((hit) => hit.objectID)).size).toBe(expected.length);
      const ranks = hits.map((hit) => expectedRank(personById.get(hit.objectID)!, query)!);
      expect(ranks).toEqual([...ranks].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    });
  });

  it('answers a query of many words (name and e-mail words) with every client all of them match', async () => {
    const query = 'jack hill example com ja hi ex co exam hil jac';
    const expected = expectedMatches(query).length;
    const pages = await allPages(query, 40);
    const hits = pages.flatMap((page) => page.hits);
    expect(pages.map((page) => page.nbHits)).toEqual(pages.map(() => expected));
    expect(new Set(hits.map((hit) => hit.objectID)).size).toBe(expected);
    expect(hits.slice(0, 23).map((hit) => `${hit.first_name} ${hit.last_name}`)).toEqual(Array(23).fill('Jack Hill'));
  });

  it('answers odd input as text, refuses NUL naming the field, and holds under wrong types and many parallel calls', async () => {
    for (const query of ['jáck hïll', 'JACK,HILL', 'jack 😀 hill', 'jack\u200b hill']) {
      const result = await search(query, 20, 0);
      expect(typeof result.nbHits).toBe('number');
    }
    for (const query of ['jack\u0000 hill', 'hill\u0000', 'jack.hill5\u0000@example.com', 'jack.hill5@\u0000']) {
      const refused = await app.inject({
        method: 'POST',
        url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
        headers: { cookie, 'content-type': 'text/plain' },
        payload: JSON.stringify({ requests: [{ indexName: 'Customers', query, hitsPerPage: 20, page: 0 }] }),
      });
      expect(refused.statusCode, JSON.stringify(query)).toBe(400);
      // Algolia's error shape, naming the field.
      expect(refused.json()).toEqual({ message: 'Invalid request: body.requests.0.query: must not contain NUL or unpaired surrogate characters', status: 400 });
    }
    expect((await search('jáck hïll', 20, 0)).hits.slice(0, 23).every((hit) => hit.first_name === 'Jack' && hit.last_name === 'Hill')).toBe(true);
    const bad = await app.inject({
      method: 'POST',
      url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
      headers: { cookie, 'content-type': 'text/plain' },
      payload: JSON.stringify({ requests: [{ indexName: 'Customers', query: { $ne: 1 }, hitsPerPage: '20' }] }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'query must be a text', status: 400 });
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => search('jack hill', [5, 10, 20, 40][i % 4]!, 0)));
    expect(new Set(burst.map((result) => result.nbHits))).toEqual(new Set([expectedMatches('jack hill').length]));
  });

  it('finds a one-typo surname only after every exact one', async () => {
    const names = (await allPages('garica', 5)).flatMap((page) => page.hits.map((hit) => `${hit.first_name} ${hit.last_name}`));
    expect(names).toEqual(['Lena Garica', 'Lena Garica', 'Garcia Ng', 'Garcia Ng', 'Garcia Ng', 'Lena Garcia', 'Lena Garcia', 'Lena Garcia', 'Lena Garcia']);
  });

  it('answers an exact e-mail address with that client first', async () => {
    for (const hitsPerPage of [5, 20]) {
      const result = await search('jack.hill5@example.com', hitsPerPage, 0);
      expect(result.hits[0]!.email_address).toBe('jack.hill5@example.com');
      expect(result.nbHits).toBe(1);
    }
    // jack.hill1@, jack.hill10@ … jack.hill19@: the same name, so any order; one total on both pages.
    const prefix = await search('jack.hill1', 5, 0);
    const next = await search('jack.hill1', 5, 1);
    const shown = [...prefix.hits, ...next.hits].map((hit) => hit.email_address);
    expect(shown.every((email) => email.startsWith('jack.hill1'))).toBe(true);
    expect(new Set(shown).size).toBe(10);
    expect([prefix.nbHits, next.nbHits]).toEqual([11, 11]);
  });
});

describe.each(testDatabases())('customer search totals beyond the exact bound on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { env: { SEARCH_APP_ID: APP_ID, SEARCH_API_KEY: KEY } });
    cookie = await signIn(app);
    // 1,500 Hills and Halls with other first names (Ada1 … sort before Jack), 1,200 Jacks with other
    // last names, and 23 Jack Hills: both words too common to count every match.
    await database.query(
      `INSERT INTO clients (first_name, last_name, email_address)
       SELECT CASE WHEN g % 2 = 0 THEN 'Ada' ELSE 'Zed' END || g, CASE WHEN g % 3 = 0 THEN 'Hall' ELSE 'Hill' END, 'p' || g || '@example.com'
       FROM generate_series(1, 1500) AS g
       UNION ALL SELECT 'Jack', CASE WHEN g % 2 = 0 THEN 'Adams' ELSE 'Zulu' END, 'j' || g || '@example.com' FROM generate_series(1, 1200) AS g
       UNION ALL SELECT 'Jack', 'Hill', 'jh' || g || '@example.com' FROM generate_series(1, 23) AS g`,
    );
    await database.execScript('ANALYZE clients; ANALYZE search_words; ANALYZE search_prefixes;');
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const search = async (query: string, hitsPerPage: number, page: number) => {
    const response = await app.inject({
      method: 'POST',
      url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
      headers: { cookie, 'content-type': 'text/plain' },
      payload: JSON.stringify({ requests: [{ indexName: 'Customers', query, hitsPerPage, page }] }),
    });
    return response.json().results[0] as Result;
  };

  it('gives one estimated total on every page, the exact full names still first', async () => {
    const answers = [
      await search('jack hill', 5, 0),
      await search('jack hill', 5, 3),
      await search('jack hill', 20, 0),
      await search('jack hill', 40, 0),
      await search('jack hill', 40, 1),
    ];
    const totals = new Set(answers.map((answer) => `${answer.nbHits}/${answer.exhaustiveNbHits}`));
    expect(totals.size).toBe(1);
    expect(answers[0]!.exhaustiveNbHits).toBe(false);
    expect(answers[0]!.nbHits).toBeGreaterThanOrEqual(23);
    expect(answers[3]!.hits.slice(0, 23).map((hit) => `${hit.first_name} ${hit.last_name}`)).toEqual(Array(23).fill('Jack Hill'));
  });
});
