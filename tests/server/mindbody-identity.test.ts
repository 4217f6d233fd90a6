import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { chooseSurvivor, mergedClientFields, type MergeableClient } from '../../server/src/mindbody/identity';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient, insertVideo } from '../support/clientFixtures';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';

const SITE = STAND_IN.siteId;

describe('which row survives a merge and what it keeps', () => {
  const base: MergeableClient = {
    id: 1,
    vod_access_level: 1,
    purchase_access_level: null,
    admin_updated_expiration: null,
    admin_replaced_access_level: null,
    first_login: null,
    revenue_cat_user_id: null,
    automated_messages_opt_out: false,
    created_at: new Date('2026-01-01T00:00:00Z'),
  };

  it('keeps the oldest row', () => {
    expect(chooseSurvivor([42, 7, 19])).toBe(7);
    expect(chooseSurvivor([5])).toBe(5);
    expect(() => chooseSurvivor([])).toThrow();
  });

  it('keeps the higher levels, the longer override, the first sign-in, an opt-out and a RevenueCat id from either row', () => {
    const survivor = { ...base, vod_access_level: 3, purchase_access_level: 2, revenue_cat_user_id: 'rc_old', first_login: new Date('2026-03-01T00:00:00Z') };
    const merged: MergeableClient = {
      ...base,
      id: 9,
      vod_access_level: 1,
      purchase_access_level: 3,
      admin_updated_expiration: new Date('2026-12-24T00:00:00Z'),
      admin_replaced_access_level: 1,
      first_login: new Date('2026-02-01T00:00:00Z'),
      revenue_cat_user_id: 'rc_new',
      automated_messages_opt_out: true,
      created_at: new Date('2026-06-01T00:00:00Z'),
    };
    expect(mergedClientFields(survivor, merged)).toEqual({
      vod_access_level: 3,
      purchase_access_level: 3,
      admin_updated_expiration: new Date('2026-12-24T00:00:00Z'),
      admin_replaced_access_level: 1,
      first_login: new Date('2026-02-01T00:00:00Z'),
      revenue_cat_user_id: 'rc_old',
      automated_messages_opt_out: true,
      created_at: new Date('2026-01-01T00:00:00Z'),
    });
    // The survivor's own override stays when it runs longer; a missing RevenueCat id is filled in.
    const longer = { ...base, admin_updated_expiration: new Date('2027-01-01T00:00:00Z'), admin_replaced_access_level: 2 };
    expect(mergedClientFields(longer, merged)).toMatchObject({ admin_updated_expiration: new Date('2027-01-01T00:00:00Z'), admin_replaced_access_level: 2 });
    expect(mergedClientFields(base, { ...merged, revenue_cat_user_id: 'rc_only' }).revenue_cat_user_id).toBe('rc_only');
  });
});

