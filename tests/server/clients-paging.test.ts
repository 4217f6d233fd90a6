import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { CLIENT_SORT_FIELDS, ClientListPage, type ClientFilter, type ClientSortField } from '@contract/clients';
import { pageQuery, selectionWhere, type ListRequest, type PagePlan } from '../../server/src/clients/listQueries';
import { choosePlan } from '../../server/src/clients/lists';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

const NOW = new Date('2026-11-22T12:00:00Z');
const COUNT = 1_500;
const SORT_EXPR: Record<ClientSortField, string> = {
  _id: 'c.id',
  first_name: "lower(coalesce(c.first_name, ''))",
  last_name: "lower(coalesce(c.last_name, ''))",
  email_address: "lower(coalesce(c.email_address, ''))",
  vod_access_level: 'coalesce(c.vod_access_level, 0)',
  client_status: "coalesce(c.client_status, 'Pending')",
  first_login: "coalesce(c.first_login, '-infinity'::timestamptz)",
};

describe('the page plan', () => {
  it('gathers a selection expected to be counted anyway, and walks a larger one', () => {
    expect(choosePlan(200)).toBe('gather');
    expect(choosePlan(9_999)).toBe('gather');
    expect(choosePlan(10_000)).toBe('walk');
    expect(choosePlan(454_000)).toBe('walk');
    // Matches that may bunch along the sort are gathered while few enough to count.
    expect(choosePlan(20_000, { clustered: true, countable: 50_000 })).toBe('gather');
    expect(choosePlan(60_000, { clustered: true, countable: 50_000 })).toBe('walk');
  });
});

