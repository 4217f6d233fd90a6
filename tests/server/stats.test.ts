import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { grantOverride } from '../../server/src/clients/accessOverride';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

const NOW = new Date('2026-11-22T12:00:00Z');

/**
 * A hand-made data set with known answers at NOW. The 30 full days are 2026-10-23 .. 2026-11-21 (UTC);
 * HIIT leads if either boundary leaks (200 plays just outside), Yoga leads inside (45 of 90 plays).
 */
const FIXTURE = `
INSERT INTO video_categories (id, name, sort_order) VALUES (1, 'Warm-up', 1), (2, 'HIIT', 2), (3, 'Yoga', 3);
INSERT INTO videos (id, title, category_id) VALUES (1, 'Warm-up one', 1), (2, 'HIIT one', 2), (3, 'Yoga one', 3), (4, 'Yoga two', 3);
INSERT INTO clients (id, first_name, vod_access_level, admin_updated_expiration) VALUES
  (1, 'active basic purchase', 2, NULL),
  (2, 'expired premium purchase', 1, NULL),
  (3, 'active free-level purchase', 1, NULL),
  (4, 'refunded purchase', 1, NULL),
  (5, 'active premium override', 3, '2026-11-29T00:00:00Z'),
  (6, 'expired premium override', 3, '2026-11-21T00:00:00Z'),
  (7, 'two overlapping purchases', 3, NULL),
  (8, 'cancelled, paid until expiry', 2, NULL),
  (9, 'active purchase, active free override', 1, '2026-11-30T00:00:00Z'),
  (10, 'purchase expiring exactly now', 2, NULL),
  (11, 'purchase starting after now', 1, NULL),
  (12, 'active purchase, expired free override', 2, '2026-11-20T00:00:00Z'),
  (13, 'no purchase at all', 1, NULL);
-- The overrides above as granted: 28 days each.
INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at) VALUES
  (5, 3, 1, '2026-11-01T00:00:00Z', '2026-11-29T00:00:00Z'),
  (6, 3, 1, '2026-10-24T00:00:00Z', '2026-11-21T00:00:00Z'),
  (9, 1, 3, '2026-11-02T00:00:00Z', '2026-11-30T00:00:00Z'),
  (12, 2, 1, '2026-10-23T00:00:00Z', '2026-11-20T00:00:00Z');
INSERT INTO purchases (client_id, access_level_id, purchased_at, expires_at, subscription_status) VALUES
  (1, 2, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', 'active'),
  (2, 3, '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z', 'expired'),
  (3, 1, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', 'active'),
  (4, 3, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', 'refunded'),
  (7, 3, '2026-11-10T00:00:00Z', '2026-12-10T00:00:00Z', 'active'),
  (7, 3, '2026-11-20T00:00:00Z', '2026-12-20T00:00:00Z', 'active'),
  (8, 2, '2026-11-05T00:00:00Z', '2026-12-05T00:00:00Z', 'cancelled'),
  (9, 3, '2026-11-01T00:00:00Z', '2026-12-31T00:00:00Z', 'active'),
  (10, 2, '2026-10-22T12:00:00Z', '2026-11-22T12:00:00Z', 'active'),
  (11, 2, '2026-11-22T13:00:00Z', '2026-12-22T13:00:00Z', 'active'),
  (12, 2, '2026-11-01T00:00:00Z', '2026-12-30T00:00:00Z', 'active');
-- Inside the window: 15 Warm-up, 30 HIIT, 45 Yoga (over two videos) = 90 plays, 3 a day; both edge instants included.
INSERT INTO video_views (client_id, video_id, viewed_at) VALUES
  (1, 1, '2026-10-23T00:00:00Z'), (1, 3, '2026-11-21T23:59:59.999Z');
INSERT INTO video_views (client_id, video_id, viewed_at)
SELECT 1 + n % 13, 1, '2026-10-24T08:00:00Z'::timestamptz + make_interval(days => n % 28) FROM generate_series(1, 14) n;
INSERT INTO video_views (client_id, video_id, viewed_at)
SELECT 1 + n % 13, 2, '2026-10-24T08:00:00Z'::timestamptz + make_interval(days => n % 28) FROM generate_series(1, 30) n;
INSERT INTO video_views (client_id, video_id, viewed_at)
SELECT 1 + n % 13, 3 + n % 2, '2026-10-24T08:00:00Z'::timestamptz + make_interval(days => n % 28) FROM generate_series(1, 44) n;
-- Just outside: the last second before the window and today so far.
INSERT INTO video_views (client_id, video_id, viewed_at)
SELECT 2, 2, '2026-10-22T23:59:59Z'::timestamptz - make_interval(secs => n - 1) FROM generate_series(1, 100) n;
INSERT INTO video_views (client_id, video_id, viewed_at)
SELECT 2, 2, '2026-11-22T00:00:00Z'::timestamptz + make_interval(mins => n) FROM generate_series(1, 100) n;
`;

