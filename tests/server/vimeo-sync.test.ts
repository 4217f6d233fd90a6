import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { demoVideos } from '../../server/seed/catalogue';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';
import { insertDemoCatalogue } from '../support/videoFixtures';

const SYNC = '/api/v1/sync/all-vimeo-videos';
const demo = demoVideos(150);

describe.each(testDatabases())('Vimeo sync with the sandbox catalogue on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
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
    clock.set(new Date('2026-11-22T12:00:00Z'));
    cookie = await signIn(app);
    await insertDemoCatalogue(database);
  });

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) => app.inject({ method, url, headers: { cookie }, payload });
  const videoByVimeoId = async (vimeoId: string) => {
    const [row] = await database.query<Record<string, unknown>>(
      `SELECT v.*, c.name AS category FROM videos v LEFT JOIN video_categories c ON c.id = v.category_id WHERE vimeo_video_id = $1`,
      [vimeoId],
    );
    return row!;
  };
  const snapshot = () => database.query('SELECT * FROM videos ORDER BY id');

  it('starts one background job and answers at once; a second click while it runs starts nothing', async () => {
    const first = await call('GET', SYNC);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ started: true, already_running: false, sync: { state: 'queued', source: 'sandbox', requested_by: STAFF.email } });
    const second = await call('GET', SYNC);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ started: false, already_running: true, sync: { id: first.json().sync.id } });
    const [jobs] = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE queue = 'vimeo.sync'");
    expect(jobs!.n).toBe(1);

    await app.jobs.runDue();
    const third = await call('GET', SYNC);
    expect(third.json()).toMatchObject({ started: true, already_running: false });
    expect(third.json().sync.id).not.toBe(first.json().sync.id);
  });

  it('upserts the sandbox library over the demo data: adds, updates, flags the gone, keeps what staff set', async () => {
    const edited = await videoByVimeoId(demo[3]!.vimeo_video_id); // re-edited on Vimeo
    const [boxing] = await database.query<{ id: number }>("SELECT id FROM video_categories WHERE name = 'Boxing'");
    await call('PUT', `/api/admin/v1/videos/${edited.id}`, {
      title: 'Staff Title',
      enabled: false,
      access_level_id: 3,
      category_id: boxing!.id,
      instructor: 'Guest Coach',
    });
    const deleted = await videoByVimeoId(demo[37]!.vimeo_video_id);
    await call('DELETE', `/api/admin/v1/videos/${deleted.id}`);

    const { sync } = (await call('GET', SYNC)).json();
    clock.advance(60_000);
    await app.jobs.runDue();

    const outcome = (await call('GET', `/api/admin/v1/vimeo-syncs/${sync.id}`)).json();
    expect(outcome).toMatchObject({
      state: 'done',
      source: 'sandbox',
      pages_done: 4,
      pages_total: 4,
      videos_seen: 151,
      videos_added: 6,
      videos_updated: 9,
      videos_missing: 5,
      error: null,
      finished_at: clock.now().toISOString(),
    });

    expect(await videoByVimeoId(demo[3]!.vimeo_video_id)).toMatchObject({
      title: 'Staff Title',
      duration: demo[3]!.duration + 120,
      enabled: false,
      access_level_id: 3,
      category: 'Boxing',
      instructor: 'Guest Coach',
    });
    expect(await videoByVimeoId(demo[20]!.vimeo_video_id)).toMatchObject({ title: `${demo[20]!.title} (Extended)`, enabled: demo[20]!.enabled });
    const stillDeleted = await videoByVimeoId(demo[37]!.vimeo_video_id);
    expect(stillDeleted.deleted_at).not.toBeNull();
    expect(stillDeleted.title).toBe(`${demo[37]!.title} (Extended)`);

    const gone = await videoByVimeoId(demo[8]!.vimeo_video_id);
    expect(gone.vimeo_missing_since).not.toBeNull();
    expect(gone.deleted_at).toBeNull();
    const missing = (await call('GET', `/api/admin/v1/videos?filter=${encodeURIComponent('{"missing":true}')}`)).json();
    expect(missing.map((v: { vimeo_video_id: string }) => v.vimeo_video_id).sort()).toEqual([8, 33, 64, 104, 142].map((i) => demo[i]!.vimeo_video_id).sort());

    // New on Vimeo: waits disabled at the free level for staff to review, category from its tags.
    expect(await videoByVimeoId('770000000')).toMatchObject({
      title: 'Core Ignite Premiere',
      enabled: false,
      access_level_id: 1,
      category: 'Warm-up',
      vimeo_tags: ['New release', 'Warm-up'],
    });
  });

  it('is idempotent: a second sync of the same library changes nothing', async () => {
    await call('GET', SYNC);
    await app.jobs.runDue();
    const before = await snapshot();
    clock.advance(60_000);
    const { sync } = (await call('GET', SYNC)).json();
    await app.jobs.runDue();
    expect(await snapshot()).toEqual(before);
    expect((await call('GET', `/api/admin/v1/vimeo-syncs/${sync.id}`)).json()).toMatchObject({
      state: 'done',
      videos_seen: 151,
      videos_added: 0,
      videos_updated: 0,
      videos_missing: 0,
    });
  });

  it('lists syncs newest first and filters the finished ones, for the last sync time', async () => {
    await call('GET', SYNC);
    await app.jobs.runDue();
    clock.advance(1000);
    await call('GET', SYNC);
    const all = await call('GET', '/api/admin/v1/vimeo-syncs');
    expect(all.headers['content-range']).toBe('vimeo-syncs 0-1/2');
    expect(all.json().map((s: { state: string }) => s.state)).toEqual(['queued', 'done']);
    const done = await call('GET', `/api/admin/v1/vimeo-syncs?filter=${encodeURIComponent('{"state":"done"}')}&range=[0,0]`);
    expect(done.json()).toHaveLength(1);
    expect(done.json()[0].finished_at).not.toBeNull();
    const bad = await call('GET', `/api/admin/v1/vimeo-syncs?filter=${encodeURIComponent('{"state":"sleeping"}')}`);
    expect(bad.statusCode).toBe(400);
  });

  it('shows a sync whose worker died as failed with the reason, and lets a new one start', async () => {
    const { sync } = (await call('GET', SYNC)).json();
    // What lease recovery leaves after the process running the job was killed:
    await database.query("UPDATE jobs SET state = 'failed', last_error = 'the worker running it stopped', finished_at = $1 WHERE queue = 'vimeo.sync'", [
      clock.now().toISOString(),
    ]);
    await database.query("UPDATE vimeo_syncs SET state = 'running' WHERE id = $1", [sync.id]);
    expect((await call('GET', `/api/admin/v1/vimeo-syncs/${sync.id}`)).json()).toMatchObject({
      state: 'failed',
      error: 'The sync stopped without finishing (the worker running it stopped).',
    });
    expect((await call('GET', SYNC)).json()).toMatchObject({ started: true });
  });
});
