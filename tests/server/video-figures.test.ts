import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { refreshVideoFigures } from '../../server/src/videos/figures';
import type { AdminVideo } from '@contract/videos';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, insertVideo } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

describe.each(testDatabases())('per-video figures on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);
  const list = async (query: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/videos?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AdminVideo[];
  };
  const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    const [ada, bo] = [await insertClient(database, { first_name: 'Ada' }), await insertClient(database, { first_name: 'Bo' })];
    const yoga = await insertVideo(database, { title: 'Sunrise Yoga', vimeo_video_id: '9001' });
    const hiit = await insertVideo(database, { title: 'HIIT Blast', vimeo_video_id: '9002' });
    await insertVideo(database, { title: 'Never Watched', vimeo_video_id: '9003' });
    const view = (client: number, video: number, at: string) =>
      database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [client, video, at]);
    // Yoga: 3 plays by 2 clients in the window; HIIT: 1 play in the window and one before it.
    await view(ada, yoga, ago(1));
    await view(ada, yoga, ago(2));
    await view(bo, yoga, ago(3));
    await view(bo, hiit, ago(5));
    await view(bo, hiit, ago(45));
    await database.query('INSERT INTO favorites (client_id, video_id) VALUES ($1, $2), ($3, $2)', [ada, hiit, bo]);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('counts plays, viewers, favorites and the last play, sorts by them and finds the never played', async () => {
    // The schedule runs the job at start: the figures are there after one due run.
    await app.jobs.runDue();
    const byPlays = await list(`sort=${q(['plays_30d', 'DESC'])}`);
    expect(byPlays.map((video) => [video.title, video.plays_30d, video.viewers_30d, video.favorites, video.last_played_at])).toEqual([
      ['Sunrise Yoga', 3, 2, 0, ago(1)],
      ['HIIT Blast', 1, 1, 2, ago(5)],
      ['Never Watched', 0, 0, 0, null],
    ]);
    expect((await list(`sort=${q(['favorites', 'DESC'])}`))[0]!.title).toBe('HIIT Blast');
    expect((await list(`sort=${q(['last_played_at', 'ASC'])}`)).map((video) => video.title)).toEqual(['HIIT Blast', 'Sunrise Yoga', 'Never Watched']);
    expect((await list(`filter=${q({ never_played: true })}`)).map((video) => video.title)).toEqual(['Never Watched']);
    expect((await list(`filter=${q({ never_played: false })}`)).map((video) => video.title).sort()).toEqual(['HIIT Blast', 'Sunrise Yoga']);
    // 26 days later HIIT's play of 5 days ago is out of the 30 days; Yoga's are not yet.
    clock.advance(26 * DAY);
    await refreshVideoFigures(database, clock.now());
    clock.set(NOW);
    expect((await list(`sort=${q(['plays_30d', 'DESC'])}`)).map((video) => [video.title, video.plays_30d])).toEqual([
      ['Sunrise Yoga', 3],
      ['Never Watched', 0],
      ['HIIT Blast', 0],
    ]);
  });

  it('computes the same figures in statements of a few videos each, so PGlite can answer others between them', async () => {
    const figures = () => database.query('SELECT video_id, plays_30d, viewers_30d, favorites, last_played_at FROM video_figures ORDER BY video_id');
    await refreshVideoFigures(database, NOW);
    const whole = await figures();
    expect(whole.map((row) => [row.plays_30d, row.viewers_30d, row.favorites])).toEqual([
      [3, 2, 0],
      [1, 1, 2],
      [0, 0, 0],
    ]);
    for (const batchSize of [1, 2]) {
      await database.query('DELETE FROM video_figures');
      let statements = 0;
      const counting = { ...database, rows: (...args: Parameters<Database['rows']>) => (statements++, database.rows(...args)) } as Database;
      expect(await refreshVideoFigures(counting, NOW, batchSize)).toEqual({ videos: 3 });
      expect(await figures()).toEqual(whole);
      expect(statements, `batches of ${batchSize}`).toBeGreaterThanOrEqual(Math.ceil(3 / batchSize));
    }
  });

  it('refuses unknown sorts and a never_played that is not a boolean', async () => {
    for (const query of [`sort=${q(['plays', 'DESC'])}`, `filter=${q({ never_played: 'yes' })}`, `filter=${q({ never_played: 1 })}`]) {
      expect((await app.inject({ method: 'GET', url: `/api/admin/v1/videos?${query}`, headers: { cookie } })).statusCode, query).toBe(400);
    }
  });
});
