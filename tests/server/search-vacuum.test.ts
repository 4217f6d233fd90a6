import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { SEARCH_VACUUM_EVERY_MS, SEARCH_VACUUM_QUEUE } from '../../server/src/search/jobs';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';

/**
 * The search tables are vacuumed hourly, never at start: on a million clients a vacuum holds PGlite's
 * one connection for seconds, and a server that just started should answer its first requests.
 */
describe.each(testDatabases())('search table upkeep on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
    await database.query('DELETE FROM job_schedules WHERE name = $1', [SEARCH_VACUUM_QUEUE]);
    app = await createTestApp(database, { clock });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('vacuums an hour after start, then every hour', async () => {
    const latestRun = async () => (await app.jobs.latest(SEARCH_VACUUM_QUEUE))?.id;
    const before = await latestRun();
    await app.jobs.runDue();
    expect(await latestRun()).toEqual(before);
    clock.advance(SEARCH_VACUUM_EVERY_MS);
    await app.jobs.runDue();
    const first = await app.jobs.latest(SEARCH_VACUUM_QUEUE);
    expect(first).toMatchObject({ state: 'done', result: { vacuumed: 3 } });
    clock.advance(SEARCH_VACUUM_EVERY_MS);
    await app.jobs.runDue();
    expect((await app.jobs.latest(SEARCH_VACUUM_QUEUE))!.id).not.toBe(first!.id);
  });
});
