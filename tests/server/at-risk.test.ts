import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { AtRiskPage } from '@contract/segments';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { addView, addVisit, resetReachFixtures } from '../support/reachFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/** Issue 23 point 2: the at-risk list, its window from the settings, its order and 'last contacted'. */
describe.each(testDatabases())('the at-risk list on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const ids: Record<string, number> = {};
  const get = (query = '', who = cookie) => app.inject({ method: 'GET', url: `/api/admin/v1/at-risk${query}`, headers: { cookie: who } });

  beforeAll(async () => {
    resetReachFixtures();
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
