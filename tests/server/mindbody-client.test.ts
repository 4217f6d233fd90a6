import { afterEach, describe, expect, it } from 'vitest';
import { createMindbodyClient, type HttpClientOptions } from '../../server/src/integrations/mindbody/client';
import { MindbodyError } from '../../server/src/integrations/mindbody/errors';
import { attendanceOf, mapClient, mapContract, mapVisit, parseMindbodyDate } from '../../server/src/integrations/mindbody/mapping';
import { createMindbodySandbox, SANDBOX_CLIENT_COUNT, SANDBOX_SITE_ID } from '../../server/src/integrations/mindbody/sandbox';
import { rawClient, STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';
import { testClock } from '../support/server';

describe('Mindbody wire mapping', () => {
  it('reads dates with an offset as instants and dates without one as UTC wall time', () => {
    expect(parseMindbodyDate('2020-05-06T00:00:00')).toBe('2020-05-06T00:00:00.000Z');
    expect(parseMindbodyDate('2020-05-06T23:30:00')).toBe('2020-05-06T23:30:00.000Z');
    expect(parseMindbodyDate('2020-05-06T07:15:00Z')).toBe('2020-05-06T07:15:00.000Z');
    expect(parseMindbodyDate('2020-05-06T07:15:00-07:00')).toBe('2020-05-06T14:15:00.000Z');
    expect(parseMindbodyDate('2020-05-06T07:15:00.1234567')).toBe('2020-05-06T07:15:00.123Z');
    expect(parseMindbodyDate('2020-05-06')).toBe('2020-05-06T00:00:00.000Z');
    expect(parseMindbodyDate('0001-01-01T00:00:00')).toBeNull(); // .NET's empty DateTime
    expect(parseMindbodyDate('')).toBeNull();
    expect(parseMindbodyDate(null)).toBeNull();
    expect(parseMindbodyDate('next tuesday')).toBeNull();
  });

  it('maps a client, keeping a missing e-mail empty and skipping a record without an Id', () => {
    expect(mapClient(rawClient(1, { Email: '  ', Status: undefined, Active: false }))).toEqual({
      mb_client_id: '700001',
      unique_id: 800001,
      first_name: 'First1',
      last_name: 'Last1',
      email_address: null,
      client_status: 'Inactive',
      last_modified_at: '2026-01-10T08:00:00.000Z',
      phone: null,
    });
    expect(mapClient({ FirstName: 'No', LastName: 'Id' })).toBeNull();
    expect(mapClient({ Id: 123456, Email: 'not-an-email' })).toMatchObject({ mb_client_id: '123456', email_address: null });
  });

  it("takes the client's phone as Mindbody's Client lists them: MobilePhone, else HomePhone, else WorkPhone", () => {
    expect(mapClient(rawClient(1, { MobilePhone: '(555) 010-2000', HomePhone: '555 010 3000', WorkPhone: null }))?.phone).toBe('(555) 010-2000');
    expect(mapClient(rawClient(1, { MobilePhone: '  ', HomePhone: '555 010 3000', WorkPhone: '555 010 4000' }))?.phone).toBe('555 010 3000');
    expect(mapClient(rawClient(1, { MobilePhone: null, HomePhone: null, WorkPhone: '555 010 4000' }))?.phone).toBe('555 010 4000');
    expect(mapClient(rawClient(1))?.phone).toBeNull();
  });

  it('derives attendance from the visit flags', () => {
    const visit = { signed_in: false, missed: false, late_cancelled: false, appointment_status: null };
    expect(attendanceOf({ ...visit, signed_in: true })).toBe('signed_in');
    expect(attendanceOf({ ...visit, missed: true })).toBe('missed');
    expect(attendanceOf({ ...visit, late_cancelled: true, signed_in: true })).toBe('late_cancelled');
    expect(attendanceOf({ ...visit, appointment_status: 'NoShow' })).toBe('missed');
    expect(attendanceOf(visit)).toBe('booked');
    expect(mapVisit({ Id: 0, Name: 'x' })).toBeNull();
  });

  it('maps a ClientContract to the contract fields: Id vs ContractID, OriginationLocationId, both date forms', () => {
    const contract = mapContract({
      PayerClientId: 100015071,
      AgreementDate: '2020-05-06T17:02:33Z',
      AutopayStatus: 'Active',
      ContractName: 'Unlimited Monthly',
      EndDate: '2021-05-06T00:00:00',
      Id: 5829,
      OriginationLocationId: 1,
      StartDate: '2020-05-06T00:00:00',
      SiteId: -99,
      ContractID: 113,
      TerminationDate: null,
      UpcomingAutopayEvents: [
        { ClientContractId: 5829, ChargeAmount: 129, Subtotal: 120, Tax: 9, PaymentMethod: 'DebitAccount', ScheduleDate: '2020-07-06T00:00:00', ProductId: 77 },
        { ClientContractId: 5829, ChargeAmount: 129, Subtotal: 120, Tax: 9, PaymentMethod: 'DebitAccount', ScheduleDate: '2020-06-06T00:00:00', ProductId: 77 },
        { ClientContractId: 5829, ChargeAmount: 'n/a', ScheduleDate: '2020-08-06T00:00:00' },
      ],
    });
    expect(contract).toEqual({
      id: 5829,
      contract_id: 113,
      site_id: -99,
      agreement_date: '2020-05-06T17:02:33.000Z',
      autopay_status: 'Active',
      contract_name: 'Unlimited Monthly',
      start_date: '2020-05-06T00:00:00.000Z',
      end_date: '2021-05-06T00:00:00.000Z',
      termination_date: null,
      original_location_id: 1,
      upcoming_autopay_events: [
        {
          ClientContractId: 5829,
          ChargeAmount: 129,
          Subtotal: 120,
          Tax: 9,
          PaymentMethod: 'DebitAccount',
          ScheduleDate: '2020-06-06T00:00:00.000Z',
          ProductId: 77,
        },
        {
          ClientContractId: 5829,
          ChargeAmount: 129,
          Subtotal: 120,
          Tax: 9,
          PaymentMethod: 'DebitAccount',
          ScheduleDate: '2020-07-06T00:00:00.000Z',
          ProductId: 77,
        },
      ],
    });
  });
});

describe('Mindbody HTTP client against the stand-in', () => {
  let standIn: MindbodyStandIn;
  const waits: number[] = [];
  afterEach(async () => {
    waits.length = 0;
    await standIn?.close();
  });

  const client = (options: HttpClientOptions = {}, password = STAND_IN.password) =>
    createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [STAND_IN.siteId], staffUsername: STAND_IN.username, staffPassword: password },
      { sleep: async (ms) => void waits.push(ms), ...options },
    );

  it("pages through a client's contracts and maps them (getClientContracts)", async () => {
    const contract = (id: number, start: string) => ({
      Id: id,
      ContractID: 900 + id,
      ContractName: `Plan ${id}`,
      StartDate: start,
      EndDate: '2027-01-01T00:00:00',
      SiteId: -99,
      OriginationLocationId: 2,
      AutopayStatus: 'Active',
      UpcomingAutopayEvents: [],
    });
    standIn = await startMindbodyStandIn({
      maxLimit: 2,
      contracts: { '100015071': [contract(1, '2026-01-01T00:00:00'), contract(2, '2026-02-01T00:00:00Z'), contract(3, '2026-03-01T00:00:00+02:00')] },
    });

    const contracts = await client().getClientContracts(-99, '100015071');

    expect(contracts.map((c) => [c.id, c.contract_id, c.original_location_id, c.start_date])).toEqual([
      [1, 901, 2, '2026-01-01T00:00:00.000Z'],
      [2, 902, 2, '2026-02-01T00:00:00.000Z'],
      [3, 903, 2, '2026-02-28T22:00:00.000Z'],
    ]);
    const calls = standIn.calls('/client/clientcontracts');
    expect(calls.map((call) => call.query.get('request.offset'))).toEqual(['0', '2']);
    expect(calls.every((call) => call.query.get('request.clientId') === '100015071' && call.query.get('request.limit') === '200')).toBe(true);
    expect(calls.every((call) => call.headers.authorization?.startsWith('Bearer '))).toBe(true);
    expect(standIn.calls('/usertoken/issue')[0]!.body).toEqual({ Username: STAND_IN.username, Password: STAND_IN.password });
  });

  it('retries 5xx with backoff and gives up after the last attempt', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', status: 500, times: 2 });
    expect(await client({ maxAttempts: 3 }).getClientContracts(-99, '42')).toEqual([]);
    expect(waits).toHaveLength(2);

    standIn.fail({ path: '/client/clientcontracts', status: 502, times: Infinity });
    const failure = await client({ maxAttempts: 2 })
      .getClientContracts(-99, '42')
      .catch((error) => error);
    expect(failure).toBeInstanceOf(MindbodyError);
    expect(failure).toMatchObject({ kind: 'server', status: 502 });
  });

  it('does not retry a 4xx Mindbody means, and names its error code', async () => {
    standIn = await startMindbodyStandIn();
    const failure = await client()
      .getClientContracts(-99, '')
      .catch((error) => error);
    expect(failure).toMatchObject({ kind: 'request', status: 400, code: 'MissingRequiredFields' });
    expect(standIn.calls('/client/clientcontracts')).toHaveLength(1);
  });

  it('reports refused staff credentials without retrying', async () => {
    standIn = await startMindbodyStandIn();
    const failure = await client({}, 'wrong')
      .getClientContracts(-99, '42')
      .catch((error) => error);
    expect(failure).toMatchObject({ kind: 'auth', status: 401, code: 'InvalidStaffCredentials' });
    expect(standIn.calls('/usertoken/issue')).toHaveLength(1);
  });

  it('issues a new token shortly before the cached one expires', async () => {
    const clock = testClock(new Date('2026-11-22T12:00:00Z'));
    standIn = await startMindbodyStandIn({ tokenExpires: '2026-11-22T13:00:00', contracts: { '42': [] } });
    const mindbody = client({ now: () => clock.now() });
    await mindbody.getClientContracts(-99, '42');
    await mindbody.getClientContracts(-99, '42');
    expect(standIn.state.tokensIssued).toBe(1);
    clock.advance(57 * 60_000);
    await mindbody.getClientContracts(-99, '42');
    expect(standIn.state.tokensIssued).toBe(2);
  });
});

