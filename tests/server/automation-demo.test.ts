import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { seedDemoData } from '../../server/seed/demo';
import { localDay, localParts } from '../../server/src/lib/localTime';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';

const SEEDED_AT = new Date('2026-11-22T12:00:00Z'); // a Sunday
const WEEK_END = new Date('2026-11-29T12:00:00Z');
const ZONE = 'America/New_York';
const STEP_MINUTES = 30;

/**
 * 'How it will be checked': on the demo data with the sandbox FCM, a week on the clock produces the
 * expected pushes per type, none in quiet hours, nobody over the daily cap, and a second worker
 * running alongside sends nothing twice. The week's classes (what the Mindbody import brings) are
 * added by hand instead of the seed's: a third of the clients take a class a day.
 */
describe.each(testDatabases())('automated messages over a demo week on $name', ({ open }) => {
  let database: Database;
  let first: FastifyInstance;
  let second: FastifyInstance;
  const clock = testClock(SEEDED_AT);

  beforeAll(async () => {
    database = await open();
    await seedDemoData(database, { clients: 240, videos: 20, viewsPerClient: 6, visitsPerClient: 0, now: SEEDED_AT });
    // Classes at 07:00, 12:00, 18:00 and 20:00 New York time (12:00, 17:00, 23:00, 01:00 UTC); mostly
    // attended, some no-shows, some late cancellations (changed two hours before the class).
    await database.execScript(`
      INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, end_at, attendance, signed_in, missed, late_cancelled, last_modified_at, imported_at)
      SELECT c.id, -99, c.id * 100 + d, (ARRAY['Power Yoga', 'Spin 45', 'HIIT', 'Barre'])[1 + (c.id + d) % 4],
             s, s + interval '50 minutes', k, k = 'signed_in', k = 'missed', k = 'late_cancelled',
             CASE WHEN k = 'late_cancelled' THEN s - interval '2 hours' ELSE s + interval '50 minutes' END, '2026-11-22T12:00:00Z'
      FROM clients c
      CROSS JOIN generate_series(0, 6) AS d
      CROSS JOIN LATERAL (SELECT timestamptz '2026-11-22T12:00:00Z' + make_interval(days => d) + (ARRAY[interval '0 hours', interval '5 hours', interval '11 hours', interval '13 hours'])[1 + (c.id % 4)::int] AS s,
                                 CASE WHEN (c.id + d) % 7 = 0 THEN 'missed' WHEN (c.id + d) % 11 = 0 THEN 'late_cancelled' ELSE 'signed_in' END AS k) x
      WHERE c.id % 3 = 0 AND (c.id + d) % 2 = 0;`);
    const env = { AUTOMATED_MESSAGES_INTERVAL_MINUTES: String(STEP_MINUTES), STUDIO_TIME_ZONE: ZONE };
    first = await createTestApp(database, { clock, env });
    second = await createTestApp(database, { clock, env });
    // From the seeding moment to a week later, both instances polling their job queues while the
    // second also runs the engine directly at the same moment.
    while (clock.now().getTime() < WEEK_END.getTime()) {
      clock.advance(STEP_MINUTES * 60_000);
      await Promise.all([first.jobs.runDue(), second.jobs.runDue(), second.automation.engine.tick()]);
    }
  }, 600_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database.close();
  });

  const rows = () =>
    database.query<{ message_type: number; client_id: number; status: string; skip_reason: string | null; planned_for: Date | string; event_key: string }>(
      'SELECT message_type, client_id::int AS client_id, status, skip_reason, planned_for, event_key FROM automated_pushes',
    );
  const sentPushes = () =>
    database.query<{ client_id: number; created_at: Date | string; data: Record<string, string> }>(
      "SELECT client_id::int AS client_id, created_at, data FROM pushes WHERE sent_by = 'automated' AND status = 'sent'",
    );

  it('produces the expected pushes per type', async () => {
    const all = await rows();
    const of = (type: number) => all.filter((r) => r.message_type === type);
    const inWeek = (at: Date) => at > SEEDED_AT && at <= WEEK_END;

    // High Five: every attended class whose end + 60 minutes falls in the week.
    const attended = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mindbody_visits WHERE signed_in AND end_at + interval '60 minutes' > $1 AND end_at + interval '60 minutes' <= $2`,
      [SEEDED_AT.toISOString(), WEEK_END.toISOString()],
    );
    expect(of(1)).toHaveLength(attended[0]!.n);
    // Missed Class: every no-show whose next New York morning (09:00) falls in the week.
    const missed = await database.query<{ end_at: Date | string }>('SELECT end_at FROM mindbody_visits WHERE missed');
    const nextMorning = (end: Date) => {
      const p = localParts(end, ZONE);
      const day = new Date(Date.UTC(p.year, p.month - 1, p.day + 1, 14)); // 09:00 EST is 14:00 UTC in November
      return day;
    };
    expect(of(2)).toHaveLength(missed.filter((m) => inWeek(nextMorning(new Date(m.end_at)))).length);
    // #notetoself: everyone active in the 30 days before Sunday 18:00 New York (23:00 UTC), once.
    const active = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT client_id FROM video_views WHERE viewed_at > $1 AND viewed_at <= $2
        UNION SELECT client_id FROM mindbody_visits WHERE signed_in AND start_at > $1 AND start_at <= $2) a`,
      ['2026-10-23T23:00:00Z', '2026-11-22T23:00:00Z'],
    );
    expect(of(3)).toHaveLength(active[0]!.n);
    expect(new Set(of(3).map((r) => new Date(r.planned_for).toISOString()))).toEqual(new Set(['2026-11-22T23:00:00.000Z']));
    // Monday Morning: every client with the app, Monday 08:30 New York.
    const withApp = await database.query<{ n: number }>('SELECT count(DISTINCT client_id)::int AS n FROM debug_records WHERE client_id IS NOT NULL');
    expect(of(4)).toHaveLength(withApp[0]!.n);
    expect(new Set(of(4).map((r) => new Date(r.planned_for).toISOString()))).toEqual(new Set(['2026-11-23T13:30:00.000Z']));
    // Cancelled Class: every late cancellation 30 minutes after it was made.
    const cancelled = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mindbody_visits WHERE late_cancelled AND last_modified_at + interval '30 minutes' > $1 AND last_modified_at + interval '30 minutes' <= $2`,
      [SEEDED_AT.toISOString(), WEEK_END.toISOString()],
    );
    expect(of(5)).toHaveLength(cancelled[0]!.n);
    // Extended Absense: at most once per client, only for clients with no class or stream in the 14 days before it.
    expect(of(6).length).toBeGreaterThan(0);
    expect(new Set(of(6).map((r) => r.client_id)).size).toBe(of(6).length);

    for (const type of [1, 2, 3, 4, 5, 6]) {
      expect(of(type).filter((r) => r.status === 'sent').length, `type ${type} sent`).toBeGreaterThan(0);
    }
    // Everything due in the week is finished; the skips have their reasons.
    const unfinished = all.filter(
      (r) => !['sent', 'skipped', 'failed'].includes(r.status) && new Date(r.planned_for) < new Date(WEEK_END.getTime() - 24 * 3_600_000),
    );
    expect(unfinished).toEqual([]);
    expect(new Set(all.filter((r) => r.status === 'skipped').map((r) => r.skip_reason))).toEqual(new Set(['no_token', 'daily_cap']));
  });

  it('sends nothing during quiet hours (21:00-08:00 New York)', async () => {
    const pushes = await sentPushes();
    expect(pushes.length).toBeGreaterThan(100);
    const quiet = pushes.filter((p) => {
      const hour = localParts(new Date(p.created_at), ZONE).hour;
      return hour >= 21 || hour < 8;
    });
    expect(quiet).toEqual([]);
  });

  it('gives no client more than the daily cap', async () => {
    const perDay = new Map<string, number>();
    for (const push of await sentPushes()) {
      const key = `${push.client_id} ${localDay(new Date(push.created_at), ZONE)}`;
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBe(1);
  });

  it('sends nothing twice although a second worker ran alongside', async () => {
    const pushes = await sentPushes();
    const ids = pushes.map((p) => p.data.automated_push_id);
    expect(new Set(ids).size).toBe(ids.length);
    const sent = (await rows()).filter((r) => r.status === 'sent');
    expect(pushes).toHaveLength(sent.length);
  });
});
