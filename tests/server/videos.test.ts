import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertVideos } from '../support/videoFixtures';

const ADMIN = '/api/admin/v1/videos';
const q = (params: Record<string, unknown>) => '?' + new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)])).toString();

describe.each(testDatabases())('Video Manager API on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let ids: number[];
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    ids = (await insertVideos(database, 30)).map((row) => row.id);
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const put = (id: number | string, payload: unknown) => app.inject({ method: 'PUT', url: `${ADMIN}/${id}`, headers: { cookie }, payload: payload as object });
  const del = (id: number | string) => app.inject({ method: 'DELETE', url: `${ADMIN}/${id}`, headers: { cookie } });

  it("answers the spec's GET /api/client/v1/videos with exactly { videos: [{ id, title, thumbnail_url, enabled, access_level_id }] }", async () => {
    const response = await get('/api/client/v1/videos');
    expect(response.statusCode).toBe(200);
    const { videos } = response.json();
    expect(videos).toHaveLength(30);
    expect(videos[0]).toEqual({ id: ids[0], title: 'Video 001', thumbnail_url: 'https://img.test/1.jpg', enabled: true, access_level_id: 2 });
    expect(videos[3]).toMatchObject({ title: 'Video 004', enabled: false, access_level_id: 2 });
  });

  it('answers the spec list from a kept copy that follows every change at once, also one made elsewhere, with an ETag', async () => {
    const first = await get('/api/client/v1/videos');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"videos-\d+"$/);
    const unchanged = await app.inject({ method: 'GET', url: '/api/client/v1/videos', headers: { cookie, 'if-none-match': etag } });
    expect([unchanged.statusCode, unchanged.body]).toEqual([304, '']);

    // Another server instance on the same database saves an edit.
    const other = await createTestApp(database, { clock });
    const edit = await other.inject({
      method: 'PUT',
      url: `${ADMIN}/${ids[1]}`,
      headers: { cookie: await signIn(other) },
      payload: { title: 'Renamed elsewhere' },
    });
    expect(edit.statusCode).toBe(200);
    await other.close();
    const afterEdit = await app.inject({ method: 'GET', url: '/api/client/v1/videos', headers: { cookie, 'if-none-match': etag } });
    expect(afterEdit.statusCode).toBe(200);
    expect(afterEdit.headers.etag).not.toBe(etag);
    expect(afterEdit.json().videos[1]).toMatchObject({ id: ids[1], title: 'Renamed elsewhere' });

    // A change straight in the database (as a Vimeo sync writes it), then a deletion.
    await database.query('UPDATE videos SET thumbnail_url = $2 WHERE id = $1', [ids[2], 'https://img.test/new.jpg']);
    expect((await get('/api/client/v1/videos')).json().videos[2]).toMatchObject({ thumbnail_url: 'https://img.test/new.jpg' });
    await del(ids[2]!);
    expect((await get('/api/client/v1/videos')).json().videos.map((v: { id: number }) => v.id)).not.toContain(ids[2]);
  });

  it('needs a staff session for every video call', async () => {
    for (const url of ['/api/client/v1/videos', ADMIN, `${ADMIN}/${ids[0]}`, '/api/admin/v1/video-categories']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    expect((await app.inject({ method: 'PUT', url: `${ADMIN}/${ids[0]}`, payload: { enabled: false } })).statusCode).toBe(401);
  });

  it('pages and sorts on the server with a Content-Range total', async () => {
    const first = await get(ADMIN + q({ sort: ['title', 'DESC'], range: [0, 9] }));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-range']).toBe('videos 0-9/30');
    expect(
      first
        .json()
        .map((v: { title: string }) => v.title)
        .slice(0, 3),
    ).toEqual(['Video 030', 'Video 029', 'Video 028']);
    const last = await get(ADMIN + q({ sort: ['title', 'DESC'], range: [20, 29] }));
    expect(last.headers['content-range']).toBe('videos 20-29/30');
    expect(last.json().at(-1).title).toBe('Video 001');
    const beyond = await get(ADMIN + q({ range: [50, 59] }));
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['content-range']).toBe('videos */30');
    const byLevel = await get(ADMIN + q({ sort: ['access_level_id', 'ASC'], range: [0, 29] }));
    const levels = byLevel.json().map((v: { access_level_id: number }) => v.access_level_id);
    expect(levels).toEqual([...levels].sort());
  });

  it('filters by title, category, access level and enabled', async () => {
    const [category] = await database.query<{ id: number }>("SELECT id FROM video_categories WHERE name = 'HIIT'");
    const byTitle = await get(ADMIN + q({ filter: { q: 'video 01' }, range: [0, 99] }));
    expect(byTitle.json().map((v: { title: string }) => v.title)).toEqual([
      'Video 010',
      'Video 011',
      'Video 012',
      'Video 013',
      'Video 014',
      'Video 015',
      'Video 016',
      'Video 017',
      'Video 018',
      'Video 019',
    ]);
    const combined = await get(ADMIN + q({ filter: { category_id: category!.id, access_level_id: 2, enabled: false }, range: [0, 99] }));
    // HIIT is i % 3 = 1 (level 2); disabled is i % 4 = 0: i = 4, 16, 28
    expect(combined.json().map((v: { title: string }) => v.title)).toEqual(['Video 004', 'Video 016', 'Video 028']);
    expect(combined.json()[0]).toMatchObject({ category: 'HIIT', instructor: 'Coach 4', enabled: false, deleted_at: null });
    const percent = await get(ADMIN + q({ filter: { title: '%' } }));
    expect(percent.json()).toEqual([]);
  });

  it('saves the Enabled switch and the Access Level dropdown, and keeps them across a restart', async () => {
    expect((await put(ids[0]!, { enabled: false })).json()).toMatchObject({ id: ids[0], enabled: false, access_level_id: 2 });
    expect((await put(ids[0]!, { access_level_id: 3 })).json()).toMatchObject({ enabled: false, access_level_id: 3 });
    await app.close();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    const { videos } = (await get('/api/client/v1/videos')).json();
    expect(videos[0]).toMatchObject({ id: ids[0], enabled: false, access_level_id: 3 });
  });

  it('saves the edit form, ignoring the read-only fields of the whole record it sends', async () => {
    const [category] = await database.query<{ id: number }>("SELECT id FROM video_categories WHERE name = 'Pilates'");
    const record = (await get(`${ADMIN}/${ids[1]}`)).json();
    const response = await put(ids[1]!, {
      ...record,
      title: '  Power Pilates  ',
      instructor: '',
      category_id: category!.id,
      access_level_id: 1,
      enabled: false,
      thumbnail_url: 'https://attacker.test/x.jpg',
      vimeo_video_id: '1',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      title: 'Power Pilates',
      title_edited: true,
      instructor: null,
      category: 'Pilates',
      access_level_id: 1,
      enabled: false,
      thumbnail_url: 'https://img.test/2.jpg',
      vimeo_video_id: '900002',
    });
  });

  it('deletes with a soft delete: gone from the app and the list, listed under deleted, restorable', async () => {
    const deleted = await del(ids[2]!);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().deleted_at).toBe(clock.now().toISOString());
    expect((await get('/api/client/v1/videos')).json().videos.map((v: { id: number }) => v.id)).not.toContain(ids[2]);
    expect((await get(ADMIN)).headers['content-range']).toBe('videos 0-24/29');
    const [row] = await database.query<{ gone: boolean }>('SELECT deleted_at IS NOT NULL AS gone FROM videos WHERE id = $1', [ids[2]]);
    expect(row!.gone).toBe(true);
    const shown = (await get(ADMIN + q({ filter: { deleted: true } }))).json();
    expect(shown.map((v: { id: number }) => v.id)).toEqual([ids[2]]);
    const restored = await put(ids[2]!, { deleted_at: null });
    expect(restored.json().deleted_at).toBeNull();
    expect((await get('/api/client/v1/videos')).json().videos).toHaveLength(30);
  });

  it('answers getMany ({"id":[..]}) with those videos, deleted ones included', async () => {
    await del(ids[4]!);
    const response = await get(ADMIN + q({ filter: { id: [ids[4], ids[5]] } }));
    expect(
      response
        .json()
        .map((v: { id: number }) => v.id)
        .sort(),
    ).toEqual([ids[4], ids[5]].sort());
  });

  it.each([
    [
      q({ sort: ['thumbnail_url', 'ASC'] }),
      'querystring.sort.0: field must be one of title, id, enabled, access_level_id, category, instructor, duration, updated_at',
    ],
    [q({ sort: ['title', 'UP'] }), "order must be 'ASC' or 'DESC'"],
    ['?range=0-24', 'querystring.range: must be JSON like [0,24]'],
    [q({ range: [10, 5] }), 'end must not be before start'],
    [q({ range: [0, 5000] }), 'at most 500 rows per page'],
    [q({ filter: { colour: 'red' } }), 'colour'],
    [q({ filter: { access_level_id: 4 } }), 'must be 1 (VOD | FREE), 2 (VOD | BASIC) or 3 (VOD | PREMIUM)'],
    [q({ filter: { enabled: 'yes' } }), 'querystring.filter.enabled: must be true or false'],
  ])('rejects a bad list query %s with a 400 that says what is wrong', async (query, message) => {
    const response = await get(ADMIN + query);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it.each([
    [{ title: '   ' }, 'body.title: is required'],
    [{ access_level_id: 7 }, 'body.access_level_id: must be 1 (VOD | FREE), 2 (VOD | BASIC) or 3 (VOD | PREMIUM)'],
    [{ access_level_id: '2' }, 'body.access_level_id'],
    [{ enabled: 'no' }, 'body.enabled: must be true or false'],
    [{ title: 'x'.repeat(201) }, 'body.title: at most 200 characters'],
    [{ category_id: 99999 }, 'category_id: no category with id 99999'],
    [{ deleted_at: 'yesterday' }, 'body.deleted_at: must be null (to restore the video) or a timestamp'],
  ])('rejects a bad update %j with a 400 and changes nothing', async (body, message) => {
    const before = (await get(`${ADMIN}/${ids[0]}`)).json();
    const response = await put(ids[0]!, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
    expect((await get(`${ADMIN}/${ids[0]}`)).json()).toEqual(before);
  });

  it('answers 404 for an unknown video and 400 for an id that is not one', async () => {
    expect((await get(`${ADMIN}/999999`)).statusCode).toBe(404);
    expect((await put(999999, { enabled: true })).json()).toEqual({ message: 'No video with id 999999.' });
    expect((await del(999999)).statusCode).toBe(404);
    const bad = await get(`${ADMIN}/abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('params.id');
  });

  it('lists the categories for the edit form', async () => {
    const response = await get('/api/admin/v1/video-categories');
    expect(response.json().map((c: { name: string }) => c.name)).toEqual(['Yoga', 'HIIT', 'Pilates']);
    expect(response.headers['content-range']).toBe('video-categories 0-2/3');
  });

  it('documents the extension endpoints in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/client/v1/videos',
        '/api/admin/v1/videos',
        '/api/admin/v1/videos/{id}',
        '/api/v1/sync/all-vimeo-videos',
        '/api/admin/v1/vimeo-syncs',
      ]),
    );
    expect(Object.keys(doc.paths['/api/admin/v1/videos/{id}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
  });
});
