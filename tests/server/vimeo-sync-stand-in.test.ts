import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { startVimeoStandIn, vimeoPage, vimeoVideo, type StandInReply, type StandInRequest } from '../support/vimeoStandIn';

const SYNC = '/api/v1/sync/all-vimeo-videos';

describe.each(testDatabases())('Vimeo sync against a stand-in Vimeo on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let standIn: Awaited<ReturnType<typeof startVimeoStandIn>>;
  let reply: (request: StandInRequest) => StandInReply;
  const clock = testClock();

  beforeAll(async () => {
    standIn = await startVimeoStandIn((request) => reply(request));
    database = await open();
    app = await createTestApp(database, { clock, env: { VIMEO_ACCESS_TOKEN: 'stand-in-token', VIMEO_API_URL: standIn.url } });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await standIn.close();
  });
  beforeEach(async () => {
    await database.execScript(`
      DELETE FROM vimeo_syncs; DELETE FROM jobs; DELETE FROM favorites; DELETE FROM video_views; DELETE FROM videos;
      DELETE FROM video_categories; INSERT INTO video_categories (name, sort_order) VALUES ('Yoga', 1), ('HIIT', 2);
      -- edited by staff before the sync: every staff field differs from what a new video gets
      INSERT INTO videos (vimeo_video_id, title, duration, enabled, access_level_id, category_id, instructor, thumbnail_url)
        VALUES ('5002', 'Old title', 10, true, 3, (SELECT id FROM video_categories WHERE name = 'HIIT'), 'Kim', 'https://old.test/t.jpg');
      -- on Vimeo once, not any more
      INSERT INTO videos (vimeo_video_id, title, duration) VALUES ('4999', 'Removed from Vimeo', 30);
      -- added by hand, never on Vimeo
      INSERT INTO videos (vimeo_video_id, title, duration) VALUES (NULL, 'Studio upload', 30);`);
    standIn.requests.length = 0;
  });

  const call = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const runSync = async () => {
    const { sync } = (await call(SYNC)).json();
    await app.jobs.runDue();
    return (await call(`/api/admin/v1/vimeo-syncs/${sync.id}`)).json();
  };

  /** Pages of two: 5001-5002, 5003-5004, then 5004 again (Vimeo's pages shift while it is read) and 5005. */
  const library = [
    [5001, 5002],
    [5003, 5004],
    [5004, 5005],
  ];
  function threePages(request: StandInRequest): StandInReply {
    const page = Number(request.query.get('page') ?? '1');
    return {
      body: vimeoPage(
        page,
        3,
        2,
        library[page - 1]!.map((id) => vimeoVideo(id, `Vimeo ${id}`)),
        6,
      ),
    };
  }

  it('stores every video once, keeps local edits, and gets through a 429 and a 500 on the way', async () => {
    let limited = false;
    let failed = false;
    reply = (request) => {
      const page = request.query.get('page');
      if (page === '2' && !limited) {
        limited = true;
        return { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(Date.now() - 1000).toUTCString() } };
      }
      if (page === '3' && !failed) {
        failed = true;
        return { status: 500, body: { error: 'Internal error' } };
      }
      return threePages(request);
    };
    const outcome = await runSync();
    expect(outcome).toMatchObject({
      state: 'done',
      source: 'vimeo',
      pages_done: 3,
      pages_total: 3,
      videos_seen: 5,
      videos_added: 4,
      videos_updated: 1,
      videos_missing: 1,
    });
    expect(standIn.requests).toHaveLength(5);
    expect(standIn.requests.every((r) => r.headers.authorization === 'bearer stand-in-token')).toBe(true);

    const rows = await database.query<Record<string, unknown>>(
      `SELECT v.vimeo_video_id, v.title, v.enabled, v.access_level_id, v.instructor, c.name AS category, v.thumbnail_url, v.vimeo_missing_since
       FROM videos v LEFT JOIN video_categories c ON c.id = v.category_id ORDER BY v.vimeo_video_id NULLS LAST`,
    );
    expect(rows.map((row) => row.vimeo_video_id)).toEqual(['4999', '5001', '5002', '5003', '5004', '5005', null]);
    expect(rows[2]).toMatchObject({
      title: 'Vimeo 5002',
      enabled: true,
      access_level_id: 3,
      instructor: 'Kim',
      category: 'HIIT',
      thumbnail_url: 'https://i.vimeocdn.com/video/5002_295x166',
      vimeo_missing_since: null,
    });
    expect(rows[1]).toMatchObject({ title: 'Vimeo 5001', enabled: false, access_level_id: 1, category: 'Yoga' });
    expect(rows[0]!.vimeo_missing_since).not.toBeNull();
    expect(rows[6]!.vimeo_missing_since).toBeNull();
  });

  it('clears the gone flag when a video comes back to Vimeo', async () => {
    reply = threePages;
    await runSync();
    reply = (request) => {
      const answer = threePages(request);
      if (request.query.get('page') === '3') (answer.body as { data: unknown[] }).data.push(vimeoVideo(4999, 'Back again'));
      return answer;
    };
    const outcome = await runSync();
    expect(outcome).toMatchObject({ state: 'done', videos_updated: 1, videos_missing: 0 });
    const [row] = await database.query<Record<string, unknown>>("SELECT title, vimeo_missing_since FROM videos WHERE vimeo_video_id = '4999'");
    expect(row).toEqual({ title: 'Back again', vimeo_missing_since: null });
  });

  it('records why a sync failed and flags nothing from a partial read', async () => {
    reply = (request) =>
      request.query.get('page') === '2' ? { status: 401, body: { error: 'You must provide a valid authenticated access token.' } } : threePages(request);
    const outcome = await runSync();
    expect(outcome).toMatchObject({ state: 'failed', pages_done: 1, videos_added: 1, videos_missing: 0 });
    expect(outcome.error).toContain('Vimeo rejected the access token (HTTP 401');
    const [row] = await database.query<{ missing: number }>('SELECT count(*)::int AS missing FROM videos WHERE vimeo_missing_since IS NOT NULL');
    expect(row!.missing).toBe(0);
  });
});
