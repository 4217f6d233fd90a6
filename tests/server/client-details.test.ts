import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ClientDetailsResponse, ContractsResponse, DebugResponse, FavoritesResponse, PurchasesResponse, RecentlyViewedResponse } from '@contract/clients';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, insertVideo } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const base = '/api/client/v1/client-details';

describe.each(testDatabases())('client details on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let kim: number;
  let lee: number;

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie } });

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock: testClock(NOW) });
    cookie = await signIn(app);
    kim = await insertClient(database, {
      first_name: 'Kim',
      last_name: 'Park',
      email_address: 'Kim.Park@studio.test',
      mb_client_id: '100777',
      mb_site_id: -99,
      vod_access_level: 2,
      client_status: 'Active',
      first_login: new Date(NOW.getTime() - 3 * DAY),
    });
    // Lee shares Kim's MindBody id at another site, and has nothing in any section.
    lee = await insertClient(database, {
      first_name: 'Lee',
      last_name: 'Ray',
      email_address: 'lee@studio.test',
      mb_client_id: '100777',
      mb_site_id: 5739,
      vod_access_level: 1,
    });
    const yoga = await insertVideo(database, { title: 'Sunrise Yoga', vimeo_video_id: '9001', category: 'Yoga', instructor: 'Mara', duration: 1500 });
    const hiit = await insertVideo(database, { title: 'HIIT Blast', vimeo_video_id: '9002', category: 'HIIT', instructor: null, duration: 45 });
    const gone = await insertVideo(database, { title: 'Old Stretch', vimeo_video_id: '9003', category: 'Yoga', deleted: true });
    // 60 views, one per hour, so the newest 50 are a known slice.
    await database.query(
      `INSERT INTO video_views (client_id, video_id, viewed_at)
       SELECT $1, CASE WHEN g % 2 = 0 THEN $2::int ELSE $3::int END, $4::timestamptz - make_interval(hours => g)
       FROM generate_series(1, 60) AS g`,
      [kim, yoga, hiit, NOW.toISOString()],
    );
    await database.query(`INSERT INTO favorites (client_id, video_id, created_at) VALUES ($1, $2, $5), ($1, $3, $6), ($1, $4, $7)`, [
      kim,
      yoga,
      hiit,
      gone,
      new Date(NOW.getTime() - 2 * DAY).toISOString(),
      new Date(NOW.getTime() - DAY).toISOString(),
      NOW.toISOString(),
    ]);
    await database.query(
      `INSERT INTO purchases (client_id, revenue_cat_user_id, access_level_id, subscription_identifier, upsell_source, purchased_at, expires_at, subscription_status)
       VALUES ($1, 'rc_kim', 2, 'vod_basic_monthly', 'paywall', '2026-09-01T00:00:00Z', '2026-10-01T00:00:00Z', 'expired'),
              ($1, 'rc_kim', 3, 'vod_premium_monthly', 'onboarding', '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z', 'active')`,
      [kim],
    );
    await database.query(
      `INSERT INTO debug_records (client_id, email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current,
         platform, platform_version, is_ipad, screen_width, screen_height, device_width, device_height, ip, app_version, sent_at,
         device_constants, network_info)
       SELECT $1, 'kim.park@studio.test', '100777', 'VOD | BASIC', 'new-' || g, 'cur-' || g, 'ios', '18.1', g = 3, 1179, 2556.5, 393, 852,
              '203.0.113.' || g, '3.' || g, $2::timestamptz - make_interval(days => g),
              jsonb_build_object('deviceName', 'iPhone', 'n', g), jsonb_build_object('type', 'wifi')
       FROM generate_series(1, 130) AS g`,
      [kim, NOW.toISOString()],
    );
    await database.query(
      `INSERT INTO contracts (client_id, id, contract_id, site_id, agreement_date, autopay_status, contract_name, start_date, end_date,
                              termination_date, original_location_id, upcoming_autopay_events)
       VALUES ($1, 5001, 101, -99, '2026-01-05T00:00:00Z', 'Active', 'Unlimited Monthly', '2026-01-05T00:00:00Z', '2027-01-05T00:00:00Z',
               NULL, 1, '[{"ClientContractId":5001,"ChargeAmount":129,"ScheduleDate":"2027-01-01T00:00:00","PaymentMethod":"CreditCard"},
                          {"ClientContractId":5001,"ChargeAmount":129.5,"ScheduleDate":"2026-12-01T00:00:00","PaymentMethod":"CreditCard"}]'),
              ($1, 5002, 102, -99, '2025-03-01T00:00:00Z', 'Inactive', '10 Class Pack', '2025-03-01T00:00:00Z', '2025-09-01T00:00:00Z',
               '2025-06-15T00:00:00Z', 2, '[]')`,
      [kim],
    );
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  describe('GET client-details/{id}', () => {
    it('answers { client: [one client] } with the list fields', async () => {
      const response = await get(`${base}/${kim}`);
      expect(response.statusCode).toBe(200);
      const body = ClientDetailsResponse.parse(response.json());
      expect(body.client).toEqual([
        {
          _id: kim,
          first_name: 'Kim',
          last_name: 'Park',
          email_address: 'Kim.Park@studio.test',
          mb_client_id: '100777',
          mb_site_id: -99,
          vod_access_level: 2,
          name: 'VOD | BASIC',
          client_status: 'Active',
          first_login: '2026-11-19T12:00:00.000Z',
          admin_updated_expiration: null,
        },
      ]);
    });

    it('answers 404 JSON for an unknown id', async () => {
      const response = await get(`${base}/987654`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('No client with id 987654');
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999999999999', '1e3'])('answers 400 JSON for the malformed id %s', async (id) => {
      const response = await get(`${base}/${id}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/Client id must be a positive whole number/);
    });
  });

  describe('POST recently-viewed-videos', () => {
    it('answers the 50 newest views, newest first, found by e-mail in any case', async () => {
      const response = await post(`${base}/recently-viewed-videos`, { email: 'KIM.PARK@studio.test', mb_client_id: '100777' });
      expect(response.statusCode).toBe(200);
      const { videos } = RecentlyViewedResponse.parse(response.json());
      expect(videos).toHaveLength(50);
      expect(videos[0]).toEqual({ vimeo_video_title: 'HIIT Blast', viewed_at: '2026-11-22T11:00:00.000Z' });
      expect(videos[49]!.viewed_at).toBe('2026-11-20T10:00:00.000Z');
    });

    it('finds the client by MindBody id when no e-mail is sent', async () => {
      const response = await post(`${base}/recently-viewed-videos`, { email: null, mb_client_id: '100777' });
      expect(response.json().videos).toHaveLength(50);
    });

    it('answers an empty list for a client who streamed nothing', async () => {
      const response = await post(`${base}/recently-viewed-videos`, { email: 'lee@studio.test', mb_client_id: '100777' });
      expect(response.json()).toEqual({ videos: [] });
    });

    it.each([
      ['no identifiers', {}, /Send the client's email or mb_client_id/],
      ['placeholders only', { email: 'undefined', mb_client_id: 'null' }, /Send the client's email or mb_client_id/],
      ['a 2-character MindBody id', { mb_client_id: '42' }, /Send the client's email or mb_client_id/],
      ['a number for email', { email: 42 }, /email/],
    ])('answers 400 with a message for %s', async (_, body, message) => {
      const response = await post(`${base}/recently-viewed-videos`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const response = await app.inject({
        method: 'POST',
        url: `${base}/recently-viewed-videos`,
        payload: '{"email":',
        headers: { cookie, 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    });

    it('answers 404 when nobody matches', async () => {
      const response = await post(`${base}/recently-viewed-videos`, { email: 'ghost@studio.test', mb_client_id: '555555' });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/No client matches/);
    });
  });

  describe('POST favorites-videos', () => {
    it('answers the favorites (newest first, deleted videos left out) with spec fields', async () => {
      const response = await post(`${base}/favorites-videos`, { email: 'kim.park@studio.test', mb_client_id: '100777' });
      expect(response.statusCode).toBe(200);
      expect(FavoritesResponse.parse(response.json())).toEqual({
        videos: [
          { vimeo_video_id: '9002', title: 'HIIT Blast', instructor: null, duration: 45 },
          { vimeo_video_id: '9001', title: 'Sunrise Yoga', instructor: 'Mara', duration: 1500 },
        ],
      });
    });

    it('answers 400 for a bad body', async () => {
      const response = await post(`${base}/favorites-videos`, { email: ['x'] });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('GET purchases', () => {
    it('answers the purchases newest first with the level name', async () => {
      const response = await get(`${base}/-99/100777/purchases?email=kim.park%40studio.test`);
      expect(response.statusCode).toBe(200);
      const body = PurchasesResponse.parse(response.json());
      expect(body.errors).toEqual([]);
      expect(body.purchases).toEqual([
        {
          revenue_cat_user_id: 'rc_kim',
          name: 'VOD | PREMIUM',
          subscription_identifier: 'vod_premium_monthly',
          upsell_source: 'onboarding',
          purchased_at: '2026-11-01T00:00:00.000Z',
          expires_at: '2026-12-01T00:00:00.000Z',
          subscription_status: 'active',
          environment: null,
        },
        expect.objectContaining({ name: 'VOD | BASIC', subscription_status: 'expired' }),
      ]);
    });

    it('finds the client by MindBody id at the site when the e-mail is empty', async () => {
      expect((await get(`${base}/-99/100777/purchases?email=`)).json().purchases).toHaveLength(2);
      expect((await get(`${base}/5739/100777/purchases`)).json().purchases).toEqual([]);
    });

    it('answers 404 for a MindBody id unknown at that site, 400 with nothing to go on', async () => {
      expect((await get(`${base}/1234/100777/purchases`)).statusCode).toBe(404);
      const response = await get(`${base}/null/undefined/purchases?email=`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/Identify the client/);
    });
  });

  describe('GET debug', () => {
    it('answers page 1 of 10 newest first with every debug field', async () => {
      const response = await get(`${base}/-99/100777/kim.park%40studio.test/debug?page=1&limit=10`);
      expect(response.statusCode).toBe(200);
      const { debugInfo } = DebugResponse.parse(response.json());
      expect(debugInfo).toHaveLength(10);
      expect(debugInfo[0]).toEqual({
        email: 'kim.park@studio.test',
        mb_client_id: '100777',
        app_access_level: 'VOD | BASIC',
        firebase_token_new: 'new-1',
        firebase_token_current: 'cur-1',
        platform: 'ios',
        platform_version: '18.1',
        is_ipad: false,
        screen_width: 1179,
        screen_height: 2556.5,
        device_width: 393,
        device_height: 852,
        ip: '203.0.113.1',
        app_version: '3.1',
        sent_at: '2026-11-21T12:00:00.000Z',
        device_constants: { deviceName: 'iPhone', n: 1 },
        network_info: { type: 'wifi' },
      });
      expect(debugInfo[2]!.is_ipad).toBe(true);
    });

    it('honours page and limit, and caps limit at 100', async () => {
      const second = (await get(`${base}/-99/100777/kim.park%40studio.test/debug?page=2&limit=5`)).json().debugInfo;
      expect(second.map((r: { app_version: string }) => r.app_version)).toEqual(['3.6', '3.7', '3.8', '3.9', '3.10']);
      expect((await get(`${base}/-99/100777/kim.park%40studio.test/debug?page=1&limit=1000`)).json().debugInfo).toHaveLength(100);
      expect((await get(`${base}/-99/100777/kim.park%40studio.test/debug?page=99&limit=10`)).json().debugInfo).toEqual([]);
    });

    it('defaults to page 1, limit 10, and answers 400 for a bad page', async () => {
      expect((await get(`${base}/-99/100777/kim.park%40studio.test/debug`)).json().debugInfo).toHaveLength(10);
      const response = await get(`${base}/-99/100777/kim.park%40studio.test/debug?page=0`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/page must be a whole number from 1/);
    });

    it('answers an empty list for a client without records', async () => {
      expect((await get(`${base}/5739/100777/lee%40studio.test/debug?page=1&limit=10`)).json()).toEqual({ debugInfo: [] });
    });
  });

  describe('GET contracts', () => {
    it('answers the stored contracts, newest first, with autopay events as { ChargeAmount, ScheduleDate } by date', async () => {
      const response = await get(`${base}/-99/100777/contracts`);
      expect(response.statusCode).toBe(200);
      const body = ContractsResponse.parse(response.json());
      expect(body.errors).toEqual([]);
      expect(body.contracts).toEqual([
        {
          agreement_date: '2026-01-05T00:00:00.000Z',
          autopay_status: 'Active',
          contract_name: 'Unlimited Monthly',
          end_date: '2027-01-05T00:00:00.000Z',
          id: 5001,
          original_location_id: 1,
          start_date: '2026-01-05T00:00:00.000Z',
          site_id: -99,
          upcoming_autopay_events: [
            { ChargeAmount: 129.5, ScheduleDate: '2026-12-01T00:00:00' },
            { ChargeAmount: 129, ScheduleDate: '2027-01-01T00:00:00' },
          ],
          contract_id: 101,
          termination_date: null,
        },
        expect.objectContaining({ id: 5002, termination_date: '2025-06-15T00:00:00.000Z', upcoming_autopay_events: [] }),
      ]);
    });

    it('answers an empty list for a client without a MindBody id, 404 for an unknown one', async () => {
      expect((await get(`${base}/null/N%2FA/contracts`)).json()).toEqual({ errors: [], contracts: [] });
      expect((await get(`${base}/-99/42/contracts`)).json()).toEqual({ errors: [], contracts: [] });
      expect((await get(`${base}/5739/100777/contracts`)).json()).toEqual({ errors: [], contracts: [] });
      const unknown = await get(`${base}/-99/31337/contracts`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/No client matches/);
    });
  });

  it('keeps Lee and Kim apart although they share a MindBody id', async () => {
    expect(lee).not.toBe(kim);
    const kims = (await post(`${base}/favorites-videos`, { mb_client_id: '100777' })).json().videos;
    expect(kims).toHaveLength(2);
    const lees = (await post(`${base}/favorites-videos`, { email: 'lee@studio.test', mb_client_id: '100777' })).json().videos;
    expect(lees).toEqual([]);
  });
});
