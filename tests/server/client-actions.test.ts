import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ContractSyncResponse, FavoritesUpdateResponse, PushNotificationResponse, UpdateAccessLevelResponse } from '@contract/clientActions';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, insertVideo } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const base = '/api/client/v1/client-details';

describe.each(testDatabases())('client actions on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let kim: number;
  let noToken: number;
  const clock = testClock(NOW);

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie, ...headers } });
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const favorites = async () =>
    (await post(`${base}/favorites-videos`, { email: 'kim@studio.test' })).json().videos.map((v: { vimeo_video_id: string }) => v.vimeo_video_id);
  const snapshot = () => database.query('SELECT * FROM clients ORDER BY id');

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    kim = await insertClient(database, {
      first_name: 'Kim',
      email_address: 'Kim@Studio.test',
      mb_client_id: '100777',
      mb_site_id: -99,
      vod_access_level: 1,
      client_status: 'Active',
    });
    noToken = await insertClient(database, {
      first_name: 'Noa',
      email_address: 'noa@studio.test',
      mb_client_id: '100778',
      mb_site_id: -99,
      vod_access_level: 2,
    });
    await insertVideo(database, { title: 'Sunrise Yoga', vimeo_video_id: '9001', category: 'Yoga', instructor: 'Mara' });
    await insertVideo(database, { title: 'HIIT Blast', vimeo_video_id: '9002', category: 'HIIT' });
    await insertVideo(database, { title: 'Old Stretch', vimeo_video_id: '9003', category: 'Yoga', deleted: true });
    await database.query(
      `INSERT INTO debug_records (client_id, email, firebase_token_new, firebase_token_current, platform, is_ipad, sent_at)
       VALUES ($1, 'kim@studio.test', 'kim-token-old', NULL, 'ios', false, $2), ($1, 'kim@studio.test', 'kim-token', 'kim-token-old', 'ios', false, $3)`,
      [kim, new Date(NOW.getTime() - 5 * DAY).toISOString(), new Date(NOW.getTime() - DAY).toISOString()],
    );
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  describe('favorites-videos-update', () => {
    const update = (update_type: string, vimeo_video_id = '9001', who: object = { email_address: 'kim@studio.test', mb_client_id: '100777' }) =>
      post(`${base}/favorites-videos-update`, { vimeo_video_id, ...who, video_category_id: 30, update_type });

    it('adds a favorite once, however often it is added', async () => {
      for (let i = 0; i < 2; i++) {
        const response = await update('add');
        expect(response.statusCode).toBe(200);
        expect(FavoritesUpdateResponse.parse(response.json())).toEqual({ errors: [] });
      }
      expect(await favorites()).toEqual(['9001']);
      const [row] = await database.query<{ video_category_id: number }>('SELECT video_category_id FROM favorites WHERE client_id = $1', [kim]);
      expect(row!.video_category_id).toBe(30);
    });

    it('finds the client by MindBody id alone', async () => {
      expect((await update('add', '9002', { email_address: null, mb_client_id: '100777' })).json()).toEqual({ errors: [] });
      expect(await favorites()).toEqual(['9002', '9001']);
    });

    it('removes a favorite, and removing it again is no error', async () => {
      for (let i = 0; i < 2; i++) expect((await update('remove', '9002')).json()).toEqual({ errors: [] });
      expect(await favorites()).toEqual(['9001']);
    });

    it('answers an errors entry and changes nothing for an unknown video or client', async () => {
      const unknownVideo = (await update('add', '123456')).json();
      expect(unknownVideo.errors).toEqual([{ path: 'vimeo_video_id', message: 'No video with Vimeo id 123456 in the library', code: 'unknown_video' }]);
      const deletedVideo = (await update('add', '9003')).json();
      expect(deletedVideo.errors[0].code).toBe('unknown_video');
      const unknownClient = (await update('remove', '9001', { email_address: 'nobody@studio.test' })).json();
      expect(unknownClient.errors).toEqual([
        { path: 'email_address', message: 'No client matches that email_address or mb_client_id', code: 'unknown_client' },
      ]);
      expect(await favorites()).toEqual(['9001']);
    });

    it('refuses malformed bodies with 400 and a message', async () => {
      const cases: [object, RegExp][] = [
        [{ email_address: 'kim@studio.test', update_type: 'add' }, /vimeo_video_id is required/],
        [{ vimeo_video_id: '9001', email_address: 'kim@studio.test', update_type: 'toggle' }, /update_type must be 'add' or 'remove'/],
        [{ vimeo_video_id: '9001', email_address: 'kim@studio.test', update_type: 'add', video_category_id: 31 }, /video_category_id must be 30/],
        [{ vimeo_video_id: '9001', email_address: 'null', mb_client_id: '12', update_type: 'add' }, /email_address or mb_client_id/],
      ];
      for (const [body, message] of cases) {
        const response = await post(`${base}/favorites-videos-update`, body);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(message);
      }
      expect(await favorites()).toEqual(['9001']);
    });
  });

  describe('update-access-level', () => {
    const grant = (body: object) => post(`${base}/update-access-level`, body);

    it('grants a level until the date, remembering the level it replaced', async () => {
      const until = new Date(NOW.getTime() + DAY).toISOString();
      const response = await grant({ client_id: kim, new_vod_access_level: 3, adminOverrideDate: until });
      expect(response.statusCode).toBe(200);
      const body = UpdateAccessLevelResponse.parse(response.json());
      expect(body.errors).toEqual([]);
      expect(body.client).toMatchObject({ _id: kim, vod_access_level: 3, name: 'VOD | PREMIUM', admin_updated_expiration: until });
      const details = (await get(`/api/client/v1/client-details/${kim}`)).json().client[0];
      expect(details).toMatchObject({ vod_access_level: 3, admin_updated_expiration: '2026-11-23T12:00:00.000Z' });
      const [row] = await database.query<{ admin_replaced_access_level: number }>('SELECT admin_replaced_access_level FROM clients WHERE id = $1', [kim]);
      expect(row!.admin_replaced_access_level).toBe(1);
    });

    it('is idempotent, and a second grant keeps the level from before any override', async () => {
      const until = new Date(NOW.getTime() + 7 * DAY).toISOString();
      for (const level of [2, 2]) {
        const response = await grant({ client_id: String(kim), new_vod_access_level: String(level), adminOverrideDate: until });
        expect(response.json().client).toMatchObject({ vod_access_level: 2, admin_updated_expiration: until });
      }
      const [row] = await database.query<{ admin_replaced_access_level: number }>('SELECT admin_replaced_access_level FROM clients WHERE id = $1', [kim]);
      expect(row!.admin_replaced_access_level).toBe(1);
    });

    it('refuses an unknown client, an unknown level and dates out of range, changing nothing', async () => {
      const before = await snapshot();
      const ok = new Date(NOW.getTime() + DAY).toISOString();
      const cases: [object, number, RegExp][] = [
        [{ client_id: 999999, new_vod_access_level: 2, adminOverrideDate: ok }, 404, /No client with id 999999/],
        [{ client_id: kim, new_vod_access_level: 9, adminOverrideDate: ok }, 400, /new_vod_access_level 9 is not an access level \(levels: 1, 2, 3\)/],
        [{ client_id: kim, new_vod_access_level: 2, adminOverrideDate: new Date(NOW.getTime() - 1000).toISOString() }, 400, /must be in the future/],
        [{ client_id: kim, new_vod_access_level: 2, adminOverrideDate: new Date(NOW.getTime() + 366 * DAY).toISOString() }, 400, /at most 365 days ahead/],
        [{ client_id: kim, new_vod_access_level: 2, adminOverrideDate: 'next week' }, 400, /adminOverrideDate must be an ISO 8601 date/],
        [{ client_id: 'abc', new_vod_access_level: 2, adminOverrideDate: ok }, 400, /client_id must be/],
        [{ client_id: kim, adminOverrideDate: ok }, 400, /new_vod_access_level/],
      ];
      for (const [body, status, message] of cases) {
        const response = await grant(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().message).toMatch(message);
        expect(response.json().errors?.length).toBeGreaterThan(0);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('accepts the longest choice, 4 weeks from now', async () => {
      const response = await grant({ client_id: noToken, new_vod_access_level: 3, adminOverrideDate: new Date(NOW.getTime() + 28 * DAY).toISOString() });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('push-notification', () => {
    const push = (body: object, headers: Record<string, string> = {}) => post(`${base}/push-notification`, body, headers);

    it("sends to the token of the client's newest debug record and records the push", async () => {
      const response = await push({ notification: { title: 'Great class', body: 'See you Monday' }, mb_client_id: '100777', email_address: 'kim@studio.test' });
      expect(response.statusCode).toBe(200);
      const body = PushNotificationResponse.parse(response.json());
      expect(body).toMatchObject({ updated: true, results: [{ token: 'kim-token', outcome: 'sent' }] });
      const list = await get(`/api/admin/v1/pushes?filter=${encodeURIComponent(JSON.stringify({ client_id: kim }))}&range=[0,9]`);
      expect(list.headers['content-range']).toBe('pushes 0-0/1');
      expect(list.json()[0]).toMatchObject({ client_id: kim, sent_by: 'coach@studio.test', title: 'Great class', body: 'See you Monday', status: 'sent' });
    });

    it('answers updated: false and why when the client has no token', async () => {
      const response = await push({ notification: { title: 'Hi', body: 'Noa' }, email_address: 'noa@studio.test' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ updated: false, results: [] });
      expect(response.json().message).toMatch(/no device token/);
      const [recorded] = (await get(`/api/admin/v1/pushes?filter=${encodeURIComponent(JSON.stringify({ client_id: noToken }))}`)).json();
      expect(recorded).toMatchObject({ status: 'no_token', sent_by: 'coach@studio.test' });
    });

    it('pushes once per Idempotency-Key', async () => {
      const body = { notification: { title: 'Once', body: 'only once' }, email_address: 'kim@studio.test' };
      const first = (await push(body, { 'idempotency-key': 'modal-0001' })).json();
      const second = (await push(body, { 'idempotency-key': 'modal-0001' })).json();
      expect(second).toEqual(first);
      const rows = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM pushes WHERE title = 'Once'");
      expect(rows[0]!.n).toBe(1);
    });

    it('refuses malformed bodies with 400 and an unknown client with 404, recording nothing', async () => {
      const [before] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM pushes');
      const cases: [object, number, RegExp][] = [
        [{ email_address: 'kim@studio.test' }, 400, /notification is required/],
        [{ notification: { title: 'x', body: '   ' }, email_address: 'kim@studio.test' }, 400, /notification.body must not be empty/],
        [{ notification: { title: 'x', body: 'y'.repeat(1001) }, email_address: 'kim@studio.test' }, 400, /at most 1000 characters/],
        [{ notification: { title: 'x', body: 'y' } }, 400, /email_address or mb_client_id/],
        [{ notification: { title: 'x', body: 'y' }, email_address: 'nobody@studio.test' }, 404, /No client matches/],
      ];
      for (const [body, status, message] of cases) {
        const response = await push(body);
        expect(response.statusCode, JSON.stringify(body)).toBe(status);
        expect(response.json().message).toMatch(message);
      }
      const [after] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM pushes');
      expect(after!.n).toBe(before!.n);
    });
  });

  describe('contract sync (sandbox Mindbody)', () => {
    it('stores the contracts Mindbody lists and answers them with the spec fields, the same on a repeat', async () => {
      const first = await get('/api/v1/sync/contracts/-99/100777');
      expect(first.statusCode).toBe(200);
      const body = ContractSyncResponse.parse(first.json());
      expect(body.errors).toEqual([]);
      expect(body.mbContracts.length).toBeGreaterThan(0);
      expect(Object.keys(body.mbContracts[0]!).sort()).toEqual(
        [
          'agreement_date',
          'autopay_status',
          'contract_id',
          'contract_name',
          'end_date',
          'id',
          'original_location_id',
          'site_id',
          'start_date',
          'termination_date',
          'upcoming_autopay_events',
        ].sort(),
      );
      const stored = (await get('/api/client/v1/client-details/-99/100777/contracts')).json().contracts;
      expect(stored).toEqual(body.mbContracts);
      const again = ContractSyncResponse.parse((await get('/api/v1/sync/contracts/-99/100777')).json());
      expect(again.mbContracts).toEqual(body.mbContracts);
    });

    it("uses the client's stored site when the console has none", async () => {
      const response = await get('/api/v1/sync/contracts/null/100778');
      expect(response.statusCode).toBe(200);
      expect(ContractSyncResponse.parse(response.json()).mbContracts.every((c) => c.site_id === -99)).toBe(true);
    });

    it('answers 404 for an unknown client and 400 for bad ids', async () => {
      expect((await get('/api/v1/sync/contracts/-99/555555')).statusCode).toBe(404);
      const bad = await get('/api/v1/sync/contracts/abc/100777');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/siteId must be a MindBody site id/);
      expect((await get('/api/v1/sync/contracts/-99/12')).json().message).toMatch(/longer than 2 characters/);
    });
  });

  describe('audit log (what the tests above did to Kim)', () => {
    type Entry = {
      action: string;
      staff_email: string | null;
      client_id: number | null;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    };
    const history = async (action: string): Promise<Entry[]> => {
      const filter = encodeURIComponent(JSON.stringify({ client_id: kim, action }));
      const response = await get(`/api/admin/v1/audit?filter=${filter}&range=[0,99]`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };

    it('records each favorite that changed, once, with who did it, and not the repeats that changed nothing', async () => {
      const added = await history('client.favorite_add');
      expect(added.map((entry) => entry.after!.vimeo_video_id).sort()).toEqual(['9001', '9002']);
      expect(added.every((entry) => entry.staff_email === 'coach@studio.test' && entry.before === null)).toBe(true);
      const removed = await history('client.favorite_remove');
      expect(removed.map((entry) => entry.before!.vimeo_video_id)).toEqual(['9002']);
    });

    it('records pushes and contract syncs with their outcome', async () => {
      const pushes = await history('client.push');
      expect(pushes.find((entry) => entry.after!.title === 'Great class')).toMatchObject({
        staff_email: 'coach@studio.test',
        after: { body: 'See you Monday', updated: true },
      });
      const syncs = await history('client.contracts_sync');
      expect(syncs.length).toBeGreaterThanOrEqual(2);
      expect(syncs[0]!.after).toMatchObject({ outcome: 'stored' });
    });
  });
});