describe.each(testDatabases())('dashboard stats on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);

  const stats = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    database = await open();
    await database.execScript(FIXTURE);
    app = await createTestApp(database, { clock });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  /** The aggregates hold exactly what a direct count of video_views gives, per day, video and category. */
  const expectAggregatesMatchViews = async () => {
    const direct = await database.query(
      `SELECT (viewed_at AT TIME ZONE 'UTC')::date::text AS day, coalesce(v.category_id, 0) AS category_id, count(*)::int AS plays
       FROM video_views w LEFT JOIN videos v ON v.id = w.video_id GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const perCategory = await database.query(`SELECT day::text AS day, category_id, plays FROM category_plays_daily ORDER BY 1, 2`);
    expect(perCategory).toEqual(direct);
    const [perVideo] = await database.query<{ mismatches: number }>(
      `SELECT count(*)::int AS mismatches FROM (
         SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS plays FROM video_views GROUP BY 1, 2
       ) d FULL JOIN video_plays_daily a USING (video_id, day) WHERE a.plays IS DISTINCT FROM d.plays`,
    );
    expect(perVideo!.mismatches).toBe(0);
  };

  /** Moves the clock and signs in again (a session does not outlive a jump of weeks). */
  const at = async (moment: Date) => {
    clock.set(moment);
    cookie = await signIn(app);
  };
  beforeEach(() => at(NOW));

  it('answers the three figures with no errors', async () => {
    expect(await stats()).toEqual({ errors: [], result: { subscribers: 5, daily_plays: 3, most_popular: 'Yoga' } });
  });

  it('needs a staff session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/stats/v1' });
    expect(response.statusCode).toBe(401);
  });

  it('takes "now" from the app clock: purchases and overrides expire, the window moves', async () => {
    await at(new Date('2026-12-15T12:00:00Z'));
    // Still paid: clients 7 (the later purchase), 9 (its free override ended), 11 (its purchase began) and 12.
    // The window is now 2026-11-15 .. 2026-12-14: 13 of the fixture's plays there plus the 100 HIIT plays of 2026-11-22.
    expect(await stats()).toEqual({ errors: [], result: { subscribers: 4, daily_plays: 4, most_popular: 'HIIT' } });
  });

  it('reports a figure it cannot compute in errors, still with 200, and nulls only that figure', async () => {
    await at(new Date('2027-03-01T00:00:00Z'));
    const body = await stats();
    expect(body.errors).toEqual([{ figure: 'most_popular', message: expect.stringMatching(/no video was played/i) }]);
    expect(body.result).toEqual({ subscribers: 0, daily_plays: 0, most_popular: null });
  });

  it('reports a failing figure as an error without leaking internals', async () => {
    await database.execScript('ALTER TABLE category_plays_daily RENAME TO category_plays_daily_gone');
    try {
      const body = await stats();
      expect(body.result).toEqual({ subscribers: 5, daily_plays: null, most_popular: null });
      expect(body.errors.map((e: { figure: string }) => e.figure)).toEqual(['daily_plays', 'most_popular']);
      expect(JSON.stringify(body.errors)).not.toMatch(/plays_daily|relation|does not exist/);
    } finally {
      await database.execScript('ALTER TABLE category_plays_daily_gone RENAME TO category_plays_daily');
    }
  });

  it('serves the trend behind the figures: 30 days of plays and 13 weekly subscriber counts', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/stats/trends', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const { daily_plays, paid_subscribers } = response.json();
    expect(daily_plays).toHaveLength(30);
    expect(daily_plays[0]).toEqual({ day: '2026-10-23', plays: 1 });
    expect(daily_plays[29]).toEqual({ day: '2026-11-21', plays: 1 });
    expect(daily_plays.reduce((sum: number, point: { plays: number }) => sum + point.plays, 0)).toBe(90);
    expect(paid_subscribers).toHaveLength(13);
    expect(paid_subscribers[0].at).toBe('2026-08-30T12:00:00.000Z');
    // A week ago: clients 1, 7, 8, 10 by purchase; 5, 6 and 12 by a paid override; 9 was on its free override.
    expect(paid_subscribers[11]).toEqual({ at: '2026-11-15T12:00:00.000Z', subscribers: 7 });
    expect(paid_subscribers[12]).toEqual({ at: NOW.toISOString(), subscribers: 5 });
  });

  it('keeps the plays figures current as views are added one by one, moved and deleted', async () => {
    // The app reports single views: 30 more Warm-up plays inside the window make it the leader.
    const added: number[] = [];
    for (let i = 0; i < 31; i++) {
      const [row] = await database.query<{ id: number }>('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES (13, 1, $1) RETURNING id', [
        `2026-11-0${1 + (i % 9)}T10:${String(i).padStart(2, '0')}:00Z`,
      ]);
      added.push(Number(row!.id));
    }
    expect((await stats()).result).toMatchObject({ daily_plays: 4, most_popular: 'Warm-up' });
    // Moving them to today takes them out of the window again.
    await database.query(
      `UPDATE video_views SET viewed_at = '2026-11-22T09:00:00Z'::timestamptz + make_interval(secs => extract(minute FROM viewed_at)::int) WHERE id = ANY($1::bigint[])`,
      [added],
    );
    expect((await stats()).result).toMatchObject({ daily_plays: 3, most_popular: 'Yoga' });
    // Deleting Yoga's plays (a video removed with its views) hands the lead to HIIT.
    await database.query('DELETE FROM videos WHERE id IN (3, 4)');
    expect((await stats()).result).toMatchObject({ daily_plays: 2, most_popular: 'HIIT' });
    await database.query('DELETE FROM video_views WHERE id = ANY($1::bigint[])', [added]);
    await expectAggregatesMatchViews();
  });

  it("moves a video's plays along when it changes category", async () => {
    // HIIT (30 plays) leads Warm-up (15) now; moving the HIIT video to Warm-up gives Warm-up all 45.
    await database.query('UPDATE videos SET category_id = 1 WHERE id = 2');
    expect((await stats()).result).toMatchObject({ daily_plays: 2, most_popular: 'Warm-up' });
    await database.query('UPDATE videos SET category_id = NULL WHERE id = 2');
    expect((await stats()).result).toMatchObject({ daily_plays: 2, most_popular: 'Warm-up' });
    await database.query('UPDATE videos SET category_id = 2 WHERE id = 2');
    expect((await stats()).result).toMatchObject({ daily_plays: 2, most_popular: 'HIIT' });
    await expectAggregatesMatchViews();
  });

  it('keeps the subscribers figure current as purchases change and clients go', async () => {
    await database.query(`UPDATE purchases SET subscription_status = 'refunded' WHERE client_id = 8`);
    expect((await stats()).result.subscribers).toBe(4);
    await database.query(`INSERT INTO purchases (client_id, access_level_id, purchased_at, expires_at, subscription_status)
                          VALUES (13, 3, '2026-11-22T11:00:00Z', NULL, 'active')`);
    expect((await stats()).result.subscribers).toBe(5);
    await database.query('DELETE FROM clients WHERE id = 13');
    expect((await stats()).result.subscribers).toBe(4);
    await database.query(`UPDATE purchases SET subscription_status = 'active' WHERE client_id = 8`);
    expect((await stats()).result.subscribers).toBe(5);
  });

  it('counts admin overrides as they are set, changed and run out, however far they reach', async () => {
    const trendNow = async () =>
      (await app.inject({ method: 'GET', url: '/api/admin/v1/stats/trends', headers: { cookie } })).json().paid_subscribers.at(-1).subscribers;
    const override = (id: number, level: number, until: string) =>
      grantOverride(database, { clientId: id, level, until: new Date(until), now: clock.now(), grantedBy: 'manager@studio.test' });
    expect((await stats()).result.subscribers).toBe(5);
    await override(2, 3, '2026-11-25T00:00:00Z'); // paid override, no purchase
    expect((await stats()).result.subscribers).toBe(6);
    await override(3, 2, '2027-02-01T00:00:00Z'); // paid, running longer than the console offers
    expect((await stats()).result.subscribers).toBe(7);
    await override(1, 1, '2027-01-10T00:00:00Z'); // free, over an active purchase, also long
    expect((await stats()).result.subscribers).toBe(6);
    expect(await trendNow()).toBe(6);
    await override(2, 3, '2026-11-20T00:00:00Z'); // moved into the past: run out
    expect((await stats()).result.subscribers).toBe(5);
    expect(await trendNow()).toBe(5);
  });
});
