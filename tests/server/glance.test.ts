import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { planRenews, platformsOf } from '../../server/src/clients/glanceRules';
import { ClientGlance } from '@contract/glance';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, insertVideo } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

describe('at a glance rules', () => {
  it('says renews for running subscriptions and names an iPad apart', () => {
    expect(planRenews('active')).toBe(true);
    expect(planRenews('cancelled')).toBe(false);
    expect(planRenews(null)).toBe(false);
    expect(
      platformsOf([
        { platform: 'ios', is_ipad: true },
        { platform: 'ios', is_ipad: false },
        { platform: 'Android', is_ipad: null },
        { platform: 'ios', is_ipad: false },
        { platform: null, is_ipad: false },
      ]),
    ).toEqual(['android', 'ios', 'ipad']);
  });
});

describe.each(testDatabases())('client at a glance on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let ada: number;
  let eve: number;
  const clock = testClock(NOW);
  const glance = (id: number | string, who = cookie) => app.inject({ method: 'GET', url: `/api/admin/v1/clients/${id}/glance`, headers: { cookie: who } });

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    ada = await insertClient(database, {
      first_name: 'Ada',
      email_address: 'ada@studio.test',
      mb_client_id: '100123',
      client_status: 'Active',
      first_login: new Date(ago(400)),
      vod_access_level: 3,
      admin_updated_expiration: new Date(ago(-5)),
    });
    eve = await insertClient(database, { first_name: 'Eve' });
    await database.query(
      `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, attendance, signed_in, missed, imported_at) VALUES
       ($1, -99, 1, 'Vinyasa Flow', $2, 'x', true, false, $2), ($1, -99, 2, 'Spin', $3, 'x', false, true, $3), ($1, -99, 3, 'Tomorrow', $4, 'x', true, false, $3)`,
      [ada, ago(3), ago(1), ago(-1)],
    );
    const video = await insertVideo(database, { title: 'Sunrise Yoga', vimeo_video_id: '9001' });
    await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [ada, video, ago(2)]);
    await database.query(
      `INSERT INTO purchases (client_id, access_level_id, subscription_identifier, purchased_at, expires_at, subscription_status) VALUES
       ($1, 3, 'premium_monthly', $2, $3, 'active'), ($1, 2, 'basic_monthly', $4, $5, 'expired')`,
      [ada, ago(10), ago(-20), ago(100), ago(70)],
    );
    await database.query(
      `INSERT INTO debug_records (client_id, email, firebase_token_new, platform, is_ipad, sent_at) VALUES
       ($1, 'ada@studio.test', 'live-token', 'ios', true, $2), ($1, 'ada@studio.test', 'dead-token', 'android', false, $2)`,
      [ada, ago(1)],
    );
    await database.query(`INSERT INTO dead_push_tokens (token, code) VALUES ('dead-token', 'UNREGISTERED')`);
    await database.query(`INSERT INTO client_tags (client_id, tag) VALUES ($1, 'vip'), ($1, 'early bird')`, [ada]);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sums the client up: last class attended, last stream, plan apart from the override, devices, tags', async () => {
    const response = await glance(ada);
    expect(response.statusCode, response.body).toBe(200);
    expect(ClientGlance.parse(response.json())).toEqual({
      member_since: ago(400),
      last_class: { at: ago(3), name: 'Vinyasa Flow' },
      last_stream: { at: ago(2), title: 'Sunrise Yoga' },
      level_name: 'VOD | PREMIUM',
      plan: { name: 'VOD | PREMIUM', product: 'premium_monthly', status: 'active', renews: true, ends_at: ago(-20) },
      override_ends_at: ago(-5),
      lifetime_purchases: 2,
      platforms: ['android', 'ipad'],
      push_reachable: true,
      mindbody_status: 'Active',
      mindbody_linked: true,
      tags: ['early bird', 'vip'],
    });
    // Only the dead token left: no push reaches her.
    await database.query(`INSERT INTO dead_push_tokens (token, code) VALUES ('live-token', 'UNREGISTERED')`);
    expect((await glance(ada)).json().push_reachable).toBe(false);
  });

  it('answers a client with nothing yet, 404 for an unknown one, and 400/403 for bad calls', async () => {
    const nothing = (await glance(eve)).json();
    expect(nothing).toMatchObject({
      last_class: null,
      last_stream: null,
      plan: null,
      override_ends_at: null,
      lifetime_purchases: 0,
      platforms: [],
      push_reachable: false,
      mindbody_status: 'Pending',
      mindbody_linked: false,
      tags: [],
    });
    expect((await glance(999_999)).statusCode).toBe(404);
    for (const id of ['abc', '0', '-3', '%00']) expect((await glance(id)).statusCode, id).toBe(400);
    const content = await signIn(app, { email: 'content@studio.test', password: 'correct horse battery', role: 'content' });
    expect((await glance(ada, content)).statusCode).toBe(403);
  });
});
