import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';

const MINUTE = 60_000;

/** An export of more than 1,000 clients needs a recent re-authentication; a smaller one, or a list page, does not. */
describe.each(testDatabases())('the client export and re-authentication on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(new Date('2026-11-29T10:00:00Z'));

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    await database.query(
      `INSERT INTO clients (first_name, email_address, client_status)
       SELECT 'many' || g, 'many' || g || '@export.test', CASE WHEN g <= 1000 THEN 'Few' ELSE 'Many' END FROM generate_series(1, 1001) AS g`,
    );
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const list = (cookie: string, query: string) => app.inject({ method: 'GET', url: `/api/client/v1/clients/1?${query}`, headers: { cookie } });

  it('asks for a check before exporting 1,001 clients, not 1,000, nor for a list page; goes on once re-authenticated', async () => {
    const cookie = await signIn(app, STAFF);
    clock.advance(16 * MINUTE);
    const all = 'page=1&perPage=500&sort=_id&order=ASC&q=export.test';
    const exact = (await list(cookie, all)).json() as { total: number };
    expect(exact.total).toBe(1001);

    const refused = await list(cookie, `${all}&export=true`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: expect.stringContaining('Confirm it is you'), reauth_required: true });
    // 1,000 clients (a filter) export without asking.
    const few = await list(cookie, 'page=1&perPage=500&status=Few&export=true');
    expect(few.statusCode, few.body).toBe(200);
    expect((few.json() as { total: number }).total).toBe(1000);
    expect((await list(cookie, 'page=1&perPage=500&export=maybe')).statusCode).toBe(400);

    const reauth = await app.inject({ method: 'POST', url: '/api/auth/reauth', headers: { cookie }, payload: { password: STAFF.password } });
    expect(reauth.statusCode).toBe(200);
    const page = await list(cookie, `${all}&export=true`);
    expect(page.statusCode).toBe(200);
    expect((page.json() as { clients: unknown[] }).clients).toHaveLength(500);
  });
});
