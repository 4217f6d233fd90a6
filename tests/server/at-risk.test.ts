import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { AtRiskPage } from '@contract/segments';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { addView, addVisit, resetActivityFixtures } from '../support/activityFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/** The at-risk list, its window from the settings, its order and 'last contacted'. */
describe.each(testDatabases())('the at-risk list on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const ids: Record<string, number> = {};
  const get = (query = '', who = cookie) => app.inject({ method: 'GET', url: `/api/admin/v1/at-risk${query}`, headers: { cookie: who } });

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW), env: { AT_RISK_ACTIVE_DAYS: '30', AT_RISK_QUIET_DAYS: '10' } });
    cookie = await signIn(app);
    const client = async (name: string, level: number | null) =>
      (ids[name] = await insertClient(database, { first_name: name, email_address: `${name}@studio.test`, vod_access_level: level }));
    await client('free20', 1);
    await client('premium20', 3);
    await client('basicContract', 2);
    await client('basicStream', 2);
    await client('cameYesterday', 3);
    await client('tooLongAgo', 3);
    await client('never', 3);
    await addVisit(database, ids.free20!, ago(20));
    await addVisit(database, ids.premium20!, ago(20));
    await addVisit(database, ids.basicContract!, ago(12));
    await addView(database, ids.basicStream!, ago(25));
    await addVisit(database, ids.cameYesterday!, ago(20));
    await addVisit(database, ids.cameYesterday!, ago(1));
    await addVisit(database, ids.tooLongAgo!, ago(45));
    await database.query(`INSERT INTO contracts (client_id, id, contract_name, start_date, end_date) VALUES ($1, 1, 'Unlimited', $2, $3)`, [
      ids.basicContract,
      ago(100).toISOString(),
      ago(-100).toISOString(),
    ]);
    await database.query(
      `INSERT INTO pushes (client_id, sent_by, source, title, body, status, created_at) VALUES ($1, 'automated', 'missed-class', 't', 'b', 'sent', $2)`,
      [ids.premium20, ago(3).toISOString()],
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('holds the clients active in the window and not since, most valuable first, with last activity and last contact', async () => {
    const response = await get();
    expect(response.statusCode, response.body).toBe(200);
    const page = AtRiskPage.parse(response.json());
    expect(page.clients.map((row) => row.first_name)).toEqual(['premium20', 'basicContract', 'basicStream', 'free20']);
    expect(page).toMatchObject({ total: 4, active_days: 30, quiet_days: 10, filter: { last_activity_days: 40, no_class_days: 10, no_stream_days: 10 } });
    expect(page.clients[0]).toMatchObject({
      paid: true,
      active_contract: false,
      last_active_at: ago(20).toISOString(),
      last_contacted_at: ago(3).toISOString(),
    });
    expect(page.clients[1]).toMatchObject({ active_contract: true, last_contacted_at: null });
    expect(page.clients[2]!.last_active_at).toBe(ago(25).toISOString());
  });

  it('pages, and its filter selects the same clients on the client list', async () => {
    const second = AtRiskPage.parse((await get('?page=2&perPage=3')).json());
    expect(second.clients.map((row) => row.first_name)).toEqual(['free20']);
    expect(second.total).toBe(4);
    const past = AtRiskPage.parse((await get('?page=3&perPage=3')).json());
    expect(past).toMatchObject({ clients: [], total: 4 });
    const list = await app.inject({
      method: 'GET',
      url: '/api/client/v1/clients/1?last_activity_days=40&no_class_days=10&no_stream_days=10',
      headers: { cookie },
    });
    expect(list.json().total).toBe(4);
  });

  it('refuses bad paging, and roles without clients.read', async () => {
    for (const query of ['?page=0', '?perPage=101', '?page=abc', '?perPage=1.5']) expect((await get(query)).statusCode, query).toBe(400);
    const content = await signIn(app, { email: 'content@studio.test', password: 'content-password', role: 'content' });
    expect((await get('', content)).statusCode).toBe(403);
  });
});

/**
 * The at-risk order is kept beside each client's activity (migration 0059) and brought up to date on
 * read: a level changed, a contract written, a contract that ended as the clock moved, a new client.
 */
