import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { MindbodyError } from '../../server/src/integrations/mindbody';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { createCallBudget } from '../../server/src/mindbody/callBudget';
import { loadConfig } from '../../server/src/config';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn, resetMindbodyImports } from '../support/mindbodyStandIn';

const SITE = STAND_IN.siteId;
const DAY = 86_400_000;

describe('the daily Mindbody call budget', () => {
  it('lets calls through up to the limit, counting what was used earlier today, then refuses them', () => {
    const budget = createCallBudget(5, 3);
    expect(budget.remaining()).toBe(2);
    budget.spend();
    budget.spend();
    expect(() => budget.spend()).toThrow(MindbodyError);
    expect(() => budget.spend()).toThrow(/daily call limit is reached \(5 calls, MINDBODY_DAILY_CALL_LIMIT\)/);
    expect({ used: budget.used(), spent: budget.spent(), remaining: budget.remaining() }).toEqual({ used: 5, spent: 2, remaining: 0 });
  });

  it('defaults MINDBODY_DAILY_CALL_LIMIT to the 1,000 free calls a day and names a bad value', () => {
    expect(loadConfig({}).MINDBODY_DAILY_CALL_LIMIT).toBe(1000);
    expect(loadConfig({ MINDBODY_DAILY_CALL_LIMIT: '5000' }).MINDBODY_DAILY_CALL_LIMIT).toBe(5000);
    for (const bad of ['lots', '0', '-5', '2.5']) expect(() => loadConfig({ MINDBODY_DAILY_CALL_LIMIT: bad })).toThrow(/MINDBODY_DAILY_CALL_LIMIT/);
  });
});

describe.each(testDatabases())('Mindbody imports within the daily call limit on $name', ({ open }) => {
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
    await resetMindbodyImports(database);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await standIn?.close();
  });

  async function appAgainstStandIn(limit: number) {
    const mindbody = createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [SITE], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async () => undefined, now: () => clock.now() },
    );
    app = await createTestApp(database, { clock, mindbody, env: { MINDBODY_DAILY_CALL_LIMIT: String(limit) } });
  }

  async function runImport() {
    const cookie = await signIn(app!);
    await app!.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: {} });
    await app!.jobs.runDue();
    return (await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync', headers: { cookie } })).json();
  }

  const visitCallsFor = () => standIn.calls('/client/clientvisits').map((call) => call.query.get('request.clientId'));

  it('spreads the visit calls of 450 clients over days, most recently active first, never past the limit', async () => {
    // Client n last changed n hours into the year: the higher n, the more recently active.
    const clients = Array.from({ length: 450 }, (_, i) =>
      rawClient(i + 1, { LastModifiedDateTime: new Date(Date.UTC(2026, 0, 1) + (i + 1) * 3_600_000).toISOString().slice(0, 19) }),
    );
    standIn = await startMindbodyStandIn({ clients });
    // Client 5 came to a class two days ago: the most recently active of all.
    const regular = await insertClient(database, { first_name: 'First5', mb_client_id: '700005', mb_site_id: SITE });
    await database.query(
      `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, start_at, attendance, signed_in, missed, late_cancelled, make_up, web_signup, imported_at)
       VALUES ($1, $2, 501, '2026-11-20T07:00:00Z', 'signed_in', true, false, false, false, false, '2026-11-20T12:00:00Z')`,
      [regular, SITE],
    );
    // One 429 on a visit call: Mindbody counts the retry too.
    standIn.fail({ path: '/client/clientvisits', status: 429, retryAfter: '1', times: 1 });
    await appAgainstStandIn(100);

    const first = await runImport();

    expect(standIn.state.requests).toHaveLength(100);
    expect(standIn.calls('/usertoken/issue')).toHaveLength(1);
    expect(standIn.calls('/client/clients')).toHaveLength(3);
    const asked = visitCallsFor();
    expect(asked).toHaveLength(96); // 95 clients, one of them twice (the 429)
    const clientsAsked = [...new Set(asked)];
    expect(clientsAsked).toEqual(['700005', ...Array.from({ length: 94 }, (_, i) => String(700450 - i))]);
    expect(first).toMatchObject({ last_outcome: 'succeeded', calls_today: 100, daily_call_limit: 100, visits_deferred: 355 });
    expect(first.sites[0]).toMatchObject({ visits_deferred: 355 });
    expect(first.sites[0].last_run).toMatchObject({ status: 'succeeded', clients_seen: 450, calls: 100, visits_deferred: 355 });

    // Later the same day nothing is left: the run stops before its first call and says why.
    clock.advance(3_600_000);
    const refused = await runImport();
    expect(standIn.state.requests).toHaveLength(100);
    expect(refused).toMatchObject({ last_outcome: 'failed', calls_today: 100, visits_deferred: 355 });
    expect(refused.last_error).toMatch(/daily call limit is reached \(100 calls, MINDBODY_DAILY_CALL_LIMIT\)/);

    // The next day's budget continues with the waiting clients, still most recently active first.
    clock.advance(DAY);
    const next = await runImport();
    const nextAsked = visitCallsFor().slice(96);
    expect(nextAsked[0]).toBe('700356');
    expect(next).toMatchObject({ last_outcome: 'succeeded', calls_today: 100 });
    expect(next.visits_deferred).toBe(355 - nextAsked.length);
    expect(nextAsked.length).toBe(100 - 1); // one listing page (the token is still valid)
  });

  it('costs one token, three pages and one visit call per client for a full import of 450 within the default limit', async () => {
    standIn = await startMindbodyStandIn({ clients: Array.from({ length: 450 }, (_, i) => rawClient(i + 1)) });
    await appAgainstStandIn(1000);
    const status = await runImport();
    expect(standIn.state.requests).toHaveLength(454);
    expect(status).toMatchObject({ calls_today: 454, visits_deferred: 0 });
    expect(status.sites[0].last_run).toMatchObject({ calls: 454, visits_deferred: 0 });
  });

  it("counts a contract sync staff start in the day's calls", async () => {
    standIn = await startMindbodyStandIn({
      clients: [rawClient(1)],
      contracts: {
        '700001': [
          {
            Id: 4242,
            ContractID: 101,
            ContractName: 'Unlimited Monthly',
            StartDate: '2026-11-01T00:00:00',
            EndDate: '2027-11-01T00:00:00',
            UpcomingAutopayEvents: [],
          },
        ],
      },
    });
    await insertClient(database, { first_name: 'First1', mb_client_id: '700001', mb_site_id: SITE });
    await appAgainstStandIn(1000);
    const cookie = await signIn(app!);
    const synced = await app!.inject({ method: 'GET', url: `/api/v1/sync/contracts/${SITE}/700001`, headers: { cookie } });
    expect(synced.json()).toMatchObject({ errors: [], mbContracts: [expect.objectContaining({ id: 4242 })] });
    const status = (await app!.inject({ method: 'GET', url: '/api/admin/v1/mindbody/sync', headers: { cookie } })).json();
    expect(status.calls_today).toBe(2); // the staff token and one page of contracts
    expect(standIn.state.requests).toHaveLength(2);
  });
});
