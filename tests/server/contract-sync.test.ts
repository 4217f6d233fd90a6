import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { ContractSyncResponse } from '@contract/clientActions';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { createCircuitBreaker } from '../../server/src/lib/circuitBreaker';
import { syncContracts } from '../../server/src/clients/contractSync';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';

const MB_ID = '100015071';

const rawContract = (id: number, overrides: Record<string, unknown> = {}) => ({
  PayerClientId: Number(MB_ID),
  AgreementDate: '2026-05-06T17:02:33Z',
  AutopayStatus: 'Active',
  AutoRenewing: true,
  ContractName: `Unlimited ${id}`,
  EndDate: '2027-05-06T00:00:00',
  Id: id,
  OriginationLocationId: 2,
  StartDate: '2026-05-06T00:00:00',
  SiteId: -99,
  ContractID: 100 + id,
  TerminationDate: null,
  UpcomingAutopayEvents: [
    { ClientContractId: id, ChargeAmount: 129, Subtotal: 129, Tax: 0, PaymentMethod: 'DebitAccount', ScheduleDate: '2026-12-01T00:00:00', ProductId: 7 },
  ],
  ...overrides,
});

describe.each(testDatabases())('contract sync against a Mindbody stand-in on $name', ({ open }) => {
  let database: Database;
  let standIn: MindbodyStandIn;
  let app: FastifyInstance;
  let cookie: string;
  let clientId: number;
  let waits: number[];

  const mindbodyFor = (options: Parameters<typeof createMindbodyClient>[1] = {}) =>
    createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [STAND_IN.siteId], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      // Each test here checks one failure on its own; the breaker that would open after several in a
      // row has its own tests (circuit-breaker.test.ts), so it gets a threshold these never reach.
      { sleep: async (ms) => void waits.push(ms), timeoutMs: 300, breaker: createCircuitBreaker({ service: 'Mindbody', failureThreshold: 1_000 }), ...options },
    );
  const sync = async () => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/sync/contracts/-99/${MB_ID}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return ContractSyncResponse.parse(response.json());
  };
  const stored = async () =>
    (await app.inject({ method: 'GET', url: `/api/client/v1/client-details/-99/${MB_ID}/contracts`, headers: { cookie } })).json().contracts;

  beforeAll(async () => {
    database = await open();
    standIn = await startMindbodyStandIn({
      maxLimit: 2,
      contracts: { [MB_ID]: [rawContract(1), rawContract(2, { StartDate: '2026-06-01T00:00:00+02:00' }), rawContract(3)] },
    });
    waits = [];
    app = await createTestApp(database, { clock: testClock(), mindbody: mindbodyFor() });
    cookie = await signIn(app);
    clientId = await insertClient(database, { first_name: 'Jo', email_address: 'jo@studio.test', mb_client_id: MB_ID, mb_site_id: -99 });
  });
  beforeEach(() => {
    waits = [];
    standIn.state.failures.length = 0;
  });
  afterAll(async () => {
    await app.close();
    await standIn.close();
    await database.close();
  });

  it('pages through every contract, maps the PascalCase fields and stores them', async () => {
    const body = await sync();
    expect(body.errors).toEqual([]);
    const [newest] = body.mbContracts;
    expect(body.mbContracts.map((c) => c.id).sort()).toEqual([1, 2, 3]);
    expect(body.mbContracts.find((c) => c.id === 2)).toMatchObject({ contract_id: 102, original_location_id: 2, start_date: '2026-05-31T22:00:00.000Z' });
    expect(newest).toMatchObject({
      agreement_date: '2026-05-06T17:02:33.000Z',
      autopay_status: 'Active',
      end_date: '2027-05-06T00:00:00.000Z',
      site_id: -99,
      termination_date: null,
      upcoming_autopay_events: [{ ChargeAmount: 129, ScheduleDate: '2026-12-01T00:00:00.000Z' }],
    });
    expect(standIn.calls('/client/clientcontracts').map((call) => call.query.get('request.offset'))).toEqual(['0', '2']);
    expect(await stored()).toEqual(body.mbContracts);
  });

  it("replaces the client's previous copy: a contract Mindbody no longer lists goes, a changed one is updated", async () => {
    standIn.state.contracts[MB_ID] = [rawContract(1, { AutopayStatus: 'Suspended' }), rawContract(4)];
    const body = await sync();
    expect(body.mbContracts.map((c) => [c.id, c.autopay_status])).toEqual(
      expect.arrayContaining([
        [1, 'Suspended'],
        [4, 'Active'],
      ]),
    );
    expect(body.mbContracts).toHaveLength(2);
    const rows = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM contracts WHERE client_id = $1', [clientId]);
    expect(rows[0]!.n).toBe(2);
  });

  it('keeps the stored copy and reports Mindbody failing with 500', async () => {
    const before = await stored();
    standIn.state.contracts[MB_ID] = [rawContract(9)];
    standIn.fail({ path: '/client/clientcontracts', status: 500, times: Infinity });
    const body = await sync();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]!.message).toMatch(/^Mindbody failed \(500\): scripted 500; the stored contracts are unchanged/);
    expect(body.mbContracts).toEqual(before);
    expect(await stored()).toEqual(before);
  });

  it('reports an error Mindbody answers on purpose ({ Error: { Message, Code } })', async () => {
    const before = await stored();
    standIn.fail({ path: '/client/clientcontracts', status: 400, times: 1 });
    const body = await sync();
    expect(body.errors[0]).toMatchObject({ code: 'Unknown' });
    expect(body.errors[0]!.message).toMatch(/Mindbody refused GET \/client\/clientcontracts \(400 Unknown\): scripted 400/);
    expect(await stored()).toEqual(before);
  });

  it('waits as long as a 429 Retry-After asks, then stores', async () => {
    standIn.fail({ path: '/client/clientcontracts', status: 429, retryAfter: '2', times: 1 });
    const body = await sync();
    expect(body.errors).toEqual([]);
    expect(waits).toEqual([2000]);
    expect(body.mbContracts.map((c) => c.id)).toEqual([9]);
  });

  it('reports a Mindbody that hangs past the timeout and keeps the stored copy', async () => {
    const before = await stored();
    standIn.state.contracts[MB_ID] = [rawContract(10)];
    standIn.fail({ path: '/client/clientcontracts', hang: true, times: Infinity });
    const body = await sync();
    // Five attempts of 0.3 s each normally end before the sync's 10 s deadline; on a machine loaded
    // enough that they do not, the deadline answers instead. Both tell staff the same thing.
    expect(body.errors[0]).toMatchObject({ code: 'timeout' });
    expect(body.errors[0]!.message).toMatch(
      /^Mindbody did not answer (GET \/client\/clientcontracts within 0\.3 s|within 10 s); the stored contracts are unchanged$/,
    );
    expect(await stored()).toEqual(before);
  });

  it('gives up at the deadline even when each attempt may take longer', async () => {
    const before = await stored();
    standIn.fail({ path: '/client/clientcontracts', hang: true, times: Infinity });
    const body = await syncContracts(
      { database, mindbody: mindbodyFor({ timeoutMs: 10_000 }), now: () => new Date() },
      { id: clientId, siteId: -99, mbClientId: MB_ID },
      400,
    );
    expect(body.errors).toEqual([{ message: 'Mindbody did not answer within 0.4 s; the stored contracts are unchanged', code: 'timeout' }]);
    expect(body.mbContracts).toEqual(before);
  });
});