describe.each(testDatabases())('the at-risk order as clients, contracts and the clock change, on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);
  const ids: Record<string, number> = {};
  const page = async (query = '') => {
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/at-risk${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return AtRiskPage.parse(response.json());
  };
  const names = async () => (await page()).clients.map((row) => `${row.first_name}${row.active_contract ? '+contract' : ''}`);

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock, env: { AT_RISK_ACTIVE_DAYS: '30', AT_RISK_QUIET_DAYS: '10' } });
    cookie = await signIn(app);
    for (const [name, level, daysAgo] of [
      ['endingContract', 2, 20],
      ['recent', 2, 16],
      ['older', 2, 25],
      ['free', 1, 20],
    ] as const) {
      ids[name] = await insertClient(database, { first_name: name, email_address: `${name}@studio.test`, vod_access_level: level });
      await addVisit(database, ids[name]!, ago(daysAgo));
    }
    await database.query(`INSERT INTO contracts (client_id, id, contract_name, start_date, end_date) VALUES ($1, 1, 'Monthly', $2, $3)`, [
      ids.endingContract,
      ago(30).toISOString(),
      ago(-2).toISOString(),
    ]);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('puts a running contract first within a level, then the most recently active', async () => {
    expect(await names()).toEqual(['endingContract+contract', 'recent', 'older', 'free']);
  });

  it('drops a contract that ended as the clock moved on, and takes it back when the clock goes back', async () => {
    // A session does not outlive three days of idleness: staff sign in again at each moment.
    clock.set(new Date(NOW.getTime() + 3 * DAY));
    cookie = await signIn(app);
    expect(await names()).toEqual(['recent', 'endingContract', 'older', 'free']);
    clock.set(NOW);
    cookie = await signIn(app);
    expect(await names()).toEqual(['endingContract+contract', 'recent', 'older', 'free']);
  });

  it('follows a changed level, a new contract and a client who just became at risk', async () => {
    await database.query('UPDATE clients SET vod_access_level = 3 WHERE id = $1', [ids.free]);
    await database.query(`INSERT INTO contracts (client_id, id, contract_name, start_date) VALUES ($1, 2, 'Open-ended', $2)`, [
      ids.older,
      ago(5).toISOString(),
    ]);
    ids.newcomer = await insertClient(database, { first_name: 'newcomer', email_address: 'newcomer@studio.test', vod_access_level: 3 });
    await addView(database, ids.newcomer, ago(12));
    expect(await names()).toEqual(['newcomer', 'free', 'endingContract+contract', 'older+contract', 'recent']);
    const first = await page();
    expect(first).toMatchObject({ total: 5, total_is_estimate: false });
    expect(first.clients[1]).toMatchObject({ paid: true, vod_access_level: 3 });
  });

  it('is paged through its first 10,000 clients and says so beyond', async () => {
    expect(await page('?page=400&perPage=25')).toMatchObject({ clients: [], total: 5, total_is_estimate: false });
    const beyond = await app.inject({ method: 'GET', url: '/api/admin/v1/at-risk?page=101&perPage=100', headers: { cookie } });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toContain('at most 10,000');
  });

  it('counts up to 10,000 and estimates above, on a page that is full', async () => {
    await database.query(
      `WITH added AS (
         INSERT INTO clients (vod_access_level) SELECT 1 FROM generate_series(1, 10001) RETURNING id)
       INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, end_at, attendance, signed_in, missed, imported_at)
       SELECT id, -99, 500000 + id, 'Flow', $1::timestamptz, $1::timestamptz + interval '1 hour', 'signed_in', true, false, $1::timestamptz FROM added`,
      [ago(22).toISOString()],
    );
    const first = await page('?perPage=100');
    expect(first.total_is_estimate).toBe(true);
    expect(first.total).toBeGreaterThan(10_000);
    expect(first.clients.slice(0, 3).map((row) => row.first_name)).toEqual(['newcomer', 'free', 'endingContract']);
    const deepest = await page('?page=100&perPage=100');
    expect(deepest.clients).toHaveLength(100);
    expect(deepest.clients.every((row) => row.vod_access_level === 1)).toBe(true);
  });
});
