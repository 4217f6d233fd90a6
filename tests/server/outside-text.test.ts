import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';
import { startVimeoStandIn, vimeoPage, vimeoVideo } from '../support/vimeoStandIn';

// docs/integrations.md: text from Mindbody and Vimeo that PostgreSQL cannot hold (U+0000, unpaired
// surrogates; they arrive as JSON escapes) is removed and the record stored, so one odd record
// never fails an import or a sync again and again.
describe.each(testDatabases())('outside services sending NUL and unpaired surrogates on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance | undefined;
  let mindbody: MindbodyStandIn | undefined;
  let cookie: string;
  const clock = testClock(new Date('2026-11-22T12:00:00Z'));

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.execScript(
      'DELETE FROM mindbody_visits; DELETE FROM contracts; DELETE FROM mindbody_sync_runs; DELETE FROM mindbody_sync_state; DELETE FROM clients; DELETE FROM jobs; DELETE FROM vimeo_syncs; DELETE FROM videos;',
    );
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await mindbody?.close();
    mindbody = undefined;
  });

  async function appAgainstMindbody() {
    const client = createMindbodyClient(
      { apiUrl: mindbody!.url, apiKey: STAND_IN.apiKey, siteIds: [STAND_IN.siteId], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async () => {}, now: () => clock.now() },
    );
    app = await createTestApp(database, { clock, mindbody: client });
    cookie = await signIn(app);
  }

  it('imports a Mindbody client and visit whose names hold NUL or a lone surrogate, cleaned, and imports them again unchanged', async () => {
    mindbody = await startMindbodyStandIn({
      clients: [rawClient(1, { FirstName: 'Ada\u0000', LastName: 'Love\ud800lace' }), rawClient(2)],
      visits: {
        '700001': [
          {
            Id: 11,
            ClassId: 5,
            ClientId: '700001',
            Name: 'Vinyasa\u0000 Flow \udc00',
            StartDateTime: '2026-11-20T07:00:00',
            SignedIn: true,
            Missed: false,
            LateCancelled: false,
          },
        ],
      },
    });
    await appAgainstMindbody();
    for (const full of [true, true]) {
      const started = await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: { full } });
      expect(started.statusCode).toBe(202);
      await app!.jobs.runDue();
    }
    expect(await database.query('SELECT mb_client_id, first_name, last_name FROM clients ORDER BY mb_client_id')).toEqual([
      { mb_client_id: '700001', first_name: 'Ada', last_name: 'Lovelace' },
      { mb_client_id: '700002', first_name: 'First2', last_name: 'Last2' },
    ]);
    expect(await database.query('SELECT class_name FROM mindbody_visits')).toEqual([{ class_name: 'Vinyasa Flow ' }]);
    expect(await database.query('SELECT status, clients_seen, visits_imported FROM mindbody_sync_runs ORDER BY id')).toEqual([
      { status: 'succeeded', clients_seen: 2, visits_imported: 1 },
      { status: 'succeeded', clients_seen: 2, visits_imported: 1 },
    ]);
  });

  it("stores a client's Mindbody contracts whose name holds NUL", async () => {
    mindbody = await startMindbodyStandIn({
      clients: [rawClient(1)],
      contracts: {
        '700001': [
          {
            PayerClientId: 700001,
            AgreementDate: '2026-05-06T17:02:33Z',
            AutopayStatus: 'Active\u0000',
            ContractName: 'Unlimited\u0000 \ud800Monthly',
            EndDate: '2027-05-06T00:00:00',
            Id: 1,
            OriginationLocationId: 2,
            StartDate: '2026-05-06T00:00:00',
            SiteId: -99,
            ContractID: 101,
            TerminationDate: null,
            UpcomingAutopayEvents: [],
          },
        ],
      },
    });
    await appAgainstMindbody();
    await database.query("INSERT INTO clients (first_name, mb_client_id, mb_site_id) VALUES ('Ada', '700001', -99)");
    const response = await app!.inject({ method: 'GET', url: '/api/v1/sync/contracts/-99/700001', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json().errors).toEqual([]);
    expect(response.json().mbContracts.map((c: { contract_name: string; autopay_status: string }) => [c.contract_name, c.autopay_status])).toEqual([
      ['Unlimited Monthly', 'Active'],
    ]);
  });

  it('syncs Vimeo videos whose title and description hold NUL or a lone surrogate', async () => {
    const vimeo = await startVimeoStandIn(() => ({
      body: vimeoPage(1, 1, 25, [vimeoVideo(5001, 'Morning\u0000 Flow', { description: 'Breathe \ud800in' }), vimeoVideo(5002, 'Core \udfff')], 2),
    }));
    try {
      app = await createTestApp(database, { clock, env: { VIMEO_ACCESS_TOKEN: 'stand-in-token', VIMEO_API_URL: vimeo.url } });
      cookie = await signIn(app);
      for (let round = 0; round < 2; round++) {
        const started = await app.inject({ method: 'GET', url: '/api/v1/sync/all-vimeo-videos', headers: { cookie } });
        expect(started.statusCode).toBe(200);
        await app.jobs.runDue();
        const sync = (await app.inject({ method: 'GET', url: `/api/admin/v1/vimeo-syncs/${started.json().sync.id}`, headers: { cookie } })).json();
        expect(sync.state).toBe('done');
      }
      expect(await database.query('SELECT vimeo_video_id, title FROM videos ORDER BY vimeo_video_id')).toEqual([
        { vimeo_video_id: '5001', title: 'Morning Flow' },
        { vimeo_video_id: '5002', title: 'Core ' },
      ]);
    } finally {
      await app?.close();
      app = undefined;
      await vimeo.close();
    }
  });
});
