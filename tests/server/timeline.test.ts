import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { recordAudit } from '../../server/src/audit/record';
import { afterCursorCondition, parseTimelineCursor, revenueCatEvent } from '../../server/src/clients/timelineRules';
import { TIMELINE_SOURCES } from '../../server/src/clients/timelineQueries';
import { TimelineResponse, type TimelineEntry } from '@contract/timeline';
import { overrideEnd } from '@contract/clientRules';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient, insertVideo } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

describe('timeline rules', () => {
  it('reads its cursor, continues each source after it, and names RevenueCat events', () => {
    expect(parseTimelineCursor('2026-11-22T12:00:00.123456Z~3~42')).toEqual({ at: '2026-11-22T12:00:00.123456Z', src: 3, id: 42 });
    expect(parseTimelineCursor('2026-11-22T12:00:00Z')).toEqual({ at: '2026-11-22T12:00:00Z', src: null, id: null });
    expect(parseTimelineCursor('2026-13-45T12:00:00Z~1~1')).toBeNull();
    const cursor = { at: 'x', src: 3, id: 42 };
    const p = { at: '$3', id: '$4' };
    expect(afterCursorCondition(2, cursor, 'at', 'id', p)).toBe('at <= $3');
    expect(afterCursorCondition(4, cursor, 'at', 'id', p)).toBe('at < $3');
    expect(afterCursorCondition(3, cursor, 'at', 'id', p)).toBe('(at, id) < ($3, $4)');
    expect(afterCursorCondition(3, null, 'at', 'id', p)).toBe('TRUE');
    expect(revenueCatEvent('CANCELLATION', 'CUSTOMER_SUPPORT')).toBe('purchase.refund');
    expect(revenueCatEvent('CANCELLATION', 'UNSUBSCRIBE')).toBe('purchase.cancellation');
    expect(revenueCatEvent('RENEWAL', null)).toBe('purchase.renewal');
    expect(revenueCatEvent('SUBSCRIPTION_PAUSED', null)).toBe('purchase.other');
  });

  it('gives every source its own number: the cursor and the entry ids name the source by it', () => {
    const numbers = TIMELINE_SOURCES.map((source) => source.src);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
  });
});

