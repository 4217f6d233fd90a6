import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { createMindbodyClient, type HttpClientOptions } from '../../server/src/integrations/mindbody/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn, resetMindbodyImports } from '../support/mindbodyStandIn';

const SITE = STAND_IN.siteId;

describe.each(testDatabases())('Mindbody client import on $name', ({ open }) => {
  let database: Database;
  let standIn: MindbodyStandIn;
  let app: FastifyInstance | undefined;
  let cookie: string;
  let waits: number[];
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    waits = [];
    await resetMindbodyImports(database);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await standIn?.close();
  });

  /** The real HTTP client against the stand-in; waits between attempts are recorded, not slept. */
  async function appAgainstStandIn(clientOptions: HttpClientOptions = {}) {
    const mindbody = createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [SITE], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async (ms) => void waits.push(ms), now: () => clock.now(), ...clientOptions },
    );
    app = await createTestApp(database, { clock, mindbody });
    cookie = await signIn(app);
    return app;
  }

  async function runImport(full = false) {
    cookie = await signIn(app!); // tests move the clock past the session's idle limit
    const started = await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: { full } });
    expect(started.statusCode).toBe(202);
    await app!.jobs.runDue();
    return (await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync', headers: { cookie } })).json();
  }

  const clientsAtSite = () => database.query<Record<string, unknown>>('SELECT * FROM clients WHERE mb_site_id = $1 ORDER BY mb_client_id', [SITE]);

  it('imports three pages of clients through a 429, each client once, and leaves the VOD fields alone', async () => {
    const clients = Array.from({ length: 450 }, (_, i) => rawClient(i + 1));
    standIn = await startMindbodyStandIn({
      clients,
      visits: {
        '700001': [
          {
            Id: 11,
            ClassId: 5,
            ClientId: '700001',
            Name: 'Vinyasa Flow',
            StartDateTime: '2026-11-20T07:00:00',
            EndDateTime: '2026-11-20T08:00:00',
            SignedIn: true,
            Missed: false,
            LateCancelled: false,
          },
          {
            Id: 12,
            ClassId: 6,
            ClientId: '700001',
            Name: 'Spin 45',
            StartDateTime: '2026-11-18T18:00:00',
            SignedIn: false,
            Missed: true,
            LateCancelled: false,
          },
          {
            Id: 13,
            ClassId: 7,
            ClientId: '700001',
            Name: 'Barre Burn',
            StartDateTime: '2026-11-15T09:30:00',
            SignedIn: false,
            Missed: false,
            LateCancelled: true,
          },
        ],
      },
    });
    // Clients we already have: one per page with our own VOD data, one known only by e-mail.
    const ours = {
      vod_access_level: 3,
      purchase_access_level: 2,
      admin_updated_expiration: '2026-12-01T00:00:00.000Z',
      admin_replaced_access_level: 2,
      first_login: '2026-11-01T10:00:00.000Z',
      revenue_cat_user_id: 'rc_ours',
    };
    for (const n of [3, 250, 420]) {
      await database.query(
        `INSERT INTO clients (first_name, last_name, email_address, mb_client_id, mb_site_id, client_status, vod_access_level, purchase_access_level,
                              admin_updated_expiration, admin_replaced_access_level, first_login, revenue_cat_user_id)
         VALUES ('Old', 'Name', $1, $2, $3, 'Pending', $4, $5, $6, $7, $8, $9)`,
        [`old${n}@example.test`, String(700000 + n), SITE, ...Object.values(ours)],
      );
    }
    await database.query(
      `INSERT INTO clients (first_name, email_address, vod_access_level, first_login) VALUES ('App', 'CLIENT7@example.test', 2, '2026-10-01T00:00:00Z')`,
    );
    standIn.fail({ path: '/client/clients', offset: 200, status: 429, retryAfter: '3', times: 1 });
    await appAgainstStandIn();

    const status = await runImport();

    const rows = await clientsAtSite();
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((row) => row.mb_client_id)).size).toBe(450);
    const [{ total }] = await database.query<{ total: number }>('SELECT count(*)::int AS total FROM clients');
    expect(total).toBe(450); // the e-mail-only client was linked, not duplicated
    for (const n of [3, 250, 420]) {
      const row = rows.find((r) => r.mb_client_id === String(700000 + n))!;
      expect(row).toMatchObject({
        first_name: `First${n}`,
        last_name: `Last${n}`,
        email_address: `client${n}@example.test`,
        client_status: n % 10 === 0 ? 'Non-Member' : 'Active',
      });
      expect(row.vod_access_level).toBe(3);
      expect(row.purchase_access_level).toBe(2);
      expect(new Date(row.admin_updated_expiration as string).toISOString()).toBe(ours.admin_updated_expiration);
      expect(row.admin_replaced_access_level).toBe(2);
      expect(new Date(row.first_login as string).toISOString()).toBe(ours.first_login);
      expect(row.revenue_cat_user_id).toBe('rc_ours');
    }
    const linked = rows.find((r) => r.mb_client_id === '700007')!;
    expect(linked).toMatchObject({ first_name: 'First7', vod_access_level: 2, email_address: 'client7@example.test' });
    const fresh = rows.find((r) => r.mb_client_id === '700010')!;
    expect(fresh).toMatchObject({ first_name: 'First10', client_status: 'Non-Member', vod_access_level: 1, purchase_access_level: null, first_login: null });

    // Three pages, the second asked twice: after the 429, once Retry-After (3 s) had passed.
    const listing = standIn.calls('/client/clients');
    expect(listing.map((call) => [call.query.get('request.offset'), call.status])).toEqual([
      ['0', 200],
      ['200', 429],
      ['200', 200],
      ['400', 200],
    ]);
    expect(listing.every((call) => call.query.get('request.limit') === '200')).toBe(true);
    expect(listing.every((call) => call.headers['api-key'] === STAND_IN.apiKey && call.headers.siteid === String(SITE))).toBe(true);
    expect(listing[0]!.query.has('request.lastModifiedDate')).toBe(false);
    expect(waits).toContain(3000);
    expect(standIn.state.tokensIssued).toBe(1);

    const visits = await database.query<{ mb_visit_id: number; attendance: string; class_name: string }>(
      'SELECT mb_visit_id, attendance, class_name FROM mindbody_visits ORDER BY mb_visit_id',
    );
    expect(visits).toEqual([
      { mb_visit_id: 11, attendance: 'signed_in', class_name: 'Vinyasa Flow' },
      { mb_visit_id: 12, attendance: 'missed', class_name: 'Spin 45' },
      { mb_visit_id: 13, attendance: 'late_cancelled', class_name: 'Barre Burn' },
    ]);
    const visitCall = standIn.calls('/client/clientvisits').find((call) => call.query.get('request.clientId') === '700001')!;
    expect(visitCall.query.get('request.startDate')).toBe('2026-10-23T12:00:00.000Z'); // MINDBODY_VISITS_DAYS=30

    expect(status).toMatchObject({ mode: 'live', last_synced_at: '2026-11-22T12:00:00.000Z', last_outcome: 'succeeded', running: false, last_error: null });
    expect(status.sites[0].last_run).toMatchObject({
      kind: 'full',
      status: 'succeeded',
      pages: 3,
      total_clients: 450,
      clients_seen: 450,
      clients_created: 446,
      clients_updated: 4,
      visits_imported: 3,
    });
  });

  it('records a failed run, keeps what it imported and continues from there on the next run', async () => {
    standIn = await startMindbodyStandIn({ clients: Array.from({ length: 450 }, (_, i) => rawClient(i + 1)) });
    standIn.fail({ path: '/client/clients', offset: 400, status: 503, times: Infinity });
    await appAgainstStandIn({ maxAttempts: 3 });

    const failed = await runImport();

    expect(failed).toMatchObject({ last_outcome: 'failed', last_synced_at: null });
    expect(failed.last_error).toMatch(/Mindbody failed \(503\)/);
    expect(failed.sites[0].last_run).toMatchObject({ status: 'failed', pages: 2, clients_seen: 400, next_offset: 400 });
    expect(await clientsAtSite()).toHaveLength(400);
    expect(standIn.calls('/client/clients').filter((call) => call.query.get('request.offset') === '400')).toHaveLength(3);
    expect(waits).toHaveLength(2); // backoff between the three attempts

    standIn.state.failures = [];
    clock.advance(60 * 60_000);
    const resumed = await runImport();

    const offsets = standIn.calls('/client/clients').map((call) => call.query.get('request.offset'));
    expect(offsets.slice(-1)).toEqual(['400']); // continued where it stopped, not from 0
    const rows = await clientsAtSite();
    expect(rows).toHaveLength(450);
    expect(new Set(rows.map((row) => row.mb_client_id)).size).toBe(450);
    expect(resumed).toMatchObject({ last_outcome: 'succeeded', last_error: null });
    expect(resumed.sites[0].last_run).toMatchObject({ status: 'succeeded', kind: 'full', clients_seen: 50, clients_created: 50 });
    const [job] = await database.query<{ state: string; last_error: string }>(
      "SELECT state, last_error FROM jobs WHERE queue = 'mindbody.sync' ORDER BY id LIMIT 1",
    );
    expect(job).toMatchObject({ state: 'failed' });
    expect(job!.last_error).toMatch(/site -99: Mindbody failed \(503\)/);
  });

  it('asks only for the clients changed since the last import once a full one has completed', async () => {
    const clients = Array.from({ length: 30 }, (_, i) => rawClient(i + 1, { LastModifiedDateTime: '2026-10-01T08:00:00' }));
    standIn = await startMindbodyStandIn({ clients });
    await appAgainstStandIn();
    await runImport();

    clock.advance(2 * 86_400_000);
    clients[4] = rawClient(5, { FirstName: 'Renamed', Email: 'renamed@example.test', LastModifiedDateTime: '2026-11-24T09:00:00' });
    standIn.state.clients = clients;
    const status = await runImport();

    const last = standIn.calls('/client/clients').at(-1)!;
    // The previous run started at 2026-11-22T12:00Z; a day of overlap covers Mindbody's unstated time zone.
    expect(last.query.get('request.lastModifiedDate')).toBe('2026-11-21T12:00:00.000Z');
    expect(status.sites[0].last_run).toMatchObject({ kind: 'incremental', clients_seen: 1, clients_updated: 1, clients_created: 0 });
    const [renamed] = await database.query('SELECT first_name, email_address FROM clients WHERE mb_client_id = $1', ['700005']);
    expect(renamed).toEqual({ first_name: 'Renamed', email_address: 'renamed@example.test' });
  });

  it('issues a new staff token when Mindbody answers 401 to the cached one', async () => {
    standIn = await startMindbodyStandIn({ clients: Array.from({ length: 3 }, (_, i) => rawClient(i + 1)) });
    await appAgainstStandIn();
    await runImport();
    expect(standIn.state.tokensIssued).toBe(1);

    standIn.revokeTokens();
    const status = await runImport(true);

    expect(status.last_outcome).toBe('succeeded');
    expect(standIn.state.tokensIssued).toBe(2);
    const authorizations = standIn.state.requests.filter((r) => r.path === '/client/clients').map((r) => r.headers.authorization);
    expect(authorizations.every((value) => /^Bearer [0-9a-f]{16}$/.test(String(value)))).toBe(true);
  });

  it('records a timeout when Mindbody never answers', async () => {
    standIn = await startMindbodyStandIn({ clients: [rawClient(1)] });
    standIn.fail({ path: '/client/clients', hang: true, times: Infinity });
    await appAgainstStandIn({ timeoutMs: 200, maxAttempts: 2 });

    const status = await runImport();

    expect(status.last_outcome).toBe('failed');
    expect(status.last_error).toBe('Mindbody did not answer GET /client/clients within 0.2 s');
    expect(standIn.calls('/client/clients')).toHaveLength(2);
  });

  it('skips the visits of a client Mindbody does not know, and imports the rest', async () => {
    standIn = await startMindbodyStandIn({
      clients: [rawClient(1), rawClient(2)],
      visits: { '700002': [{ Id: 21, ClassId: 1, ClientId: '700002', Name: 'Pilates Mat', StartDateTime: '2026-11-21T10:00:00', SignedIn: true }] },
    });
    await appAgainstStandIn();
    // The first visits call (client 700001) is refused as if Mindbody did not know the client.
    standIn.fail({ path: '/client/clientvisits', status: 404, times: 1 });

    const status = await runImport();

    expect(status.sites[0].last_run).toMatchObject({ status: 'succeeded', clients_seen: 2, visits_imported: 1, visit_errors: 1 });
    expect(await database.query('SELECT mb_visit_id FROM mindbody_visits')).toEqual([{ mb_visit_id: 21 }]);
  });

  it('answers the status to staff only and starts one import at a time', async () => {
    standIn = await startMindbodyStandIn({ clients: [rawClient(1)] });
    await appAgainstStandIn();
    expect((await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync' })).statusCode).toBe(401);
    expect((await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync', headers: { cookie } })).json()).toEqual({
      mode: 'live',
      last_synced_at: null,
      running: false,
      last_outcome: null,
      last_error: null,
      calls_today: 0,
      daily_call_limit: 1000,
      visits_deferred: 0,
      sites: [{ site_id: SITE, last_run: null, last_synced_at: null, visits_deferred: 0 }],
    });
    const first = await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: {} });
    const second = await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: { full: true } });
    expect(first.json()).toMatchObject({ started: true });
    expect(second.json()).toEqual({ job_id: first.json().job_id, started: false });
  });
});
