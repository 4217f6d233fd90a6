import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ClientListPage, matchesClientFilter, type ClientFilter } from '@contract/clients';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, type ClientFixture } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const SECOND = 1000;
const at = (ms: number) => new Date(NOW.getTime() + ms);

// Every value of every filtered field, boundaries included; client i takes value i % n of each
// list (lengths 6, 4, 5, 6, 7 have no common factor beyond 2, so 240 clients meet most combinations).
const STATUSES = ['Active', 'Expired', 'Non-Member', null, 'Suspended', 'Inactive'];
const LEVELS = [1, 2, 3, null];
const MINDBODY_IDS = [null, '42', '100123', 'abc', ''];
const FIRST_LOGINS = [null, at(-30 * DAY), at(-30 * DAY - SECOND), at(-DAY), at(DAY), at(-400 * DAY)];
const OVERRIDE_ENDS = [null, NOW, at(SECOND), at(7 * DAY), at(7 * DAY + SECOND), at(-DAY), at(20 * DAY)];
const LAST_NAMES = ['Smith', 'smith', 'Jones', null, "O'Brien", 'Lee', 'Goldsmith'];
const COUNT = 240;

interface Row extends ClientFixture {
  id: number;
}

/** A client as the by-hand checks read it. */
const isNew = (row: Row) => row.first_login != null && row.first_login.getTime() >= NOW.getTime() - 30 * DAY;
const linked = (row: Row) => row.mb_client_id != null && row.mb_client_id.length > 2;
const running = (row: Row) => row.admin_updated_expiration != null && row.admin_updated_expiration.getTime() > NOW.getTime();
const status = (row: Row) => row.client_status ?? 'Pending';
const level = (row: Row) => row.vod_access_level ?? 0;
const text = (row: Row) => `${row.first_name ?? ''} ${row.last_name ?? ''} ${row.email_address ?? ''}`.toLowerCase();

/** Query, the filter it means, and the by-hand rule. */
const CASES: Array<[string, ClientFilter, (row: Row) => boolean]> = [
  ['status=Active', { status: ['Active'] }, (r) => status(r) === 'Active'],
  ['status=Pending', { status: ['Pending'] }, (r) => r.client_status == null],
  ['status=Active,Expired', { status: ['Active', 'Expired'] }, (r) => ['Active', 'Expired'].includes(status(r))],
  ['status=Inactive&status=Non-Member', { status: ['Inactive', 'Non-Member'] }, (r) => ['Inactive', 'Non-Member'].includes(status(r))],
  ['vod_access_level=0', { vod_access_level: [0] }, (r) => r.vod_access_level == null],
  ['vod_access_level=2', { vod_access_level: [2] }, (r) => level(r) === 2],
  ['vod_access_level=1,3', { vod_access_level: [1, 3] }, (r) => [1, 3].includes(level(r))],
  ['new=true', { new: true }, isNew],
  ['new=false', { new: false }, (r) => !isNew(r)],
  ['mindbody=true', { mindbody: true }, linked],
  ['mindbody=false', { mindbody: false }, (r) => !linked(r)],
  ['override_running=true', { override_running: true }, running],
  ['override_running=false', { override_running: false }, (r) => !running(r)],
  ['override_ends_within_days=7', { override_ends_within_days: 7 }, (r) => running(r) && r.admin_updated_expiration!.getTime() <= NOW.getTime() + 7 * DAY],
  [
    'status=Active&vod_access_level=3&new=false',
    { status: ['Active'], vod_access_level: [3], new: false },
    (r) => status(r) === 'Active' && level(r) === 3 && !isNew(r),
  ],
  [
    'q=smith&mindbody=true&override_running=true',
    { q: 'smith', mindbody: true, override_running: true },
    (r) => text(r).includes('smith') && linked(r) && running(r),
  ],
  [
    'q=SMITH&status=Pending,Suspended&vod_access_level=0,2&new=true&mindbody=false',
    { q: 'SMITH', status: ['Pending', 'Suspended'], vod_access_level: [0, 2], new: true, mindbody: false },
    (r) => text(r).includes('smith') && ['Pending', 'Suspended'].includes(status(r)) && [0, 2].includes(level(r)) && isNew(r) && !linked(r),
  ],
  ['override_running=false&override_ends_within_days=7', { override_running: false, override_ends_within_days: 7 }, () => false],
];