describe('Mindbody sandbox site', () => {
  it('serves a few hundred clients with visits and contracts, paged like the API', async () => {
    const sandbox = createMindbodySandbox(testClock());
    const pages = [];
    for await (const page of sandbox.clientPages(SANDBOX_SITE_ID)) pages.push(page);
    const clients = pages.flatMap((page) => page.clients);
    expect(sandbox.mode).toBe('sandbox');
    expect(pages.map((page) => page.clients.length)).toEqual([200, SANDBOX_CLIENT_COUNT - 200]);
    expect(new Set(clients.map((client) => client.mb_client_id)).size).toBe(SANDBOX_CLIENT_COUNT);

    const visits = (
      await Promise.all(
        clients.slice(0, 40).map((client) =>
          sandbox.getClientVisits(SANDBOX_SITE_ID, client.mb_client_id, {
            startDate: new Date('2026-09-01T00:00:00Z'),
            endDate: new Date('2026-11-22T12:00:00Z'),
          }),
        ),
      )
    ).flat();
    expect(new Set(visits.map((visit) => visit.attendance))).toEqual(new Set(['signed_in', 'missed', 'late_cancelled']));

    const contracts = (await Promise.all(clients.slice(0, 20).map((client) => sandbox.getClientContracts(SANDBOX_SITE_ID, client.mb_client_id)))).flat();
    expect(contracts.length).toBeGreaterThan(0);
    expect(contracts[0]).toMatchObject({ site_id: SANDBOX_SITE_ID, contract_id: expect.any(Number), original_location_id: expect.any(Number) });
    // Any client id, the demo data's included, gets the same contracts every time.
    expect(await sandbox.getClientContracts(5739, '100123')).toEqual(await sandbox.getClientContracts(5739, '100123'));
  });

  it('lists only the clients changed since request.lastModifiedDate', async () => {
    const sandbox = createMindbodySandbox(testClock());
    let changed = 0;
    for await (const page of sandbox.clientPages(SANDBOX_SITE_ID, { modifiedSince: new Date('2026-11-20T00:00:00Z') })) changed += page.clients.length;
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(SANDBOX_CLIENT_COUNT / 4);
  });
});
