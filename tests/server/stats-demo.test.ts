import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { seedDemoData } from '../../server/seed/demo';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { directStats } from '../support/statsDirect';

const SEEDED_AT = new Date('2026-11-22T12:00:00Z');

describe.each(testDatabases())('dashboard figures on the demo data on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock(SEEDED_AT);

  beforeAll(async () => {
    database = await open();
    await seedDemoData(database, { clients: 2000, now: SEEDED_AT });
    app = await createTestApp(database, { clock });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  // Seeding day, the next minute, later the same day, purchases and overrides running out, plays thinning out.
  it.each(['2026-11-22T12:00:00Z', '2026-11-22T12:01:00Z', '2026-11-22T23:59:59Z', '2026-12-01T08:00:00Z', '2026-12-20T00:00:00Z', '2027-01-15T00:00:00Z'])(
    'match a direct computation from the raw tables at %s',
    async (moment) => {
      clock.set(new Date(moment));
      const cookie = await signIn(app);
      const response = await app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie } });
      const expected = await directStats(database, new Date(moment));
      expect(response.json().result).toEqual(expected);
    },
  );

  it('has real figures to show on the day it was seeded', async () => {
    clock.set(SEEDED_AT);
    const cookie = await signIn(app);
    const body = (await app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie } })).json();
    expect(body.errors).toEqual([]);
    expect(body.result.subscribers).toBeGreaterThan(500);
    expect(body.result.daily_plays).toBeGreaterThan(100);
  });
});
