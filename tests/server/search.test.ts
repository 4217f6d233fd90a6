import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { liteClient } from 'algoliasearch/lite';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';
import { insertClient } from '../support/clientFixtures';

const APP_ID = 'STUDIOTEST';
const KEY = 'search-only-key-for-tests';

interface Hit {
  objectID: string;
  first_name: string;
  last_name: string;
  email_address: string;
  related_pg_id: number;
  _highlightResult: Record<string, { value: string; matchLevel: string; matchedWords: string[] }>;
}

describe.each(testDatabases())('customer search endpoint on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let base: string;
  let port: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { env: { SEARCH_APP_ID: APP_ID, SEARCH_API_KEY: KEY } });
    cookie = await signIn(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
    const people: [string, string, string, string | null][] = [
      ['Olivia', 'Smith', 'olivia.smith@gmail.com', '100231'],
      ['Oliver', 'Smithers', 'oli.s@yahoo.com', '100232'],
      ['Liam', 'Johnson', 'liam.j@outlook.com', '100233'],
      ['Emma', 'Brown', 'emma.brown88@studio-fit.com', '55'],
      ['Noah', 'Schmidt', 'noah@schmidt.example', null],
      ['Ava', 'Smyth', 'ava.smyth@proton.me', '100299'],
      ['Zoe', 'Oakley', 'zoe.o@icloud.com', null],
    ];
    for (const [first, last, email, mb] of people) {
      ids[`${first} ${last}`] = await insertClient(database, { first_name: first, last_name: last, email_address: email, mb_client_id: mb });
    }
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const client = (appId = APP_ID, key = KEY) => {
    const search = liteClient(appId, key, { hosts: [{ url: '127.0.0.1', port, accept: 'readWrite', protocol: 'http' }] });
    search.clearCache();
    return search;
  };
  const customers = async (query: string, params: Record<string, unknown> = {}) => {
    const { results } = await client().search<Hit>([{ indexName: 'Customers', params: { query, ...params } }], { headers: { cookie } });
    return results[0] as {
      hits: Hit[];
      nbHits: number;
      page: number;
      nbPages: number;
      hitsPerPage: number;
      processingTimeMS: number;
      query: string;
      index: string;
    };
  };
  const names = (hits: Hit[]) => hits.map((hit) => `${hit.first_name} ${hit.last_name}`);

  it('answers the real algoliasearch v5 lite client with Algolia-shaped results in request order', async () => {
    const { results } = await client().search<Hit>(
      [
        { indexName: 'Customers', params: { query: 'olivia', hitsPerPage: 5 } },
        { indexName: 'Customers', params: { query: 'liam' } },
      ],
      { headers: { cookie } },
    );
    expect(results).toHaveLength(2);
    const [first, second] = results as unknown as { hits: Hit[]; [key: string]: unknown }[];
    expect(first).toMatchObject({ nbHits: 1, page: 0, nbPages: 1, hitsPerPage: 5, query: 'olivia', index: 'Customers' });
    expect(typeof first!.processingTimeMS).toBe('number');
    expect(first!.params).toContain('hitsPerPage=5');
    expect(first!.hits[0]).toMatchObject({
      objectID: String(ids['Olivia Smith']),
      first_name: 'Olivia',
      last_name: 'Smith',
      email_address: 'olivia.smith@gmail.com',
      mb_client_id: '100231',
      related_pg_id: ids['Olivia Smith'],
      title: 'Olivia Smith',
    });
    expect(names(second!.hits)).toEqual(['Liam Johnson']);
  });

  it('finds a name prefix, an e-mail fragment and a one-typo surname, the expected customer first', async () => {
    expect(names((await customers('oliv')).hits)).toEqual(['Oliver Smithers', 'Olivia Smith']);
    expect(names((await customers('emma.brown8')).hits)[0]).toBe('Emma Brown');
    expect(names((await customers('schmdit')).hits)[0]).toBe('Noah Schmidt');
    expect(names((await customers('johnsen')).hits)).toEqual(['Liam Johnson']);
  });

  it('ranks exact words before prefixes before typos, then name words before e-mail words, then by name', async () => {
    // smith: exact (Olivia Smith), prefix (Oliver Smithers), one typo (Ava Smyth).
    expect(names((await customers('smith')).hits)).toEqual(['Olivia Smith', 'Oliver Smithers', 'Ava Smyth']);
    // 'o' is a whole word of Zoe's e-mail (zoe.o@…), starts a name word of Oliver, Olivia and
    // Oakley (by name), and only e-mail words of Liam (outlook) and Oliver's oli.s@….
    const o = names((await customers('o')).hits);
    expect(o).toEqual(['Zoe Oakley', 'Oliver Smithers', 'Olivia Smith', 'Liam Johnson']);
  });

  it('counts every match of a one-typo word when the page holds only some of them', async () => {
    const fishers = [];
    for (const first of ['Ada', 'Ben', 'Cy', 'Di', 'Ed'])
      fishers.push(await insertClient(database, { first_name: first, last_name: 'Fisher', email_address: `${first}.f@x.example` }));
    try {
      const page = await customers('fishre', { hitsPerPage: 2 });
      expect(names(page.hits)).toEqual(['Ada Fisher', 'Ben Fisher']);
      expect(page.nbHits).toBe(5);
    } finally {
      await database.query('DELETE FROM clients WHERE id = ANY($1::bigint[])', [fishers]);
    }
  });

  it('lets accents not count, either way round, and marks the accented letters found', async () => {
    const ramon = await insertClient(database, { first_name: 'Ramón', last_name: 'Núñez', email_address: 'ramon.n@x.example' });
    try {
      for (const query of ['ramon nun', 'Ramón Núñez', 'nunez']) expect(names((await customers(query)).hits)).toEqual(['Ramón Núñez']);
      const [hit] = (await customers('ramo nú', { highlightPreTag: '[', highlightPostTag: ']' })).hits;
      expect(hit!._highlightResult.title!.value).toBe('[Ramó]n [Nú]ñez');
    } finally {
      await database.query('DELETE FROM clients WHERE id = $1', [ramon]);
    }
  });

  it('serves one- and two-letter queries, MindBody id prefixes and several words at once', async () => {
    expect(names((await customers('z')).hits)).toEqual(['Zoe Oakley']);
    expect(names((await customers('sc')).hits)).toEqual(['Noah Schmidt']);
    expect(names((await customers('10023')).hits)).toEqual(['Liam Johnson', 'Oliver Smithers', 'Olivia Smith']);
    expect(names((await customers('olivia smi')).hits)).toEqual(['Olivia Smith']);
    expect(names((await customers('smith oliver')).hits)).toEqual(['Oliver Smithers']);
    expect(names((await customers('olivia s')).hits)).toEqual(['Olivia Smith']);
    expect((await customers('qqqq')).hits).toEqual([]);
  });

  it('reads a query typed as the start of an e-mail address as just that', async () => {
    expect(names((await customers('oli.s@y')).hits)).toEqual(['Oliver Smithers']);
    expect(names((await customers('emma.brown88@studio-fit.com')).hits)).toEqual(['Emma Brown']);
    // Not the start of any address: the words must all match instead (olivia + smith).
    expect(names((await customers('smith.olivia')).hits)).toEqual(['Olivia Smith']);
  });

  it("wraps matches in the request's highlight tags", async () => {
    const { hits } = await customers('oli smi', { highlightPreTag: '<b class="hit">', highlightPostTag: '</b>' });
    const olivia = hits.find((hit) => hit.first_name === 'Olivia')!;
    expect(olivia._highlightResult.first_name).toEqual({
      value: '<b class="hit">Oli</b>via',
      matchLevel: 'partial',
      matchedWords: ['oli'],
      fullyHighlighted: false,
    });
    expect(olivia._highlightResult.email_address!.value).toBe('<b class="hit">oli</b>via.<b class="hit">smi</b>th@gmail.com');
    expect(olivia._highlightResult.title!.matchLevel).toBe('full');
    expect(olivia._highlightResult.mb_client_id!.matchLevel).toBe('none');
  });

  it('pages with page and hitsPerPage, capping hitsPerPage at 1000', async () => {
    const first = await customers('o', { hitsPerPage: 2 });
    const second = await customers('o', { hitsPerPage: 2, page: 1 });
    expect(first.hits).toHaveLength(2);
    expect(first.nbPages).toBe(Math.ceil(first.nbHits / 2));
    expect(second.hits.map((hit) => hit.objectID)).not.toContain(first.hits[0]!.objectID);
    expect((await customers('o', { hitsPerPage: 5000 })).hitsPerPage).toBe(1000);
  });

  it('keeps the index current: a new, renamed or deleted client is found (or not) at once', async () => {
    const id = await insertClient(database, { first_name: 'Quincy', last_name: 'Newcomb', email_address: 'q@new.example' });
    expect(names((await customers('quin')).hits)).toEqual(['Quincy Newcomb']);
    await database.query("UPDATE clients SET last_name = 'Oldfield' WHERE id = $1", [id]);
    expect((await customers('newcomb')).hits).toEqual([]);
    expect(names((await customers('oldf')).hits)).toEqual(['Quincy Oldfield']);
    await database.query('DELETE FROM clients WHERE id = $1', [id]);
    expect((await customers('quin')).hits).toEqual([]);
  });

  it('answers a raw v4-style request: params as a URL-encoded string, text/plain body, credentials in headers', async () => {
    const response = await fetch(`${base}/1/indexes/*/queries?x-algolia-agent=Algolia%20for%20JavaScript%20(4.27.0)`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', cookie, 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': KEY },
      body: JSON.stringify({
        requests: [
          { indexName: 'Customers', params: 'query=smith&hitsPerPage=1&attributesToRetrieve=%5B%22first_name%22%5D&unknownThing=1' },
          { indexName: 'Videos', params: 'query=&hitsPerPage=0' },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const { results } = await response.json();
    expect(results[0]).toMatchObject({ hitsPerPage: 1, query: 'smith', index: 'Customers' });
    expect(results[0].nbPages).toBeGreaterThanOrEqual(2);
    expect(results[0].hits).toEqual([
      expect.objectContaining({ objectID: String(ids['Olivia Smith']), first_name: 'Olivia', _highlightResult: expect.any(Object) }),
    ]);
    expect(results[0].hits[0].email_address).toBeUndefined();
    expect(results[1]).toMatchObject({ hits: [], index: 'Videos', page: 0 });
  });

  it('answers the single-index form POST /1/indexes/{index}/query', async () => {
    const response = await fetch(`${base}/1/indexes/Customers/query?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`, {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ params: 'query=noah' }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).hits[0].first_name).toBe('Noah');
  });

  it("refuses malformed bodies, bad parameters and unknown indexes in Algolia's { message, status } shape", async () => {
    const post = (path: string, body: string) =>
      fetch(`${base}${path}?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'text/plain' },
        body,
      });
    const broken = await post('/1/indexes/*/queries', '{"requests": [');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ message: 'Invalid JSON in the request body', status: 400 });
    const notArray = await post('/1/indexes/*/queries', '{"requests": 3}');
    expect(notArray.status).toBe(400);
    expect((await notArray.json()).status).toBe(400);
    const badPage = await post('/1/indexes/*/queries', JSON.stringify({ requests: [{ indexName: 'Customers', page: -1 }] }));
    expect(await badPage.json()).toEqual({ message: 'page must be a whole number from 0 to 2147483647', status: 400 });
    const unknown = await post('/1/indexes/*/queries', JSON.stringify({ requests: [{ indexName: 'Orders', query: 'x' }] }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Index Orders does not exist', status: 404 });
  });

  it('needs a staff session (401) and the configured application id and search-only key (403)', async () => {
    const noSession = client().search([{ indexName: 'Customers', params: { query: 'smith' } }]);
    await expect(noSession).rejects.toMatchObject({ status: 401 });
    const wrongKey = client(APP_ID, 'not-the-key').search([{ indexName: 'Customers', params: { query: 'smith' } }], { headers: { cookie } });
    await expect(wrongKey).rejects.toMatchObject({ status: 403, message: 'Invalid Application-ID or API key' });
    const wrongApp = client('OTHERAPP', KEY).search([{ indexName: 'Customers', params: { query: 'smith' } }], { headers: { cookie } });
    await expect(wrongApp).rejects.toMatchObject({ status: 403 });
  });

  it('limits the rate per session', async () => {
    const limited = await createTestApp(database, { env: { SEARCH_APP_ID: APP_ID, SEARCH_API_KEY: KEY, SEARCH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const session = await signIn(limited);
      const call = () =>
        limited.inject({
          method: 'POST',
          url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
          headers: { cookie: session, 'content-type': 'text/plain' },
          payload: JSON.stringify({ requests: [{ indexName: 'Customers', query: 'a' }] }),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call()).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const other = await signIn(limited, { email: 'second@studio.test', password: 'another long password' });
      const fresh = await limited.inject({
        method: 'POST',
        url: `/1/indexes/*/queries?x-algolia-application-id=${APP_ID}&x-algolia-api-key=${KEY}`,
        headers: { cookie: other, 'content-type': 'text/plain' },
        payload: JSON.stringify({ requests: [{ indexName: 'Customers', query: 'a' }] }),
      });
      expect(fresh.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
