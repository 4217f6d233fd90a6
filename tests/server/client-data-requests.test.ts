import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { clientInEverySection, resetClientData } from '../support/clientDataFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');

/** Who looked, the data requests and retention (export and erasure: client-data.test.ts). */
describe.each(testDatabases())('data requests, who looked and retention on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(NOW);
    await resetClientData(database);
    cookie = await signIn(app);
  });

  it('records who looked once per staff member, client and hour, and shows it to owners only', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    await database.query('DELETE FROM client_looks WHERE client_id = $1', [clientId]);
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: `/api/client/v1/client-details/${clientId}`, headers: { cookie } });
    clock.advance(60 * 60_000);
    cookie = await signIn(app); // past the session's idle limit
    await app.inject({ method: 'GET', url: `/api/client/v1/client-details/${clientId}`, headers: { cookie } });
    const looks = await app.inject({ method: 'GET', url: `/api/admin/v1/clients/${clientId}/looks`, headers: { cookie } });
    expect(looks.statusCode, looks.body).toBe(200);
    expect(looks.json().looks).toHaveLength(2);
    expect(looks.json().looks[0]).toMatchObject({ staff_email: 'coach@studio.test', kind: 'page', hour: '2026-11-22T13:00:00.000Z' });
    const listed = await app.inject({ method: 'POST', url: '/api/admin/v1/client-looks', headers: { cookie }, payload: { client_ids: [clientId, clientId] } });
    expect(listed.statusCode).toBe(200);
    const manager = await signIn(app, { email: 'manager@studio.test', password: 'correct horse battery', role: 'manager' });
    expect((await app.inject({ method: 'GET', url: `/api/admin/v1/clients/${clientId}/looks`, headers: { cookie: manager } })).statusCode).toBe(403);
  });

  it('lists requests with their one-month due date, warns before it passes and marks them handled', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    const logged = await app.inject({
      method: 'POST',
      url: '/api/admin/v1/data-requests',
      headers: { cookie },
      payload: { kind: 'erasure', client_id: clientId, received_at: '2026-10-25T09:00:00Z', note: 'letter' },
    });
    expect(logged.statusCode, logged.body).toBe(200);
    expect(logged.json()).toMatchObject({ due_at: '2026-11-25T09:00:00.000Z', standing: 'due_soon', logged_by: 'coach@studio.test' });
    clock.set(new Date('2026-12-01T00:00:00Z'));
    cookie = await signIn(app);
    const list = await app.inject({ method: 'GET', url: '/api/admin/v1/data-requests?open=true', headers: { cookie } });
    expect(list.json().find((request: { id: number }) => request.id === logged.json().id)).toMatchObject({ standing: 'overdue' });
    const handled = await app.inject({ method: 'POST', url: `/api/admin/v1/data-requests/${logged.json().id}/handled`, headers: { cookie } });
    expect(handled.json()).toMatchObject({ standing: 'handled', handled_by: 'coach@studio.test', handled_at: '2026-12-01T00:00:00.000Z' });
    expect(
      (await app.inject({ method: 'POST', url: '/api/admin/v1/data-requests', headers: { cookie }, payload: { kind: 'access', client_id: 999_999_999 } }))
        .statusCode,
    ).toBe(404);
  });

  it('retention deletes what is older in batches and keeps the dashboard plays', async () => {
    await database.execScript('DELETE FROM video_views; DELETE FROM debug_records;');
    const { clientId, videoId } = await clientInEverySection(database, NOW);
    await database.query(
      `INSERT INTO video_views (client_id, video_id, viewed_at) SELECT $1, $2, $3::timestamptz - interval '800 days' - n * interval '1 minute' FROM generate_series(1, 1200) AS n`,
      [clientId, videoId, NOW.toISOString()],
    );
    await database.query(`INSERT INTO debug_records (client_id, platform, created_at, used_for_push) VALUES ($1, 'ios', $2, false)`, [
      clientId,
      new Date(NOW.getTime() - 100 * 86_400_000).toISOString(),
    ]);
    const [playsBefore] = await database.query<{ n: number }>('SELECT coalesce(sum(plays), 0)::int AS n FROM category_plays_daily');
    const settings = await app.inject({ method: 'GET', url: '/api/admin/v1/retention', headers: { cookie } });
    expect(settings.json()).toEqual({ debug_reports: 90, device_reports: 400, view_detail: 730, finished_jobs: 14, audit_entries: 2190 });
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/admin/v1/retention',
      headers: { cookie },
      payload: { ...(settings.json() as Record<string, number>), view_detail: 0 },
    });
    expect(bad.statusCode).toBe(400);
    const { applyRetention } = await import('../../server/src/clientData/retention');
    const removed = await applyRetention(app, async () => undefined);
    expect(removed.view_detail).toBe(1200);
    expect(removed.debug_reports).toBe(1);
    const [views] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM video_views WHERE client_id = $1', [clientId]);
    expect(views!.n).toBe(2);
    const [playsAfter] = await database.query<{ n: number }>('SELECT coalesce(sum(plays), 0)::int AS n FROM category_plays_daily');
    expect(playsAfter!.n).toBe(playsBefore!.n);
  });
});
