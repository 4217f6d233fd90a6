import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import type { MindbodyApi } from '../../server/src/integrations/mindbody';
import { startMindbodySync } from '../../server/src/mindbody/jobs';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

const KEY = 'app-key-for-the-tests-0123';
const START = new Date('2026-11-22T12:00:00Z');

const debugReport = (overrides: Record<string, unknown> = {}) => ({
  email: 'ada@example.test',
  mb_client_id: '100042',
  app_access_level: 'VOD | PREMIUM',
  firebase_token_new: 'fcm-new-token',
  firebase_token_current: 'fcm-current-token',
  platform: 'ios',
  platform_version: '18.1',
  is_ipad: false,
  screen_width: 1179,
  screen_height: 2556,
  device_width: 393,
  device_height: 852,
  ip: '203.0.113.7',
  app_version: '3.6.1',
  sent_at: '2026-11-22T11:59:30.000Z',
  device_constants: { deviceName: 'iPhone', isDevice: true },
  network_info: { type: 'wifi', isConnected: true },
  ...overrides,
});

describe.each(testDatabases())("the mobile app's reports on $name", ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let ada: number;
  let video: number;
  const clock = testClock(START);
  const listed: { mb_client_id: string; email_address: string }[] = [];

  beforeAll(async () => {
    database = await open();
    const mindbody: MindbodyApi = {
      mode: 'sandbox',
      siteIds: [-99],
      async *clientPages() {
        yield {
          clients: listed.map((c) => ({ ...c, unique_id: null, first_name: 'Late', last_name: 'Comer', client_status: 'Active', last_modified_at: null })),
          skipped: 0,
          offset: 0,
          nextOffset: null,
          total: listed.length,
        };
      },
      getClientVisits: async () => [],
      getClientContracts: async () => [],
    };
    app = await createTestApp(database, { clock, env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '5' }, mindbody });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(START);
    listed.length = 0;
    await database.execScript('DELETE FROM debug_records; DELETE FROM video_views; DELETE FROM clients; DELETE FROM videos; DELETE FROM jobs;');
    const [client] = await database.query<{ id: number }>(
      "INSERT INTO clients (first_name, email_address, mb_client_id, mb_site_id, vod_access_level) VALUES ('Ada', 'Ada@Example.test', '100042', -99, 3) RETURNING id",
    );
    ada = Number(client!.id);
    const [row] = await database.query<{ id: number }>(
      "INSERT INTO videos (vimeo_video_id, title, duration) VALUES ('76979871', 'Morning Mobility', 900) RETURNING id",
    );
    video = Number(row!.id);
  });

  const post = (path: string, payload: unknown, key: string | null = KEY, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/app/v1/${path}`,
      headers: { ...(key === null ? {} : { 'x-app-key': key }), ...(cookie ? { cookie } : {}) },
      payload: payload as object,
    });
  const count = async (table: string) => (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  it('stores a debug report on the client it names, every spec field kept', async () => {
    const response = await post('debug-info', debugReport());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: expect.any(Number), client_id: ada });
    const [record] = await database.query('SELECT * FROM debug_records');
    expect(record).toMatchObject({
      client_id: ada,
      email: 'ada@example.test',
      mb_client_id: '100042',
      app_access_level: 'VOD | PREMIUM',
      firebase_token_new: 'fcm-new-token',
      firebase_token_current: 'fcm-current-token',
      platform: 'ios',
      platform_version: '18.1',
      is_ipad: false,
      screen_width: 1179,
      screen_height: 2556,
      device_width: 393,
      device_height: 852,
      ip: '203.0.113.7',
      app_version: '3.6.1',
      sent_at: new Date('2026-11-22T11:59:30.000Z'),
      device_constants: { deviceName: 'iPhone', isDevice: true },
      network_info: { type: 'wifi', isConnected: true },
    });
  });

  it('keeps a report from a client not imported yet and attaches it when the import brings the client', async () => {
    const response = await post('debug-info', { email: 'late@example.test', platform: 'android' });
    expect(response.json()).toMatchObject({ client_id: null });
    const [stored] = await database.query<{ ip: string; sent_at: Date }>('SELECT ip, sent_at FROM debug_records');
    expect(stored).toMatchObject({ ip: '127.0.0.1', sent_at: START }); // the request's address and arrival time

    listed.push({ mb_client_id: '100777', email_address: 'late@example.test' });
    await startMindbodySync(app);
    await app.jobs.runDue();

    const [record] = await database.query<{ client_id: number }>('SELECT client_id FROM debug_records');
    const [client] = await database.query<{ id: number }>("SELECT id FROM clients WHERE mb_client_id = '100777'");
    expect(record!.client_id).toBe(client!.id);
  });

  it('records a streamed video for the client, once per (video, viewed_at)', async () => {
    const view = { mb_client_id: '100042', vimeo_video_id: '76979871', viewed_at: '2026-11-22T11:40:00Z' };
    const first = await post('video-views', view);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ id: expect.any(Number), client_id: ada, video_id: video, duplicate: false });
    const again = await post('video-views', view);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: first.json().id, duplicate: true });
    expect(await database.query('SELECT client_id, video_id, viewed_at FROM video_views')).toEqual([
      { client_id: ada, video_id: video, viewed_at: new Date('2026-11-22T11:40:00Z') },
    ]);
    // What 'Recent Streamed Videos' reads (the section's query shape): the title and the time.
    expect(
      await database.query(
        'SELECT v.title AS vimeo_video_title, vv.viewed_at FROM video_views vv JOIN videos v ON v.id = vv.video_id WHERE vv.client_id = $1',
        [ada],
      ),
    ).toEqual([{ vimeo_video_title: 'Morning Mobility', viewed_at: new Date('2026-11-22T11:40:00Z') }]);
    expect((await post('video-views', { email: 'ADA@example.test', vimeo_video_id: 76979871, viewed_at: '2026-11-22T11:50:00+00:00' })).statusCode).toBe(201);
  });

  it('answers clear 400s to invalid reports and stores nothing', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['debug-info', { platform: 'ios' }, /email or mb_client_id is required/],
      ['debug-info', debugReport({ screen_width: 'wide' }), /body\.screen_width/],
      ['debug-info', debugReport({ email: 'not-an-email' }), /body\.email: must be an e-mail address/],
      ['debug-info', debugReport({ sent_at: 'yesterday' }), /body\.sent_at: must be an ISO 8601 date-time/],
      ['debug-info', debugReport({ device_constants: 'a string' }), /body\.device_constants/],
      ['video-views', { email: 'ada@example.test', viewed_at: '2026-11-22T11:40:00Z' }, /body\.vimeo_video_id/],
      ['video-views', { email: 'ada@example.test', vimeo_video_id: '76979871' }, /body\.viewed_at/],
      ['video-views', { vimeo_video_id: '76979871', viewed_at: '2026-11-22T11:40:00Z' }, /email or mb_client_id is required/],
      ['video-views', { email: 'ada@example.test', vimeo_video_id: '76979871', viewed_at: '2026-11-23T12:00:00Z' }, /body\.viewed_at: is in the future/],
    ];
    for (const [path, body, message] of cases) {
      const response = await post(path, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(await count('debug_records')).toBe(0);
    expect(await count('video_views')).toBe(0);
  });

  it('answers 404 when the view names an unknown client or video', async () => {
    const unknownClient = await post('video-views', { email: 'nobody@example.test', vimeo_video_id: '76979871', viewed_at: '2026-11-22T11:40:00Z' });
    expect(unknownClient.statusCode).toBe(404);
    expect(unknownClient.json()).toEqual({ message: 'No client matches that email or mb_client_id' });
    const unknownVideo = await post('video-views', { email: 'ada@example.test', vimeo_video_id: '1', viewed_at: '2026-11-22T11:40:00Z' });
    expect(unknownVideo.json()).toEqual({ message: 'No video with vimeo_video_id 1' });
    expect(await count('video_views')).toBe(0);
  });

  it('refuses oversized bodies with 413 and stores nothing', async () => {
    const huge = debugReport({ device_constants: { blob: 'x'.repeat(70 * 1024) } });
    const response = await post('debug-info', huge);
    expect(response.statusCode).toBe(413);
    const view = await post('video-views', {
      email: 'ada@example.test',
      vimeo_video_id: '76979871',
      viewed_at: '2026-11-22T11:40:00Z',
      note: 'y'.repeat(5000),
    });
    expect(view.statusCode).toBe(413);
    expect(await count('debug_records')).toBe(0);
    expect(await count('video_views')).toBe(0);
  });

  it('refuses a missing or wrong app key with 401, even with a staff session, and stores nothing', async () => {
    const staff = await signIn(app);
    for (const key of [null, '', 'wrong-key', `${KEY}x`]) {
      for (const path of ['debug-info', 'video-views']) {
        const response = await post(path, debugReport({ vimeo_video_id: '76979871', viewed_at: '2026-11-22T11:40:00Z' }), key, staff);
        expect(response.statusCode, `${path} ${key}`).toBe(401);
        expect(response.json()).toEqual({ message: 'Missing or wrong X-App-Key header' });
      }
    }
    expect(await count('debug_records')).toBe(0);
    expect(await count('video_views')).toBe(0);
  });

  it('rate-limits each client separately and says when to retry', async () => {
    const email = 'busy@example.test';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post('debug-info', { email, platform: 'ios' }));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(answers[5]!.headers['retry-after']).toBe('12');
    expect(answers[5]!.json().message).toMatch(/at most 5 a minute; retry in 12 s/);
    expect((await post('debug-info', { email: 'calm@example.test' })).statusCode).toBe(201);
    clock.advance(12_000);
    expect((await post('debug-info', { email: email.toUpperCase() })).statusCode).toBe(201);
  });

  it("does not let someone else's reports naming a client use up the budget of the client's device", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post('debug-info', debugReport({ firebase_token_new: 'someone-else', firebase_token_current: null })));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await post('debug-info', debugReport())).statusCode).toBe(201);
  });

  it('documents both endpoints with their key in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: await signIn(app) } })).json();
    for (const path of ['/api/app/v1/debug-info', '/api/app/v1/video-views']) {
      expect(doc.paths[path].post.security).toEqual([{ appKey: [] }]);
      expect(doc.paths[path].post.requestBody).toBeDefined();
    }
    expect(doc.paths['/api/webhooks/revenuecat'].post.security).toEqual([{ revenuecatAuth: [] }]);
    expect(doc.components.securitySchemes.appKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-App-Key' });
  });
});
