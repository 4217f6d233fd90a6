import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ConfigError, loadConfig } from '../../server/src/config';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { mapClient, mapContract, mapVisit, parseMindbodyDate } from '../../server/src/integrations/mindbody/mapping';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { addTemplate, recordingSender, resetAutomation } from '../support/automation';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';

const SITE = STAND_IN.siteId;

describe("Mindbody date-times in the site's time zone", () => {
  it("reads a time without an offset as the site's wall-clock time, across daylight saving", () => {
    expect(parseMindbodyDate('2026-11-20T07:00:00', 'America/New_York')).toBe('2026-11-20T12:00:00.000Z'); // EST, UTC-5
    expect(parseMindbodyDate('2026-07-01T07:00:00', 'America/New_York')).toBe('2026-07-01T11:00:00.000Z'); // EDT, UTC-4
    expect(parseMindbodyDate('2026-11-20T07:15:30.1234567', 'Europe/Berlin')).toBe('2026-11-20T06:15:30.123Z');
    expect(parseMindbodyDate('2026-11-20T07:00:00', 'Asia/Kolkata')).toBe('2026-11-20T01:30:00.000Z');
    expect(parseMindbodyDate('2026-11-20T07:00:00')).toBe('2026-11-20T07:00:00.000Z'); // no zone given: UTC
  });

  it("takes a time with an offset as given, whatever the site's zone", () => {
    expect(parseMindbodyDate('2026-11-20T07:00:00Z', 'America/New_York')).toBe('2026-11-20T07:00:00.000Z');
    expect(parseMindbodyDate('2026-11-20T07:00:00-07:00', 'Europe/Berlin')).toBe('2026-11-20T14:00:00.000Z');
    expect(parseMindbodyDate('2026-11-20T07:00:00+0530', 'America/New_York')).toBe('2026-11-20T01:30:00.000Z');
    expect(parseMindbodyDate('0001-01-01T00:00:00', 'America/New_York')).toBeNull();
    expect(parseMindbodyDate('2026-11-20T07:00:00\u0000', 'America/New_York')).toBeNull();
  });

  it('maps visit and client times in the zone, and keeps contract days as Mindbody wrote them', () => {
    const visit = mapVisit(
      { Id: 11, StartDateTime: '2026-11-20T07:00:00', EndDateTime: '2026-11-20T08:00:00', LastModifiedDateTime: '2026-11-19T21:10:00Z', SignedIn: true },
      'America/Los_Angeles',
    );
    expect(visit).toMatchObject({ start_at: '2026-11-20T15:00:00.000Z', end_at: '2026-11-20T16:00:00.000Z', last_modified_at: '2026-11-19T21:10:00.000Z' });
    expect(mapClient(rawClient(1, { LastModifiedDateTime: '2026-01-10T08:00:00' }), 'Europe/London')?.last_modified_at).toBe('2026-01-10T08:00:00.000Z');
    // A real contract sample (quoted in MikeiLL/mz-mindbody-api; docs/integrations.md "Times"): a day stays that day, east of UTC too.
    expect(mapContract({ Id: 5, StartDate: '2020-05-06T00:00:00', EndDate: '2021-05-06T00:00:00' })).toMatchObject({
      start_date: '2020-05-06T00:00:00.000Z',
      end_date: '2021-05-06T00:00:00.000Z',
    });
  });

  it("takes each site's zone from MINDBODY_SITE_TIME_ZONES, else STUDIO_TIME_ZONE, and names a bad entry", () => {
    const config = loadConfig({ STUDIO_TIME_ZONE: 'Europe/London', MINDBODY_SITE_TIME_ZONES: '5739:America/New_York, -99 : Asia/Tokyo' });
    expect(config.mindbodyTimeZoneOf(5739)).toBe('America/New_York');
    expect(config.mindbodyTimeZoneOf(-99)).toBe('Asia/Tokyo');
    expect(config.mindbodyTimeZoneOf(12345)).toBe('Europe/London');
    expect(loadConfig({}).mindbodyTimeZoneOf(5739)).toBe('UTC');
    for (const bad of ['5739', 'New_York:5739', '5739:Mars/Olympus', '5739:America/New_York,']) {
      let error: unknown;
      try {
        loadConfig({ MINDBODY_SITE_TIME_ZONES: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('MINDBODY_SITE_TIME_ZONES');
    }
  });
});

describe.each(testDatabases())('imported visit times drive the automated messages on $name', ({ open }) => {
  let database: Database;
  let standIn: MindbodyStandIn;
  let app: FastifyInstance | undefined;
  const clock = testClock();
  const sender = recordingSender();

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await resetAutomation(database);
    await database.execScript(
      'DELETE FROM mindbody_sync_runs; DELETE FROM mindbody_sync_state; DELETE FROM mindbody_call_days; DELETE FROM jobs; DELETE FROM job_schedules;',
    );
    sender.delivered.length = 0;
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await standIn?.close();
  });

  it("stores a New York site's 9:00 class at 14:00 UTC and sends High Five an hour after it ends there", async () => {
    standIn = await startMindbodyStandIn({
      clients: [rawClient(1)],
      visits: {
        '700001': [
          {
            Id: 31,
            ClassId: 5,
            ClientId: '700001',
            Name: 'Power Yoga',
            StartDateTime: '2026-11-23T09:00:00',
            EndDateTime: '2026-11-23T10:00:00',
            SignedIn: true,
          },
          // An instant with an offset is kept as sent.
          {
            Id: 32,
            ClassId: 6,
            ClientId: '700001',
            Name: 'Spin 45',
            StartDateTime: '2026-11-22T18:00:00Z',
            EndDateTime: '2026-11-22T19:00:00Z',
            SignedIn: false,
            Missed: true,
          },
        ],
      },
    });
    // The app's device report, matched to the client by e-mail when the import creates it.
    await database.query(
      `INSERT INTO debug_records (email, firebase_token_new, platform, sent_at) VALUES ('client1@example.test', 'token-1', 'ios', '2026-11-01T00:00:00Z')`,
    );
    await addTemplate(database, 1, 'High five!', 'Great work in {class_name} today.');
    clock.set(new Date('2026-11-23T15:30:00Z'));
    const mindbody = createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [SITE], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async () => undefined, now: () => clock.now() },
      () => 'America/New_York',
    );
    app = await createTestApp(database, {
      clock,
      mindbody,
      env: { STUDIO_TIME_ZONE: 'America/New_York', AUTOMATED_MESSAGES_INTERVAL_MINUTES: '0' },
      automatedSender: sender,
    });
    const cookie = await signIn(app);
    await app.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: {} });
    await app.jobs.runDue();

    const visits = await database.query<{ mb_visit_id: number; start_at: Date; end_at: Date }>(
      'SELECT mb_visit_id, start_at, end_at FROM mindbody_visits ORDER BY mb_visit_id',
    );
    expect(visits.map((v) => [v.mb_visit_id, new Date(v.start_at).toISOString(), new Date(v.end_at).toISOString()])).toEqual([
      [31, '2026-11-23T14:00:00.000Z', '2026-11-23T15:00:00.000Z'],
      [32, '2026-11-22T18:00:00.000Z', '2026-11-22T19:00:00.000Z'],
    ]);

    clock.set(new Date('2026-11-23T15:59:00Z'));
    await app.automation.engine.tick();
    expect(sender.delivered).toEqual([]);
    clock.set(new Date('2026-11-23T16:00:00Z'));
    await app.automation.engine.tick();
    expect(sender.delivered.map((d) => [d.title, d.body])).toEqual([['High five!', 'Great work in Power Yoga today.']]);
  });
});
