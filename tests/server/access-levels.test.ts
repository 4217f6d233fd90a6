import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { AccessLevelsResponse, VideoOptionsResponse } from '@contract/accessLevels';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn } from '../support/server';
import { insertVideo } from '../support/clientFixtures';

describe.each(testDatabases())('access levels and video options on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const titles = (body: { videos: { category: string; video_options: { title: string }[] }[] }) =>
    body.videos.map((group) => [group.category, group.video_options.map((video) => video.title)]);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database);
    cookie = await signIn(app);
    // Categories are created in this order, so Strength sorts before Yoga.
    await insertVideo(database, { title: 'Squats 101', vimeo_video_id: 's1', category: 'Strength', access_level_id: 1, instructor: 'Jo', duration: 59 });
    await insertVideo(database, { title: 'Yoga Flow', vimeo_video_id: 'y1', category: 'Yoga', access_level_id: 1 });
    await insertVideo(database, { title: 'deadlifts', vimeo_video_id: 's2', category: 'Strength', access_level_id: 2 });
    await insertVideo(database, { title: 'Advanced Yoga', vimeo_video_id: 'y2', category: 'Yoga', access_level_id: 3 });
    await insertVideo(database, { title: 'Hidden Pilates', vimeo_video_id: 'p1', category: 'Strength', access_level_id: 1, enabled: false });
    await insertVideo(database, { title: 'Deleted Barre', vimeo_video_id: 'b1', category: 'Yoga', access_level_id: 1, deleted: true });
    await insertVideo(database, { title: 'Loose End', vimeo_video_id: 'l1', category: null, access_level_id: 1 });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('lists the three levels by sort_order', async () => {
    const response = await get('/api/client/v1/vod-access-levels');
    expect(response.statusCode).toBe(200);
    expect(AccessLevelsResponse.parse(response.json())).toEqual({
      levels: [
        { name: 'VOD | FREE', sort_order: 1 },
        { name: 'VOD | BASIC', sort_order: 2 },
        { name: 'VOD | PREMIUM', sort_order: 3 },
      ],
      override_max_days: 365,
    });
  });

  it('offers FREE only free videos, enabled and not deleted, grouped by category and sorted by title', async () => {
    const response = await get('/api/client/v1/video-options/1');
    expect(response.statusCode).toBe(200);
    const body = VideoOptionsResponse.parse(response.json());
    expect(titles(body)).toEqual([
      ['Strength', ['Squats 101']],
      ['Yoga', ['Yoga Flow']],
      ['Uncategorized', ['Loose End']],
    ]);
    expect(body.videos[0]!.video_options[0]).toEqual({ vimeo_video_id: 's1', title: 'Squats 101', instructor: 'Jo', duration: 59 });
  });

  it('offers BASIC free and basic videos', async () => {
    expect(titles((await get('/api/client/v1/video-options/2')).json())).toEqual([
      ['Strength', ['deadlifts', 'Squats 101']],
      ['Yoga', ['Yoga Flow']],
      ['Uncategorized', ['Loose End']],
    ]);
  });

  it('offers PREMIUM everything enabled, and accepts the level by name', async () => {
    const byNumber = (await get('/api/client/v1/video-options/3')).json();
    expect(titles(byNumber)).toEqual([
      ['Strength', ['deadlifts', 'Squats 101']],
      ['Yoga', ['Advanced Yoga', 'Yoga Flow']],
      ['Uncategorized', ['Loose End']],
    ]);
    expect((await get('/api/client/v1/video-options/VOD%20%7C%20PREMIUM')).json()).toEqual(byNumber);
    expect((await get('/api/client/v1/video-options/premium')).json()).toEqual(byNumber);
  });

  it.each(['0', '4', 'GOLD'])('answers 400 with a message for the unknown level %s', async (level) => {
    const response = await get(`/api/client/v1/video-options/${level}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Unknown VOD access level/);
  });
});
