import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { expireOverrides, levelAfterOverride, OVERRIDE_EXPIRY } from '../../server/src/clients/accessOverride';
import { overrideEnd, overrideEndProblem } from '@contract/clientRules';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');

describe('override rules', () => {
  it('returns to the purchase-derived level, else the replaced one, else free', () => {
    expect(levelAfterOverride(2, 1, 1)).toBe(2);
    expect(levelAfterOverride(null, 3, 1)).toBe(3);
    expect(levelAfterOverride(null, null, 1)).toBe(1);
  });

  it('ends an override that many days from now and accepts at most 28 days', () => {
    expect(overrideEnd(1, NOW).toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(overrideEnd(7, NOW).toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(overrideEndProblem(overrideEnd(28, NOW), NOW)).toBeNull();
    expect(overrideEndProblem(overrideEnd(29, NOW), NOW)).toMatch(/at most 28 days/);
    expect(overrideEndProblem(NOW, NOW)).toMatch(/in the future/);
    expect(overrideEndProblem(new Date('x'), NOW)).toMatch(/ISO 8601/);
  });
});

describe.each(testDatabases())('override expiry job on $name', ({ open }) => {
  let database: Database;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);

  const level = async (id: number) =>
    (
      await database.query<{ vod_access_level: number; admin_updated_expiration: Date | null; admin_replaced_access_level: number | null }>(
        'SELECT vod_access_level, admin_updated_expiration, admin_replaced_access_level FROM clients WHERE id = $1',
        [id],
      )
    )[0]!;
  const grant = async (app: FastifyInstance, clientId: number, newLevel: number, days: number) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/client/v1/client-details/update-access-level',
      headers: { cookie },
      payload: { client_id: clientId, new_vod_access_level: newLevel, adminOverrideDate: overrideEnd(days, clock.now()).toISOString() },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const expiryRuns = () =>
    database.query<{ result: { restored: number } }>(`SELECT result FROM jobs WHERE queue = $1 AND state = 'done' ORDER BY id`, [OVERRIDE_EXPIRY]);

  beforeAll(async () => {
    database = await open();
    // Two server instances on one database, as in a deployment behind a load balancer.
    first = await createTestApp(database, { clock });
    second = await createTestApp(database, { clock });
  });
  // Moving the clock by days ends sessions too: each test signs in at its own time.
  beforeEach(async () => {
    cookie = await signIn(first);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });

  it('puts the client back on the replaced level once the date passes, exactly once across instances', async () => {
    const ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@studio.test', vod_access_level: 1 });
    expect((await grant(first, ada, 3, 1)).statusCode).toBe(200);
    expect(await level(ada)).toMatchObject({ vod_access_level: 3, admin_replaced_access_level: 1 });

    clock.advance(DAY - 60_000);
    await Promise.all([first.jobs.runDue(), second.jobs.runDue()]);
    expect((await level(ada)).vod_access_level).toBe(3);

    const runsBefore = (await expiryRuns()).length;
    clock.advance(2 * 60_000);
    await Promise.all([first.jobs.runDue(), second.jobs.runDue()]);
    expect(await level(ada)).toEqual({ vod_access_level: 1, admin_updated_expiration: null, admin_replaced_access_level: null });
    const runs = (await expiryRuns()).slice(runsBefore);
    expect(runs.map((run) => run.result.restored)).toEqual([1]);
    cookie = await signIn(first);
    const details = await first.inject({ method: 'GET', url: `/api/client/v1/client-details/${ada}`, headers: { cookie } });
    expect(details.json().client[0]).toMatchObject({ vod_access_level: 1, name: 'VOD | FREE', admin_updated_expiration: null });

    // The audit log has the grant with who and before/after, and the end, once, by the system.
    const audit = await first.inject({
      method: 'GET',
      url: `/api/admin/v1/audit?filter=${encodeURIComponent(JSON.stringify({ client_id: ada }))}&sort=["id","ASC"]`,
      headers: { cookie },
    });
    expect(audit.json()).toEqual([
      expect.objectContaining({
        action: 'client.override_grant',
        staff_email: 'coach@studio.test',
        before: { vod_access_level: 1, admin_updated_expiration: null },
        after: { vod_access_level: 3, admin_updated_expiration: '2026-11-23T12:00:00.000Z' },
      }),
      expect.objectContaining({
        action: 'client.override_end',
        staff_email: null,
        before: { vod_access_level: 3, admin_updated_expiration: '2026-11-23T12:00:00.000Z' },
        after: { vod_access_level: 1, admin_updated_expiration: null },
      }),
    ]);
  });

  it('prefers the level the purchases give over the replaced one', async () => {
    const bea = await insertClient(database, { first_name: 'Bea', email_address: 'bea@studio.test', vod_access_level: 1 });
    await grant(first, bea, 3, 7);
    // A basic subscription bought during the override (RevenueCat keeps the override's level meanwhile).
    await database.query(`INSERT INTO purchases (client_id, access_level_id, subscription_status, purchased_at, expires_at) VALUES ($1, 2, 'active', $2, $3)`, [
      bea,
      clock.now().toISOString(),
      new Date(clock.now().getTime() + 40 * DAY).toISOString(),
    ]);
    clock.advance(7 * DAY + 60_000);
    await first.jobs.runDue();
    expect(await level(bea)).toEqual({ vod_access_level: 2, admin_updated_expiration: null, admin_replaced_access_level: null });
  });

  it('survives a restart: a new instance ends an override granted before it started', async () => {
    const cy = await insertClient(database, { first_name: 'Cy', email_address: 'cy@studio.test', vod_access_level: 2 });
    await grant(second, cy, 3, 14);
    await second.close();
    clock.advance(14 * DAY + 60_000);
    second = await createTestApp(database, { clock });
    await second.jobs.runDue();
    expect((await level(cy)).vod_access_level).toBe(2);
  });

  it('keeps the level from before any override when one is granted after another ended but before the sweep', async () => {
    const fay = await insertClient(database, { first_name: 'Fay', email_address: 'fay@studio.test', vod_access_level: 1 });
    await grant(first, fay, 3, 1);
    clock.advance(DAY + 1000);
    cookie = await signIn(first);
    await grant(first, fay, 2, 1);
    expect(await level(fay)).toMatchObject({ vod_access_level: 2, admin_replaced_access_level: 1 });
    clock.advance(DAY + 60_000);
    await first.jobs.runDue();
    expect((await level(fay)).vod_access_level).toBe(1);
  });

  it('does not end an override twice when two sweeps race, nor one granted again meanwhile', async () => {
    const dee = await insertClient(database, { first_name: 'Dee', email_address: 'dee@studio.test', vod_access_level: 1 });
    const eli = await insertClient(database, { first_name: 'Eli', email_address: 'eli@studio.test', vod_access_level: 1 });
    await grant(first, dee, 2, 1);
    await grant(first, eli, 2, 1);
    clock.advance(DAY + 60_000);
    cookie = await signIn(first);
    // Eli's override is renewed before any sweep ran: it must stand.
    await grant(first, eli, 3, 7);
    const results = await Promise.all([expireOverrides(database, clock.now()), expireOverrides(database, clock.now())]);
    expect(results[0]!.restored + results[1]!.restored).toBe(1);
    expect((await level(dee)).vod_access_level).toBe(1);
    expect(await level(eli)).toMatchObject({ vod_access_level: 3, admin_replaced_access_level: 1 });
  });
});
