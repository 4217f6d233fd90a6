import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { overrideEnd } from '@contract/clientRules';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';
import { directStats } from '../support/statsDirect';

const HOUR = 60 * 60 * 1000;
const WEEK = 7 * DAY;
const GRANTED = new Date('2026-11-01T10:00:00Z');
const FINALLY = new Date('2026-11-22T12:00:00Z');
const at = (iso: string) => new Date(iso);

/**
 * Overrides granted through the console and ended by the expiry job (or by a newer grant), then the paid
 * subscriber trend read weeks later: each override counts from its grant to its real end, not from a
 * guessed start, and not at all after the job has cleared it from the client row.
 *
 *   Ada  FREE      PREMIUM for 1 day from 11-01 10:00
 *   Bea  FREE      BASIC for 7 days from 11-01 10:00
 *   Cal  BASIC purchase (10-01 .. 12-31); PREMIUM for 7 days from 11-01 10:00, replaced on 11-03 10:00
 *                  by FREE for 7 days (until 11-10 10:00): not paid meanwhile, whatever the purchase
 *   Dan  FREE      PREMIUM for 7 days from 11-01 10:00, replaced on 11-02 12:00 by PREMIUM for 3 days
 */
describe.each(testDatabases())('subscriber trend from the override history on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(GRANTED);
  const ids: Record<'ada' | 'bea' | 'cal' | 'dan', number> = { ada: 0, bea: 0, cal: 0, dan: 0 };

  const moveTo = async (moment: Date) => {
    clock.set(moment);
    cookie = await signIn(app);
  };
  const grant = async (clientId: number, level: number, days: number) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/client/v1/client-details/update-access-level',
      headers: { cookie },
      payload: { client_id: clientId, new_vod_access_level: level, adminOverrideDate: overrideEnd(days, clock.now()).toISOString() },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const subscribersNow = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return response.json().result.subscribers as number;
  };
  const trend = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/stats/trends', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return response.json().paid_subscribers as { at: string; subscribers: number }[];
  };
  /** Today's figure as the card shows it, checked against its definition over the raw client and purchase rows. */
  const expectSubscribersNow = async (expected: number) => {
    expect(await subscribersNow()).toBe(expected);
    expect((await directStats(database, clock.now())).subscribers).toBe(expected);
    expect((await trend()).at(-1)).toEqual({ at: clock.now().toISOString(), subscribers: expected });
  };
  /** Sweeps as the scheduled job does once its minute comes. */
  const sweepAt = async (moment: Date) => {
    await moveTo(moment);
    await app.jobs.runDue();
  };

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    ids.ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@studio.test', vod_access_level: 1 });
    ids.bea = await insertClient(database, { first_name: 'Bea', email_address: 'bea@studio.test', vod_access_level: 1 });
    ids.cal = await insertClient(database, { first_name: 'Cal', email_address: 'cal@studio.test', vod_access_level: 2 });
    ids.dan = await insertClient(database, { first_name: 'Dan', email_address: 'dan@studio.test', vod_access_level: 1 });
    await database.query(
      `INSERT INTO purchases (client_id, access_level_id, purchased_at, expires_at, subscription_status)
       VALUES ($1, 2, '2026-10-01T00:00:00Z', '2026-12-31T00:00:00Z', 'active')`,
      [ids.cal],
    );

    await moveTo(GRANTED);
    await expectSubscribersNow(1);
    await grant(ids.ada, 3, 1);
    await grant(ids.bea, 2, 7);
    await grant(ids.cal, 3, 7);
    await grant(ids.dan, 3, 7);
    await expectSubscribersNow(4);

    await sweepAt(at('2026-11-02T10:00:30Z')); // Ada's day is over
    await expectSubscribersNow(3);
    await moveTo(at('2026-11-02T12:00:00Z'));
    await grant(ids.dan, 3, 3); // until 11-05 12:00
    await moveTo(at('2026-11-03T10:00:00Z'));
    await grant(ids.cal, 1, 7); // FREE until 11-10 10:00
    await expectSubscribersNow(2);
    await sweepAt(at('2026-11-05T12:00:40Z'));
    await expectSubscribersNow(1);
    await sweepAt(at('2026-11-08T10:00:20Z'));
    await expectSubscribersNow(0);
    await sweepAt(at('2026-11-10T10:00:50Z'));
    await expectSubscribersNow(1);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('has ended every override on the client rows, so only the history remembers them', async () => {
    const rows = await database.query<{ id: number; vod_access_level: number; admin_updated_expiration: Date | null }>(
      'SELECT id, vod_access_level, admin_updated_expiration FROM clients ORDER BY id',
    );
    expect(rows.map((row) => [row.vod_access_level, row.admin_updated_expiration])).toEqual([
      [1, null],
      [1, null],
      [2, null],
      [1, null],
    ]);
  });

  it('records each grant with its staff member, the level it replaced and when it really ended', async () => {
    const history = await database.query<Record<string, unknown>>(
      `SELECT client_id, level, replaced_level, starts_at, ends_at, ended_at, granted_by FROM access_override_history ORDER BY client_id, starts_at`,
    );
    const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());
    expect(
      history.map((row) => ({
        ...row,
        client_id: Number(row.client_id),
        starts_at: iso(row.starts_at),
        ends_at: iso(row.ends_at),
        ended_at: iso(row.ended_at),
      })),
    ).toEqual([
      // ended by the job, a little after its planned end
      {
        client_id: ids.ada,
        level: 3,
        replaced_level: 1,
        starts_at: '2026-11-01T10:00:00.000Z',
        ends_at: '2026-11-02T10:00:00.000Z',
        ended_at: '2026-11-02T10:00:30.000Z',
        granted_by: STAFF.email,
      },
      {
        client_id: ids.bea,
        level: 2,
        replaced_level: 1,
        starts_at: '2026-11-01T10:00:00.000Z',
        ends_at: '2026-11-08T10:00:00.000Z',
        ended_at: '2026-11-08T10:00:20.000Z',
        granted_by: STAFF.email,
      },
      // replaced by a newer grant before its planned end
      {
        client_id: ids.cal,
        level: 3,
        replaced_level: 2,
        starts_at: '2026-11-01T10:00:00.000Z',
        ends_at: '2026-11-08T10:00:00.000Z',
        ended_at: '2026-11-03T10:00:00.000Z',
        granted_by: STAFF.email,
      },
      {
        client_id: ids.cal,
        level: 1,
        replaced_level: 3,
        starts_at: '2026-11-03T10:00:00.000Z',
        ends_at: '2026-11-10T10:00:00.000Z',
        ended_at: '2026-11-10T10:00:50.000Z',
        granted_by: STAFF.email,
      },
      {
        client_id: ids.dan,
        level: 3,
        replaced_level: 1,
        starts_at: '2026-11-01T10:00:00.000Z',
        ends_at: '2026-11-08T10:00:00.000Z',
        ended_at: '2026-11-02T12:00:00.000Z',
        granted_by: STAFF.email,
      },
      {
        client_id: ids.dan,
        level: 3,
        replaced_level: 3,
        starts_at: '2026-11-02T12:00:00.000Z',
        ends_at: '2026-11-05T12:00:00.000Z',
        ended_at: '2026-11-05T12:00:40.000Z',
        granted_by: STAFF.email,
      },
    ]);
  });

  // Read three weeks later, when every override has long been swept: the trend's point three weeks back is `moment`.
  it.each([
    ['2026-11-01T09:59:59Z', 1, 'before the grants: Cal by purchase'],
    ['2026-11-01T10:00:00Z', 4, 'from the grants on: all four'],
    ['2026-11-02T09:59:59Z', 4, "the last second of Ada's one day"],
    ['2026-11-02T10:00:00Z', 3, "Ada's day is over (the job cleared it only 30 s later)"],
    ['2026-11-02T13:00:00Z', 3, "Dan's replacement keeps him paid"],
    ['2026-11-03T11:00:00Z', 2, 'Cal on a FREE override over his purchase'],
    ['2026-11-05T11:59:59Z', 2, "the end of Dan's 3 days"],
    ['2026-11-05T12:00:00Z', 1, 'Dan done, though his first grant ran until 11-08'],
    ['2026-11-08T09:59:59Z', 1, "the last second of Bea's 7 days"],
    ['2026-11-08T10:00:00Z', 0, 'Bea done; Cal still on FREE'],
    ['2026-11-10T10:00:00Z', 1, 'Cal back on his purchase'],
  ])('counts %s as %i paid (%s)', async (moment, expected) => {
    await moveTo(new Date(new Date(moment).getTime() + 3 * WEEK));
    const points = await trend();
    expect(points.at(-4)).toEqual({ at: new Date(moment).toISOString(), subscribers: expected });
  });

  it('keeps the figure today as defined: the override in force on the client row, else a purchase', async () => {
    await moveTo(FINALLY);
    await expectSubscribersNow(1);
    await grant(ids.ada, 3, 28);
    await grant(ids.cal, 1, 2);
    await expectSubscribersNow(1);
    await moveTo(new Date(FINALLY.getTime() + HOUR));
    await expectSubscribersNow(1);
    await grant(ids.ada, 1, 1); // a FREE grant replaces Ada's PREMIUM
    await expectSubscribersNow(0);
    // The week before still shows Cal by purchase, and Ada's PREMIUM hour is not a weekly point.
    expect((await trend()).at(-2)).toEqual({ at: new Date(FINALLY.getTime() + HOUR - WEEK).toISOString(), subscribers: 1 });
  });
});
