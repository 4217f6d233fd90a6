import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';
import { insertClient, insertVideo } from '../support/clientFixtures';
import { runMigrations } from '../../server/src/db/migrate';

const KEY = 'app-key-for-the-view-tests-42';

describe.each(testDatabases())('one view counted once on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let video: number;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, {
      clock: testClock(new Date('2026-11-22T12:00:00Z')),
      env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '1000', APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000' },
    });
    await insertClient(database, { first_name: 'Vera', last_name: 'View', email_address: 'vera@example.test', mb_client_id: '300', mb_site_id: -99 });
    video = await insertVideo(database, { title: 'Core Burn', vimeo_video_id: '555001', category: 'Core' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const report = (viewedAt: string) =>
    app.inject({
      method: 'POST',
      url: '/api/app/v1/video-views',
      headers: { 'x-app-key': KEY },
      payload: { email: 'vera@example.test', vimeo_video_id: '555001', viewed_at: viewedAt },
    });
  const plays = async () =>
    Number((await database.query<{ n: number }>('SELECT coalesce(sum(plays), 0)::int AS n FROM video_plays_daily WHERE video_id = $1', [video]))[0]!.n);

  it('stores one row and counts one play for 20 identical reports sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => report('2026-11-22T11:30:00.000Z')));
    const created = answers.filter((answer) => answer.statusCode === 201);
    const duplicates = answers.filter((answer) => answer.statusCode === 200);
    expect(created).toHaveLength(1);
    expect(duplicates).toHaveLength(19);
    const id = created[0]!.json().id;
    for (const duplicate of duplicates) expect(duplicate.json()).toMatchObject({ id, duplicate: true });
    expect(await database.query('SELECT count(*)::int AS n FROM video_views WHERE video_id = $1', [video])).toEqual([{ n: 1 }]);
    expect(await plays()).toBe(1);
  });

  it('still counts another moment as another play, and the same instant written differently as the same', async () => {
    expect((await report('2026-11-22T11:31:00Z')).statusCode).toBe(201);
    expect((await report('2026-11-22T12:31:00+01:00')).statusCode).toBe(200);
    expect(await plays()).toBe(2);
  });
});

describe.each(testDatabases())('upgrading a database that holds counted-twice views on $name', ({ open }) => {
  it('keeps one row of each and takes the copies out of the play counts', async () => {
    const database = await open({ migrateThrough: '0028_app_report_trust.sql' });
    try {
      const client = await insertClient(database, { first_name: 'Otto', last_name: 'Old', email_address: 'otto@example.test' });
      const video = await insertVideo(database, { title: 'Stretch', vimeo_video_id: '555002', category: 'Yoga' });
      for (const viewedAt of ['2026-11-20T08:00:00Z', '2026-11-20T08:00:00Z', '2026-11-20T08:00:00Z', '2026-11-21T09:00:00Z']) {
        await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [client, video, viewedAt]);
      }
      const [first] = await database.query<{ id: number }>('SELECT min(id)::int AS id FROM video_views');
      expect(await runMigrations(database)).toContain('0029_video_views_once.sql');
      expect(await database.query('SELECT id::int AS id, viewed_at FROM video_views ORDER BY viewed_at')).toEqual([
        { id: first!.id, viewed_at: new Date('2026-11-20T08:00:00Z') },
        { id: expect.any(Number), viewed_at: new Date('2026-11-21T09:00:00Z') },
      ]);
      expect(await database.query('SELECT day::text AS day, plays FROM video_plays_daily WHERE video_id = $1 ORDER BY day', [video])).toEqual([
        { day: '2026-11-20', plays: 1 },
        { day: '2026-11-21', plays: 1 },
      ]);
    } finally {
      await database.close();
    }
  });
});