describe.each(testDatabases())('paging at depth on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  /** The ids of a selection in the full ORDER BY of its sort: what every way of paging must reproduce. */
  async function fullOrder(request: Omit<ListRequest, 'page' | 'perPage'>) {
    const where = selectionWhere(request);
    const expr = SORT_EXPR[request.sort];
    const rows = await database.query<{ id: number }>(
      `SELECT c.id FROM clients c ${where} ORDER BY ${expr} ${request.order}, c.id ${request.order}`,
      where.params,
    );
    return rows.map((row) => Number(row.id));
  }

  /** Every page of a selection by one plan, each after the previous page's last row. */
  async function walkPages(request: Omit<ListRequest, 'page' | 'perPage'>, plan: PagePlan, perPage: number) {
    const ids: number[] = [];
    let after: ListRequest['after'];
    for (let page = 1; page < 1_000; page++) {
      const built = pageQuery({ ...request, page, perPage, after }, plan);
      const rows = await database.query<{ _id: number; sort_value: string; matching?: number }>(built.text, built.params);
      ids.push(...rows.slice(0, perPage).map((row) => Number(row._id)));
      if (rows.length <= perPage) return ids;
      const last = rows[perPage - 1]!;
      after = { sort: request.sort, order: request.order, value: last.sort_value, id: Number(last._id) };
    }
    throw new Error('too many pages');
  }

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookie = await signIn(app);
    // Few distinct names, statuses, levels and first logins: long runs of ties that only the id orders,
    // NULLs and case differences in every sorted column.
    await database.execScript(`
      INSERT INTO clients (first_name, last_name, email_address, client_status, vod_access_level, mb_client_id, first_login)
      SELECT CASE WHEN g % 13 = 0 THEN NULL WHEN g % 2 = 0 THEN 'ann' ELSE 'Ann' END,
             (ARRAY['Smith', 'smith', 'Lee', NULL, 'O''Neil'])[1 + g % 5],
             CASE WHEN g % 17 = 0 THEN NULL ELSE 'c' || (g % 40) || '@studio.test' END,
             (ARRAY['Active', 'Expired', NULL, 'Suspended'])[1 + g % 4],
             (ARRAY[1, 2, 3, NULL])[1 + (g / 3) % 4],
             CASE WHEN g % 3 = 0 THEN NULL ELSE (100000 + g)::text END,
             CASE WHEN g % 7 = 0 THEN NULL ELSE timestamptz '2026-11-01T00:00:00Z' + (g % 9) * interval '1 day' END
      FROM generate_series(1, ${COUNT}) AS g;
      ANALYZE clients;`);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const FILTERS: ClientFilter[] = [{}, { status: ['Active', 'Pending'] }, { vod_access_level: [0, 2], mindbody: false }];

  it.each(CLIENT_SORT_FIELDS.flatMap((sort) => (['ASC', 'DESC'] as const).map((order) => [sort, order] as const)))(
    'pages by %s %s walk and gather to exactly the full ORDER BY, with and without filters',
    async (sort, order) => {
      for (const filter of FILTERS) {
        const request = { listId: 1 as const, filter, now: NOW, sort, order };
        const expected = await fullOrder(request);
        expect(expected.length).toBeGreaterThan(100);
        expect(await walkPages(request, 'walk', 37), JSON.stringify(filter)).toEqual(expected);
        expect(await walkPages(request, 'gather', 37), JSON.stringify(filter)).toEqual(expected);
      }
    },
  );

  it('gathers the same page by number as it walks, and counts every match', async () => {
    const request: ListRequest = { listId: 4, filter: { status: ['Suspended'] }, now: NOW, sort: 'last_name', order: 'DESC', page: 3, perPage: 20 };
    const walked = pageQuery(request, 'walk');
    const gathered = pageQuery(request, 'gather');
    const byWalk = await database.query<{ _id: number }>(walked.text, walked.params);
    const byGather = await database.query<{ _id: number; matching: number }>(gathered.text, gathered.params);
    expect(byGather.map((row) => row._id)).toEqual(byWalk.map((row) => row._id));
    const everyMatch = await fullOrder(request);
    expect(byGather.map((row) => Number(row._id))).toEqual(everyMatch.slice(40, 61));
    expect(Number(byGather[0]!.matching)).toBe(everyMatch.length);
  });

  it('answers the same clients through the API page by page, by cursor and by number, to the last page', async () => {
    for (const sort of ['first_name', 'client_status', 'first_login'] as const) {
      const expected = await fullOrder({ listId: 1, filter: {}, now: NOW, sort, order: 'ASC' });
      const byCursor: number[] = [];
      const byNumber: number[] = [];
      let after: string | null = null;
      let page = 1;
      do {
        const cursor: string = after ? `&after=${encodeURIComponent(after)}` : '';
        const answer = ClientListPage.parse((await get(`/api/client/v1/clients/1?perPage=97&sort=${sort}&page=${page}${cursor}`)).json());
        byCursor.push(...answer.clients.map((client) => client._id));
        const numbered = ClientListPage.parse((await get(`/api/client/v1/clients/1?perPage=97&sort=${sort}&page=${page}`)).json());
        byNumber.push(...numbered.clients.map((client) => client._id));
        expect(numbered.total).toBe(COUNT);
        after = answer.next_cursor;
        page += 1;
      } while (after);
      expect(byCursor, sort).toEqual(expected);
      expect(byNumber, sort).toEqual(expected);
    }
  });

  it('reads the end of a list as the first pages of the other order', async () => {
    const expected = await fullOrder({ listId: 1, filter: {}, now: NOW, sort: 'last_name', order: 'ASC' });
    const last = ClientListPage.parse((await get('/api/client/v1/clients/1?perPage=30&sort=last_name&order=DESC')).json());
    const before = ClientListPage.parse(
      (await get(`/api/client/v1/clients/1?perPage=30&sort=last_name&order=DESC&page=2&after=${encodeURIComponent(last.next_cursor!)}`)).json(),
    );
    expect([...last.clients, ...before.clients].map((client) => client._id).reverse()).toEqual(expected.slice(-60));
  });

  it('answers an empty page past the end of a small list, and 400 for a page number beyond any list', async () => {
    const past = ClientListPage.parse((await get('/api/client/v1/clients/1?perPage=500&page=4')).json());
    expect(past).toMatchObject({ clients: [], total: COUNT, next_cursor: null });
    const beyond = await get('/api/client/v1/clients/1?perPage=500&page=1000001');
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toMatch(/page must be a whole number from 1 to 1000000/);
  });
});
