import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ClientListPage, UnpagedClientList, type Client } from '@contract/clients';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');

describe.each(testDatabases())('client lists on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);
  const ids: Record<string, number> = {};

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const names = (clients: { first_name: string | null }[]) => clients.map((c) => c.first_name);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    // Each client sits on a boundary of one list rule.
    ids.ann = await insertClient(database, {
      first_name: 'Ann',
      last_name: 'Zeta',
      email_address: 'ann@studio.test',
      mb_client_id: '100200',
      mb_site_id: -99,
      vod_access_level: 3,
      client_status: 'Active',
      first_login: new Date(NOW.getTime() - 30 * DAY),
      admin_updated_expiration: new Date('2026-12-01T00:00:00Z'),
    });
    ids.bob = await insertClient(database, {
      first_name: 'bob',
      last_name: 'Young',
      email_address: 'Bob@Studio.test',
      mb_client_id: '42',
      mb_site_id: -99,
      vod_access_level: 1,
      client_status: null,
      first_login: new Date(NOW.getTime() - 30 * DAY - 1000),
    });
    ids.cat = await insertClient(database, {
      first_name: 'Cat',
      last_name: 'Xu',
      email_address: 'cat@studio.test',
      mb_client_id: null,
      vod_access_level: 2,
      client_status: 'Expired',
      first_login: null,
    });
    ids.dan = await insertClient(database, {
      first_name: 'Dan',
      last_name: 'Wong',
      email_address: 'dan@elsewhere.test',
      mb_client_id: '123',
      mb_site_id: 5739,
      vod_access_level: null,
      client_status: 'Active',
      first_login: new Date(NOW.getTime() - DAY),
    });
    ids.eve = await insertClient(database, {
      first_name: 'Eve',
      last_name: 'Voss',
      email_address: 'eve_100%@studio.test',
      mb_client_id: '999',
      mb_site_id: -99,
      vod_access_level: 3,
      client_status: 'Suspended',
      first_login: new Date(NOW.getTime() + DAY),
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers list 1 without parameters as { clients } with every field of spec §7', async () => {
    const response = await get('/api/client/v1/clients/1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['clients']);
    expect(UnpagedClientList.parse(body).clients).toHaveLength(5);
    expect(response.headers['x-clients-truncated']).toBe('false');
    expect(body.clients[0]).toEqual({
      _id: ids.ann,
      first_name: 'Ann',
      last_name: 'Zeta',
      email_address: 'ann@studio.test',
      mb_client_id: '100200',
      mb_site_id: -99,
      vod_access_level: 3,
      name: 'VOD | PREMIUM',
      client_status: 'Active',
      first_login: '2026-10-23T12:00:00.000Z',
      admin_updated_expiration: '2026-12-01T00:00:00.000Z',
    });
  });

  it("shows 'Pending' for a missing status and null level names for a missing level", async () => {
    const { clients } = (await get('/api/client/v1/clients/1')).json();
    const bob = clients.find((c: { _id: number }) => c._id === ids.bob);
    const dan = clients.find((c: { _id: number }) => c._id === ids.dan);
    expect(bob.client_status).toBe('Pending');
    expect(bob.name).toBe('VOD | FREE');
    expect(dan.vod_access_level).toBeNull();
    expect(dan.name).toBeNull();
  });

  it.each([
    ['2', 'MindBody: ids longer than 2 characters', ['Ann', 'Dan', 'Eve']],
    ['3', "active: status exactly 'Active'", ['Ann', 'Dan']],
    ['4', 'new: first login at most 30 days ago, inclusive', ['Ann', 'Dan', 'Eve']],
  ])('list %s holds %s', async (listId, _, expected) => {
    const response = await get(`/api/client/v1/clients/${listId}`);
    expect(response.statusCode).toBe(200);
    expect(names(response.json().clients)).toEqual(expected);
  });

  it('moves a client out of the New list one second after its 30 days are over', async () => {
    clock.set(new Date(NOW.getTime() + 1000));
    try {
      expect(names((await get('/api/client/v1/clients/4')).json().clients)).toEqual(['Dan', 'Eve']);
    } finally {
      clock.set(NOW);
    }
  });

  it.each(['0', '5', 'abc', '1.5'])('answers 400 with a message for list id %s', async (listId) => {
    const response = await get(`/api/client/v1/clients/${listId}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Unknown client list/);
  });

  it('answers one page with total, exact flag and a cursor when paging parameters are sent', async () => {
    const response = await get('/api/client/v1/clients/1?page=1&perPage=2');
    expect(response.statusCode).toBe(200);
    const page = ClientListPage.parse(response.json());
    expect(names(page.clients)).toEqual(['Ann', 'bob']);
    expect(page).toMatchObject({ total: 5, total_is_estimate: false, page: 1, perPage: 2 });
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('walks every page by cursor and by page number to the same order, ending with a null cursor', async () => {
    const byCursor: string[] = [];
    let after: string | null = null;
    do {
      const url: string = `/api/client/v1/clients/1?perPage=2&sort=last_name&order=ASC${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const page = ClientListPage.parse((await get(url)).json());
      byCursor.push(...names(page.clients).map(String));
      after = page.next_cursor;
    } while (after);
    const byPage: string[] = [];
    for (const p of [1, 2, 3]) {
      const page = (await get(`/api/client/v1/clients/1?perPage=2&sort=last_name&order=ASC&page=${p}`)).json();
      byPage.push(...names(page.clients).map(String));
    }
    expect(byCursor).toEqual(['Eve', 'Dan', 'Cat', 'bob', 'Ann']);
    expect(byPage).toEqual(byCursor);
  });

  it.each([
    ['first_name', 'ASC', ['Ann', 'bob', 'Cat', 'Dan', 'Eve']],
    ['first_name', 'desc', ['Eve', 'Dan', 'Cat', 'bob', 'Ann']],
    ['email_address', 'ASC', ['Ann', 'bob', 'Cat', 'Dan', 'Eve']],
    ['vod_access_level', 'ASC', ['Dan', 'bob', 'Cat', 'Ann', 'Eve']],
    ['client_status', 'ASC', ['Ann', 'Dan', 'Cat', 'bob', 'Eve']],
    ['first_login', 'DESC', ['Eve', 'Dan', 'Ann', 'bob', 'Cat']],
  ])('sorts by %s %s, case-insensitively with ties by id', async (sort, order, expected) => {
    const page = (await get(`/api/client/v1/clients/1?sort=${sort}&order=${order}`)).json();
    expect(names(page.clients)).toEqual(expected);
  });

  it('keeps the sort across cursor pages in descending order', async () => {
    const first = (await get('/api/client/v1/clients/1?perPage=3&sort=first_login&order=DESC')).json();
    const second = (await get(`/api/client/v1/clients/1?perPage=3&sort=first_login&order=DESC&page=2&after=${encodeURIComponent(first.next_cursor)}`)).json();
    expect([...names(first.clients), ...names(second.clients)]).toEqual(['Eve', 'Dan', 'Ann', 'bob', 'Cat']);
    expect(second.next_cursor).toBeNull();
  });

  it('filters by part of a name or e-mail, case-insensitively, and counts the matches', async () => {
    const byMail = (await get('/api/client/v1/clients/1?q=STUDIO.test')).json();
    expect(names(byMail.clients)).toEqual(['Ann', 'bob', 'Cat', 'Eve']);
    expect(byMail.total).toBe(4);
    expect(names((await get('/api/client/v1/clients/1?q=wong')).json().clients)).toEqual(['Dan']);
    expect(names((await get('/api/client/v1/clients/1?q=ann%20zeta')).json().clients)).toEqual(['Ann']);
    expect(names((await get('/api/client/v1/clients/3?q=an')).json().clients)).toEqual(['Ann', 'Dan']);
  });

  it('treats % and _ in the filter as plain characters', async () => {
    expect(names((await get('/api/client/v1/clients/1?q=100%25')).json().clients)).toEqual(['Eve']);
    expect((await get('/api/client/v1/clients/1?q=%25')).json().total).toBe(1);
    expect((await get('/api/client/v1/clients/1?q=_')).json().total).toBe(1);
  });

  it('answers an empty page with total 0 when nothing matches', async () => {
    const page = (await get('/api/client/v1/clients/2?q=nobody-here')).json();
    expect(page).toMatchObject({ clients: [], total: 0, total_is_estimate: false, next_cursor: null });
  });

  it('caps perPage at 500', async () => {
    const page = (await get('/api/client/v1/clients/1?perPage=100000')).json();
    expect(page.perPage).toBe(500);
    expect(page.clients).toHaveLength(5);
  });

  it.each([
    ['page=0', /page must be a whole number from 1/],
    ['page=two', /page/],
    ['perPage=-3', /perPage must be a whole number from 1/],
    ['sort=password', /sort must be one of/],
    ['order=sideways', /order must be ASC or DESC/],
    ['after=not-a-cursor', /after is not a cursor this server issued/],
    [`q=${'x'.repeat(101)}`, /q must be at most 100 characters/],
  ])('answers 400 with a message for %s', async (query, message) => {
    const response = await get(`/api/client/v1/clients/1?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('refuses a cursor used with another sort, and a tampered cursor', async () => {
    const { next_cursor } = (await get('/api/client/v1/clients/1?perPage=1&sort=last_name')).json();
    const other = await get(`/api/client/v1/clients/1?perPage=1&sort=first_name&after=${encodeURIComponent(next_cursor)}`);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toMatch(/another sort/);
    const signature = String(next_cursor).split('.').pop();
    const forged = `${Buffer.from(JSON.stringify(['last_name', 'ASC', "x'); DROP TABLE clients; --", 1])).toString('base64url')}.${signature}`;
    const tampered = await get(`/api/client/v1/clients/1?perPage=1&sort=last_name&after=${encodeURIComponent(forged)}`);
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().message).toMatch(/not a cursor this server issued/);
  });

  it('needs a staff session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/client/v1/clients/1' });
    expect(response.statusCode).toBe(401);
  });

  it('documents the paging parameters and both answer shapes in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/json')).json();
    const operation = doc.paths['/api/client/v1/clients/{listId}'].get;
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['listId', 'page', 'perPage', 'sort', 'order', 'q', 'after']),
    );
    expect(JSON.stringify(operation.responses['200'])).toContain('total_is_estimate');
    expect(operation.description).toMatch(/X-Clients-Truncated/);
  });
});

describe.each(testDatabases())('client lists beyond the exact-count cap on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookie = await signIn(app);
    await database.execScript(`
      INSERT INTO clients (first_name, last_name, email_address, client_status, mb_client_id)
      SELECT 'First' || g, 'Last' || g, 'client' || g || '@bulk.test',
             CASE WHEN g % 10 = 0 THEN 'Active' END, CASE WHEN g % 4 = 0 THEN (100000 + g)::text END
      FROM generate_series(1, 60050) AS g;
      ANALYZE clients;`);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  it("answers the planner's estimate for a large list, flagged as such", async () => {
    const page = (await get('/api/client/v1/clients/1?perPage=10')).json();
    expect(page.total_is_estimate).toBe(true);
    expect(page.total).toBeGreaterThan(50_000);
    expect(page.clients).toHaveLength(10);
  });

  it('flags the total as an estimate for a list of more than 10,000', async () => {
    const page = (await get('/api/client/v1/clients/2?perPage=10')).json();
    expect(page).toMatchObject({ total_is_estimate: true });
    expect(page.total).toBeGreaterThan(10_000);
  });

  it('counts exactly while a list stays under 10,000', async () => {
    expect((await get('/api/client/v1/clients/3?perPage=10')).json()).toMatchObject({ total: 6005, total_is_estimate: false });
    expect((await get('/api/client/v1/clients/1?perPage=5&q=first5000')).json()).toMatchObject({ total: 11, total_is_estimate: false });
  });

  it('caps the unpaged list at 10,000 clients and says so in a header', async () => {
    const response = await get('/api/client/v1/clients/1');
    expect(response.headers['x-clients-truncated']).toBe('true');
    expect(response.json().clients).toHaveLength(10_000);
  });

  it('reaches the last rows by cursor at any depth, where the total becomes exact', async () => {
    let page = (await get('/api/client/v1/clients/1?perPage=500&page=1')).json();
    while (page.next_cursor) {
      page = (await get(`/api/client/v1/clients/1?perPage=500&page=${page.page + 1}&after=${encodeURIComponent(page.next_cursor)}`)).json();
    }
    expect(page.page).toBe(121);
    expect(page.clients.map((c: { first_name: string }) => c.first_name)).toEqual(Array.from({ length: 50 }, (_, i) => `First${60001 + i}`));
    expect(page).toMatchObject({ next_cursor: null, total: 60050, total_is_estimate: false });
  });

  it('refuses a page by number beyond the first in a list of more than 10,000, naming the way on', async () => {
    const second = await get('/api/client/v1/clients/1?perPage=25&page=2&sort=last_name');
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toMatch(
      /^page 2 asks by number into a list of about [\d,]+ clients: pages by number exist for lists of at most 10,000 clients \(filters narrow one\)\. Page on with after=<next_cursor of the page before>, or read the end of the list as the first pages of order=DESC$/,
    );
    // List 2 holds 15,012 clients.
    expect((await get('/api/client/v1/clients/2?perPage=500&page=3')).statusCode).toBe(400);
    // A filter that narrows the list below 10,000 pages by number again, to its last page.
    const active = (await get('/api/client/v1/clients/1?perPage=500&page=13&status=Active')).json();
    expect(active).toMatchObject({ total: 6005, total_is_estimate: false, page: 13, next_cursor: null });
    expect(active.clients).toHaveLength(5);
    const last = (await get('/api/client/v1/clients/1?perPage=50&order=DESC')).json();
    expect(last.clients.map((c: { first_name: string }) => c.first_name).reverse()).toEqual(Array.from({ length: 50 }, (_, i) => `First${60001 + i}`));
  });
});

describe.each(testDatabases())('the four lists over the demo data on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    database = await open();
    await seedDemoData(database, { clients: 400, videos: 20, viewsPerClient: 1, now: NOW });
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const list = async (listId: number) =>
    (await app.inject({ method: 'GET', url: `/api/client/v1/clients/${listId}`, headers: { cookie } })).json().clients as Client[];

  it('holds exactly the clients each rule selects, and pages to the same totals', async () => {
    const all = await list(1);
    expect(all).toHaveLength(400);
    const cutoff = NOW.getTime() - 30 * DAY;
    const expected: Record<number, Client[]> = {
      2: all.filter((c) => c.mb_client_id !== null && c.mb_client_id.length > 2),
      3: all.filter((c) => c.client_status === 'Active'),
      4: all.filter((c) => c.first_login !== null && Date.parse(c.first_login) >= cutoff),
    };
    for (const listId of [2, 3, 4]) {
      const ids = (await list(listId)).map((c) => c._id);
      expect(ids, `list ${listId}`).toEqual(expected[listId]!.map((c) => c._id));
      expect(ids.length, `list ${listId}`).toBeGreaterThan(0);
      expect(ids.length, `list ${listId}`).toBeLessThan(400);
      const paged = (await app.inject({ method: 'GET', url: `/api/client/v1/clients/${listId}?perPage=7`, headers: { cookie } })).json();
      expect(paged).toMatchObject({ total: ids.length, total_is_estimate: false });
    }
    // Demo data has clients on both sides of every rule.
    expect(all.some((c) => c.mb_client_id !== null && c.mb_client_id.length <= 2)).toBe(true);
    expect(all.some((c) => c.client_status === 'Pending')).toBe(true);
  });
});
