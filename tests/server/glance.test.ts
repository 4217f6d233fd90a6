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
    expect(ClientGlance.parse(response.json())).toMatchObject({
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

  it('tells the front desk the phone, visits, days since the last, money spent, the last app open and the classes booked', async () => {
    const bea = await insertClient(database, { first_name: 'Bea', mb_client_id: '100777', mb_site_id: -99 });
    await database.query(`UPDATE clients SET phone = '(555) 010-7777' WHERE id = $1`, [bea]);
    // Four classes signed in to (two in the last 30 days), one missed, two booked ahead and one booked in the past (never attended).
    const visits: [number, string, boolean, boolean, string][] = [
      [11, ago(45), true, false, 'signed_in'],
      [12, ago(200), true, false, 'signed_in'],
      [13, ago(29), true, false, 'signed_in'],
      [14, ago(6.5), true, false, 'signed_in'],
      [15, ago(2), false, true, 'missed'],
      [16, ago(-3), false, false, 'booked'],
      [17, ago(-1), false, false, 'booked'],
      [18, ago(1), false, false, 'booked'],
    ];
    for (const [id, at, signedIn, missed, attendance] of visits) {
      await database.query(
        `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, attendance, signed_in, missed, imported_at)
         VALUES ($1, -99, $2, $3, $4, $5, $6, $7, $8)`,
        [bea, id, `Class ${id}`, at, attendance, signedIn, missed, ago(0)],
      );
    }
    // RevenueCat's price is USD, negative for a refund; a sandbox purchase is not money spent.
    const events: [string, string, number | null, string][] = [
      ['ev-1', 'INITIAL_PURCHASE', 12.99, 'PRODUCTION'],
      ['ev-2', 'RENEWAL', 12.99, 'PRODUCTION'],
      ['ev-3', 'CANCELLATION', -12.99, 'PRODUCTION'],
      ['ev-4', 'INITIAL_PURCHASE', 4.99, 'SANDBOX'],
      ['ev-5', 'BILLING_ISSUE', null, 'PRODUCTION'],
    ];
    for (const [id, type, price, environment] of events) {
      await database.query(
        `INSERT INTO revenuecat_events (event_id, type, environment, event_at, body, received_at, state, client_id) VALUES ($1, $2, $3, $4, $5, $4, 'processed', $6)`,
        [id, type, environment, ago(10), JSON.stringify({ event: { id, type, environment, price } }), bea],
      );
    }
    await database.query(`INSERT INTO debug_records (client_id, platform, sent_at) VALUES ($1, 'ios', $2), ($1, 'ios', $3)`, [bea, ago(4), ago(0.25)]);
    const answer = ClientGlance.parse((await glance(bea)).json());
    expect(answer).toMatchObject({
      phone: '(555) 010-7777',
      visits_total: 4,
      visits_30d: 2,
      days_since_last_visit: 6,
      total_spent_usd: 12.99,
      last_app_open: ago(0.25),
      upcoming_classes: [
        { at: ago(-1), name: 'Class 17' },
        { at: ago(-3), name: 'Class 16' },
      ],
    });
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
      phone: null,
      visits_total: 0,
      visits_30d: 0,
      days_since_last_visit: null,
      total_spent_usd: null,
      last_app_open: null,
      upcoming_classes: [],
    });
    expect((await glance(999_999)).statusCode).toBe(404);
    for (const id of ['abc', '0', '-3', '%00']) expect((await glance(id)).statusCode, id).toBe(400);
    const content = await signIn(app, { email: 'content@studio.test', password: 'correct horse battery', role: 'content' });
    expect((await glance(ada, content)).statusCode).toBe(403);
  });
});