describe.each(testDatabases())('Mindbody client identity on $name', ({ open }) => {
  let database: Database;
  let standIn: MindbodyStandIn;
  let app: FastifyInstance | undefined;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    await database.execScript(
      `DELETE FROM mindbody_visits; DELETE FROM mindbody_sync_runs; DELETE FROM mindbody_sync_state; DELETE FROM mindbody_call_days;
       DELETE FROM audit_log; DELETE FROM purchases; DELETE FROM debug_records; DELETE FROM pushes; DELETE FROM clients; DELETE FROM videos; DELETE FROM jobs; DELETE FROM job_schedules;`,
    );
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await standIn?.close();
  });

  async function appAgainstStandIn() {
    const mindbody = createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [SITE], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async () => undefined, now: () => clock.now() },
    );
    app = await createTestApp(database, { clock, mindbody });
  }

  async function runImport(full = false) {
    const cookie = await signIn(app!);
    const started = await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: { full } });
    expect(started.statusCode).toBe(202);
    await app!.jobs.runDue();
    return (await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync', headers: { cookie } })).json();
  }

  const clientsAtSite = () =>
    database.query<{ id: number; mb_client_id: string; mb_unique_id: number | null; vod_access_level: number; first_name: string }>(
      'SELECT id::int AS id, mb_client_id, mb_unique_id::int AS mb_unique_id, vod_access_level, first_name FROM clients WHERE mb_site_id = $1 ORDER BY id',
      [SITE],
    );

  /** Everything we keep about a client besides its row, counted per table. */
  async function historyOf(clientId: number) {
    const count = async (table: string) =>
      Number((await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE client_id = $1`, [clientId]))[0]!.n);
    const tables = ['purchases', 'access_override_history', 'favorites', 'video_views', 'debug_records', 'pushes', 'mindbody_visits', 'audit_log'];
    return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)] as const)));
  }

  /** A client's purchases, override, favorite, view, debug report, push and an audit entry. */
  async function giveHistory(clientId: number, videoId: number) {
    await database.query(
      `INSERT INTO purchases (client_id, revenue_cat_user_id, access_level_id, subscription_identifier, purchased_at, expires_at, subscription_status)
       VALUES ($1, 'rc_1', 3, 'premium_monthly', '2026-10-01T00:00:00Z', '2026-12-31T00:00:00Z', 'active')`,
      [clientId],
    );
    await database.query(
      `INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, granted_by) VALUES ($1, 2, 1, '2026-11-01T00:00:00Z', '2026-11-15T00:00:00Z', 'coach@studio.test')`,
      [clientId],
    );
    await database.query('INSERT INTO favorites (client_id, video_id) VALUES ($1, $2)', [clientId, videoId]);
    await database.query(`INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, '2026-11-20T18:00:00Z')`, [clientId, videoId]);
    await database.query(`INSERT INTO debug_records (client_id, email, platform, sent_at) VALUES ($1, 'client1@example.test', 'ios', '2026-11-20T18:00:00Z')`, [
      clientId,
    ]);
    await database.query(`INSERT INTO pushes (client_id, sent_by, title, body, status) VALUES ($1, 'coach@studio.test', 'Hi', 'See you', 'sent')`, [clientId]);
    await database.query(
      `INSERT INTO audit_log (staff_email, action, target_type, target_id, client_id, after) VALUES ('coach@studio.test', 'client.access_level', 'client', $1, $2, '{"vod_access_level":3}')`,
      [String(clientId), clientId],
    );
  }

  it("keeps one row, with all its history, when the studio changes a client's Id between two imports", async () => {
    const clients = [rawClient(1), rawClient(2)];
    standIn = await startMindbodyStandIn({ clients });
    await appAgainstStandIn();
    await runImport();
    const [first] = await clientsAtSite();
    expect(first).toMatchObject({ mb_client_id: '700001', mb_unique_id: 800001 });
    await database.query('UPDATE clients SET vod_access_level = 3 WHERE id = $1', [first!.id]);
    const videoId = await insertVideo(database, { title: 'Core Burn' });
    await giveHistory(first!.id, videoId);
    const before = await historyOf(first!.id);

    // UpdateClient with NewId: same UniqueId, new Id, a new LastModifiedDateTime.
    clock.advance(3_600_000);
    standIn.state.clients = [rawClient(1, { Id: '900001', LastModifiedDateTime: '2026-11-22T12:30:00' }), rawClient(2)];
    const status = await runImport();

    const rows = await clientsAtSite();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: first!.id, mb_client_id: '900001', mb_unique_id: 800001, vod_access_level: 3 });
    expect(await historyOf(first!.id)).toEqual(before);
    expect(status.sites[0].last_run).toMatchObject({ status: 'succeeded', clients_created: 0, clients_updated: 1, clients_merged: 0 });
    // The visits are now asked for under the new Id.
    expect(standIn.calls('/client/clientvisits').at(-1)!.query.get('request.clientId')).toBe('900001');
  });

  it('never creates a second row for one UniqueId, even when a listing shows the client under both Ids', async () => {
    standIn = await startMindbodyStandIn({ clients: [rawClient(1), rawClient(1, { Id: '900001' }), rawClient(3, { Id: ' 700003 ' })] });
    await appAgainstStandIn();
    await runImport();
    await runImport(true);

    const rows = await clientsAtSite();
    expect(rows.map((row) => [row.mb_client_id, row.mb_unique_id])).toEqual([
      ['900001', 800001],
      ['700003', 800003],
    ]);
    await expect(
      database.query(`INSERT INTO clients (first_name, mb_client_id, mb_unique_id, mb_site_id) VALUES ('Twin', '123', 800001, $1)`, [SITE]),
    ).rejects.toThrow(/clients_mb_unique_idx|duplicate key/);
  });

  it('matches a UniqueId sent as a string, falls back to the Id when UniqueId is missing or not a number, and survives NUL characters', async () => {
    standIn = await startMindbodyStandIn({ clients: [rawClient(1), rawClient(2), rawClient(3)] });
    await appAgainstStandIn();
    await runImport();
    const before = await clientsAtSite();

    clock.advance(3_600_000);
    standIn.state.clients = [
      rawClient(1, { Id: '900001', UniqueId: '800001', LastModifiedDateTime: '2026-11-22T12:30:00' }),
      rawClient(2, { UniqueId: 'not-a-number', FirstName: 'Re\u0000named', LastModifiedDateTime: '2026-11-22T12:30:00' }),
      rawClient(3, { UniqueId: null, Email: 'client3\u0000@example.test', LastModifiedDateTime: '2026-11-22T12:30:00' }),
    ];
    const status = await runImport();

    expect(status.last_outcome).toBe('succeeded');
    const rows = await clientsAtSite();
    expect(rows.map((row) => [row.id, row.mb_client_id, row.mb_unique_id, row.first_name])).toEqual([
      [before[0]!.id, '900001', 800001, 'First1'],
      [before[1]!.id, '700002', 800002, 'Renamed'],
      [before[2]!.id, '700003', 800003, 'First3'],
    ]);
  });

  it('merges the duplicates earlier imports made into the oldest row, moving all history, with one audit entry per merge', async () => {
    const videoId = await insertVideo(database, { title: 'Core Burn' });
    const otherVideo = await insertVideo(database, { title: 'Spin 45' });
    // Before UniqueId was stored: the client's row under the old Id, paid and with history...
    const original = await insertClient(database, { first_name: 'First1', mb_client_id: '700001', mb_site_id: SITE, vod_access_level: 3 });
    await giveHistory(original, videoId);
    await database.query(
      `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, mb_client_id, class_name, start_at, end_at, attendance, signed_in, missed, late_cancelled, make_up, web_signup, imported_at)
       VALUES ($1, $2, 11, '700001', 'Vinyasa Flow', '2026-11-20T07:00:00Z', '2026-11-20T08:00:00Z', 'signed_in', true, false, false, false, false, '2026-11-20T12:00:00Z')`,
      [original, SITE],
    );
    // ...the free row the import created once the Id was changed, with a favorite of its own...
    const duplicate = await insertClient(database, { first_name: 'First1', mb_client_id: '900001', mb_site_id: SITE, vod_access_level: 1 });
    await database.query('INSERT INTO favorites (client_id, video_id) VALUES ($1, $2), ($1, $3)', [duplicate, videoId, otherVideo]);
    await database.query(`INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, '2026-11-21T18:00:00Z')`, [duplicate, otherVideo]);
    // A table another feature adds later, not known to the merge.
    await database.execScript(
      'CREATE TABLE IF NOT EXISTS client_notes_test (id serial PRIMARY KEY, client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE, body text)',
    );
    await database.query(`INSERT INTO client_notes_test (client_id, body) VALUES ($1, 'Prefers evening classes')`, [duplicate]);
    // ...and two rows with the same Id (another client).
    const twinA = await insertClient(database, { first_name: 'First2', mb_client_id: '700002', mb_site_id: SITE, vod_access_level: 1 });
    const twinB = await insertClient(database, { first_name: 'First2', mb_client_id: '700002', mb_site_id: SITE, vod_access_level: 2 });
    await database.query(
      `INSERT INTO purchases (client_id, access_level_id, purchased_at, subscription_status) VALUES ($1, 2, '2026-11-02T00:00:00Z', 'active')`,
      [twinB],
    );

    // Mindbody lists the client under its new Id, with the visit the old row had.
    standIn = await startMindbodyStandIn({
      clients: [rawClient(1, { Id: '900001' }), rawClient(2)],
      visits: {
        '900001': [
          {
            Id: 11,
            ClassId: 5,
            ClientId: '900001',
            ClientUniqueId: 800001,
            Name: 'Vinyasa Flow',
            StartDateTime: '2026-11-20T07:00:00',
            EndDateTime: '2026-11-20T08:00:00',
            SignedIn: true,
          },
          {
            Id: 12,
            ClassId: 6,
            ClientId: '900001',
            ClientUniqueId: 800001,
            Name: 'Spin 45',
            StartDateTime: '2026-11-21T18:00:00',
            EndDateTime: '2026-11-21T19:00:00',
            SignedIn: true,
          },
        ],
      },
    });
    await appAgainstStandIn();
    const status = await runImport();

    const rows = await clientsAtSite();
    expect(rows).toEqual([
      { id: original, mb_client_id: '900001', mb_unique_id: 800001, vod_access_level: 3, first_name: 'First1' },
      { id: twinA, mb_client_id: '700002', mb_unique_id: 800002, vod_access_level: 2, first_name: 'First2' },
    ]);
    expect(await historyOf(original)).toEqual({
      purchases: 1,
      access_override_history: 1,
      favorites: 2, // the shared favorite once
      video_views: 2,
      debug_records: 1,
      pushes: 1,
      mindbody_visits: 2,
      audit_log: 2, // its own entry and the merge
    });
    expect(await historyOf(twinA)).toMatchObject({ purchases: 1, audit_log: 1 });
    expect(await database.query('SELECT client_id::int AS client_id, body FROM client_notes_test')).toEqual([
      { client_id: original, body: 'Prefers evening classes' },
    ]);
    await database.execScript('DROP TABLE client_notes_test');
    expect(status.sites[0].last_run).toMatchObject({ status: 'succeeded', clients_merged: 2 });

    const merges = await database.query<{ client_id: number; staff_email: string | null; before: Record<string, unknown>; after: Record<string, unknown> }>(
      "SELECT client_id::int AS client_id, staff_email, before, after FROM audit_log WHERE action = 'client.merge' ORDER BY id",
    );
    expect(merges).toEqual([
      {
        client_id: twinA,
        staff_email: null,
        before: expect.objectContaining({ merged_client_id: twinB, mb_client_id: '700002' }),
        after: expect.objectContaining({ client_id: twinA, mb_client_id: '700002', mb_unique_id: 800002, reason: 'same_client_id', moved: { purchases: 1 } }),
      },
      {
        client_id: original,
        staff_email: null,
        before: expect.objectContaining({ merged_client_id: duplicate, mb_client_id: '900001' }),
        after: expect.objectContaining({ client_id: original, mb_client_id: '900001', mb_unique_id: 800001, reason: 'same_visit' }),
      },
    ]);

    // Nothing left to merge: the next import changes nothing.
    clock.advance(3_600_000);
    const again = await runImport(true);
    expect(again.sites[0].last_run).toMatchObject({ clients_merged: 0, clients_created: 0 });
    expect(await clientsAtSite()).toHaveLength(2);
  });
});