describe.each(testDatabases())('client timeline on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let ada: number;
  let empty: number;
  const clock = testClock(NOW);

  const timeline = (id: number | string, query = '', who = cookie) =>
    app.inject({ method: 'GET', url: `/api/admin/v1/clients/${id}/timeline${query}`, headers: { cookie: who } });
  const page = async (id: number, query = '') => {
    const response = await timeline(id, query);
    expect(response.statusCode, response.body).toBe(200);
    return TimelineResponse.parse(response.json());
  };

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@studio.test', vod_access_level: 1 });
    empty = await insertClient(database, { first_name: 'Eve', email_address: 'eve@studio.test' });
    const visit = (id: number, at: string, flags: string, name: string) =>
      database.query(
        `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, attendance, signed_in, missed, late_cancelled, imported_at)
         VALUES ($1, -99, $2, $3, $4, 'x', $5, $6, $7, $4)`,
        [ada, id, name, at, flags === 'in', flags === 'missed', flags === 'late'],
      );
    await visit(1, ago(10), 'in', 'Vinyasa Flow');
    await visit(2, ago(9), 'missed', 'Spin');
    await visit(3, ago(8), 'late', 'Barre');
    await visit(4, new Date(NOW.getTime() + DAY).toISOString(), 'booked', 'Tomorrow');
    // A stream at the very instant of a visit: both appear once across pages.
    const video = await insertVideo(database, { title: 'Sunrise Yoga', vimeo_video_id: '9001' });
    await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3), ($1, $2, $4)', [ada, video, ago(10), ago(7)]);
    await database.query(
      `INSERT INTO purchases (client_id, access_level_id, subscription_identifier, purchased_at, expires_at, subscription_status) VALUES ($1, 2, 'basic_monthly', $2, $3, 'active')`,
      [ada, ago(6), ago(-24)],
    );
    for (const [n, type, reason, at] of [
      [1, 'RENEWAL', null, ago(5)],
      [2, 'CANCELLATION', 'CUSTOMER_SUPPORT', ago(4.5)],
      [3, 'INITIAL_PURCHASE', null, ago(6)],
    ] as const) {
      await database.query(
        `INSERT INTO revenuecat_events (event_id, type, event_at, body, received_at, client_id, state) VALUES ($1, $2, $3, $4, $3, $5, 'processed')`,
        [`ev-${n}`, type, at, JSON.stringify({ event: { product_id: 'basic_monthly', cancel_reason: reason } }), ada],
      );
    }
    await database.query(
      `INSERT INTO pushes (client_id, sent_by, source, title, body, status, created_at) VALUES ($1, 'coach@studio.test', 'console', 'Hi Ada', 'See you Monday', 'sent', $2), ($1, 'automated', 'high-five', 'High five!', '10 classes', 'sent', $3)`,
      [ada, ago(4), ago(3.5)],
    );
    await recordAudit(database, {
      staff: { id: 1, email: 'desk@studio.test' },
      action: 'client.contracts_sync',
      target_type: 'client',
      target_id: ada,
      client_id: ada,
      after: { outcome: 'stored', contracts: 2 },
      at: new Date(ago(3)),
    });
    // A 60-day override with a reason, granted then ended by staff, through the API.
    clock.set(new Date(ago(2)));
    const grantCookie = await signIn(app);
    const granted = await app.inject({
      method: 'POST',
      url: '/api/client/v1/client-details/update-access-level',
      headers: { cookie: grantCookie },
      payload: { client_id: ada, new_vod_access_level: 3, adminOverrideDate: overrideEnd(60, clock.now()).toISOString(), reason: 'Injury: free month' },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    clock.set(new Date(ago(1)));
    const ended = await app.inject({ method: 'DELETE', url: `/api/admin/v1/clients/${ada}/override`, headers: { cookie: await signIn(app) } });
    expect(ended.statusCode, ended.body).toBe(200);
    clock.set(NOW);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('tells the whole story newest first, with the reason and who did it', async () => {
    const { entries, next } = await page(ada);
    expect(next).toBeNull();
    const summary = entries.map((entry) => [entry.event, entry.title, entry.detail, entry.by]);
    // The override's end is its own field (the console writes it in the studio's date format).
    expect(entries.filter((entry) => entry.kind === 'override').map((entry) => entry.until)).toEqual([null, overrideEnd(60, new Date(ago(2))).toISOString()]);
    expect(summary).toEqual([
      ['override.ended', 'VOD | BASIC', null, 'coach@studio.test'],
      ['override.granted', 'VOD | PREMIUM', 'Injury: free month', 'coach@studio.test'],
      ['contract_sync.stored', '2', null, 'desk@studio.test'],
      ['push.automated', 'High five!', '10 classes', null],
      ['push.staff', 'Hi Ada', 'See you Monday', 'coach@studio.test'],
      ['purchase.refund', 'basic_monthly', 'CUSTOMER_SUPPORT', null],
      ['purchase.renewal', 'basic_monthly', null, null],
      ['purchase.purchased', 'VOD | BASIC', 'active', null],
      ['stream.played', 'Sunrise Yoga', null, null],
      ['visit.late_cancelled', 'Barre', null, null],
      ['visit.missed', 'Spin', null, null],
      ['stream.played', 'Sunrise Yoga', null, null],
      ['visit.signed_in', 'Vinyasa Flow', null, null],
    ]);
    expect(entries[0]!.at).toBe(ago(1));
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect((await page(empty)).entries).toEqual([]);
  });

  it('pages with next, each entry once, and filters by kind', async () => {
    const all = (await page(ada)).entries;
    const seen: TimelineEntry[] = [];
    let before: string | null = null;
    do {
      const result: { entries: TimelineEntry[]; next: string | null } = await page(ada, `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      seen.push(...result.entries);
      before = result.next;
    } while (before);
    expect(seen).toEqual(all);

    const overrides = await page(ada, '?kinds=override,visit');
    expect(overrides.entries.map((entry) => entry.kind)).toEqual(['override', 'override', 'visit', 'visit', 'visit']);
    const older = await page(ada, `?kinds=stream&before=${encodeURIComponent(ago(8))}`);
    expect(older.entries.map((entry) => entry.at)).toEqual([ago(10)]);
  });

  it('refuses bad input and other roles, and answers 404 for a client that does not exist', async () => {
    for (const query of ['?kinds=nope', '?before=yesterday', '?before=2026-11-22T12:00:00Z~x~1', '?limit=0', '?limit=101', '?limit=ten', '?kinds=visit%00']) {
      const response = await timeline(ada, query);
      expect(response.statusCode, query).toBe(400);
    }
    for (const id of ['abc', '0', '1.5']) expect((await timeline(id)).statusCode, id).toBe(400);
    const missing = await timeline(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/No client with id 999999/);
    const content = await signIn(app, { email: 'content@studio.test', password: 'correct horse battery', role: 'content' });
    expect((await timeline(ada, '', content)).statusCode).toBe(403);
  });
});