describe.each(testDatabases())('client list filters on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const rows: Row[] = [];

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });

  /** Every client of a list and query, walked page by page along the cursors. */
  async function walk(listId: number, query: string, perPage = 7) {
    const ids: number[] = [];
    let after: string | null = null;
    let total: number | undefined;
    do {
      const cursor: string = after ? `&after=${encodeURIComponent(after)}` : '';
      const response = await get(`/api/client/v1/clients/${listId}?perPage=${perPage}&${query}${cursor}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = ClientListPage.parse(response.json());
      total ??= page.total;
      ids.push(...page.clients.map((client) => client._id));
      after = page.next_cursor;
    } while (after);
    return { ids, total };
  }

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookie = await signIn(app);
    for (let i = 0; i < COUNT; i++) {
      const fixture: ClientFixture = {
        first_name: `F${i}`,
        last_name: LAST_NAMES[i % LAST_NAMES.length],
        email_address: `f${i}@studio.test`,
        client_status: STATUSES[i % STATUSES.length],
        vod_access_level: LEVELS[i % LEVELS.length],
        mb_client_id: MINDBODY_IDS[i % MINDBODY_IDS.length],
        first_login: FIRST_LOGINS[i % FIRST_LOGINS.length],
        admin_updated_expiration: OVERRIDE_ENDS[(i * 3) % OVERRIDE_ENDS.length],
      };
      rows.push({ ...fixture, id: await insertClient(database, fixture) });
    }
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it.each(CASES)('%s selects exactly the clients a by-hand check selects, on every page', async (query, filter, rule) => {
    const expected = rows.filter(rule).map((row) => row.id);
    const { ids, total } = await walk(1, query);
    expect(ids).toEqual(expected);
    expect(total).toBe(expected.length);
    // The console's rule for a server that answers whole lists says the same.
    const asClients = rows.map((row) => ({
      ...row,
      client_status: row.client_status ?? null,
      first_login: row.first_login?.toISOString() ?? null,
      admin_updated_expiration: row.admin_updated_expiration?.toISOString() ?? null,
    }));
    expect(asClients.filter((client) => matchesClientFilter(client as never, filter, NOW)).map((client) => client.id)).toEqual(expected);
  });

  it('finds clients on both sides of every filter', () => {
    for (const [query, , rule] of CASES.slice(0, 14)) {
      const matching = rows.filter(rule).length;
      expect(matching, query).toBeGreaterThan(0);
      expect(matching, query).toBeLessThan(COUNT);
    }
  });

  it.each([
    [2, 'mindbody=false', () => false],
    [3, 'status=Expired', () => false],
    [4, 'new=false', () => false],
    [3, 'vod_access_level=2', (r: Row) => status(r) === 'Active' && level(r) === 2],
    [2, 'status=Pending&override_running=true', (r: Row) => linked(r) && r.client_status == null && running(r)],
    [4, 'q=smith', (r: Row) => isNew(r) && text(r).includes('smith')],
  ])('list %s with %s adds the filter to the list rule', async (listId, query, rule) => {
    const { ids, total } = await walk(listId, query);
    expect(ids).toEqual(rows.filter(rule).map((row) => row.id));
    expect(total).toBe(ids.length);
  });

  it('keeps the sort under a filter, ties by id, in both orders', async () => {
    const expected = rows
      .filter((row) => status(row) === 'Active' || row.client_status == null)
      .sort((a, b) => {
        const [left, right] = [(a.last_name ?? '').toLowerCase(), (b.last_name ?? '').toLowerCase()];
        return left < right ? -1 : left > right ? 1 : a.id - b.id;
      })
      .map((row) => row.id);
    expect((await walk(1, 'status=Active,Pending&sort=last_name&order=ASC', 5)).ids).toEqual(expected);
    expect((await walk(1, 'status=Active,Pending&sort=last_name&order=DESC', 5)).ids).toEqual([...expected].reverse());
  });

  it('treats an empty status or level as no filter', async () => {
    const { total } = (await get('/api/client/v1/clients/1?perPage=5&status=&vod_access_level=')).json();
    expect(total).toBe(COUNT);
  });

  it.each([
    ['new=yes', /new must be true or false/],
    ['mindbody=1', /mindbody must be true or false/],
    ['override_running=TRUE', /override_running must be true or false/],
    ['vod_access_level=abc', /vod_access_level must be a whole number/],
    ['vod_access_level=-1', /vod_access_level must be a whole number/],
    ['vod_access_level=2147483648', /vod_access_level must be at most 2147483647/],
    ['override_ends_within_days=0', /override_ends_within_days must be a whole number from 1 to 28/],
    ['override_ends_within_days=29', /override_ends_within_days must be a whole number from 1 to 28/],
    ['override_ends_within_days=7.5', /override_ends_within_days must be a whole number from 1 to 28/],
    [`status=${'x'.repeat(61)}`, /status must be at most 60 characters/],
    [`status=${Array.from({ length: 21 }, (_, i) => `S${i}`).join(',')}`, /status takes at most 20 values/],
    ['status=%20%20', /status must not be empty/],
  ])('answers 400 naming the problem for %s', async (query, message) => {
    const response = await get(`/api/client/v1/clients/1?page=1&${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('reads a status with odd characters as plain text', async () => {
    const odd = await get(`/api/client/v1/clients/1?status=${encodeURIComponent("Active' OR '1'='1")}`);
    expect(odd.statusCode).toBe(200);
    expect(odd.json()).toMatchObject({ clients: [], total: 0 });
    const quoted = await get(`/api/client/v1/clients/1?status=${encodeURIComponent('"Active"')}`);
    expect(quoted.json().total).toBe(0);
  });
});
