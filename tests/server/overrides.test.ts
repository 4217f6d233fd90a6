import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { loadConfig } from '../../server/src/config';
import { endingWithinBound, isExtension } from '../../server/src/clients/overrideRules';
import { EndOverrideResponse, RunningOverride } from '@contract/overrides';
import { overrideEnd } from '@contract/clientRules';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { DAY, insertClient } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const GRANT = '/api/client/v1/client-details/update-access-level';

describe('override management rules', () => {
  it('counts a later end of the same running level as an extension, and OVERRIDE_MAX_DAYS is validated', () => {
    const running = { level: 3, until: overrideEnd(5, NOW) };
    expect(isExtension(running, { level: 3, until: overrideEnd(30, NOW) }, NOW)).toBe(true);
    expect(isExtension(running, { level: 2, until: overrideEnd(30, NOW) }, NOW)).toBe(false);
    expect(isExtension(running, { level: 3, until: overrideEnd(2, NOW) }, NOW)).toBe(false);
    expect(isExtension({ level: 3, until: null }, { level: 3, until: overrideEnd(2, NOW) }, NOW)).toBe(false);
    expect(endingWithinBound(NOW, 7).toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(loadConfig({}).OVERRIDE_MAX_DAYS).toBe(365);
    expect(loadConfig({ OVERRIDE_MAX_DAYS: '90' }).OVERRIDE_MAX_DAYS).toBe(90);
    for (const bad of ['27', '3651', '1.5', 'year']) expect(() => loadConfig({ OVERRIDE_MAX_DAYS: bad })).toThrow(/OVERRIDE_MAX_DAYS/);
  });
});

describe.each(testDatabases())('overrides staff manage on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  let frontDesk: string;
  let ada: number;
  let bo: number;
  const clock = testClock(NOW);

  const grant = (payload: object, cookie = owner) => app.inject({ method: 'POST', url: GRANT, headers: { cookie }, payload });
  const end = (id: string | number, cookie = owner) => app.inject({ method: 'DELETE', url: `/api/admin/v1/clients/${id}/override`, headers: { cookie } });
  const list = (query = '', cookie = owner) => app.inject({ method: 'GET', url: `/api/admin/v1/overrides${query}`, headers: { cookie } });
  const history = (clientId: number) =>
    database.query<{
      level: number;
      replaced_level: number | null;
      reason: string | null;
      end_kind: string | null;
      ended_by: string | null;
      ended_at: unknown;
    }>('SELECT level, replaced_level, reason, end_kind, ended_by, ended_at FROM access_override_history WHERE client_id = $1 ORDER BY id', [clientId]);
  const audit = (clientId: number) =>
    database.query<{ action: string; staff_email: string | null; after: Record<string, unknown> }>(
      'SELECT action, staff_email, after FROM audit_log WHERE client_id = $1 ORDER BY id',
      [clientId],
    );

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    owner = await signIn(app);
    frontDesk = await signIn(app, { email: 'desk@studio.test', password: 'correct horse battery', role: 'front_desk' });
    ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@studio.test', vod_access_level: 1 });
    bo = await insertClient(database, { first_name: 'Bo', email_address: 'bo@studio.test', vod_access_level: 1 });
    // Ada bought BASIC (level 2) until next year: that is the level she returns to.
    await database.query(`INSERT INTO purchases (client_id, access_level_id, purchased_at, expires_at, subscription_status) VALUES ($1, 2, $2, $3, 'active')`, [
      ada,
      new Date(NOW.getTime() - 10 * DAY).toISOString(),
      new Date(NOW.getTime() + 300 * DAY).toISOString(),
    ]);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('grants 60 days with a reason, extends it, and ends it now: back to the purchase-derived level, all recorded', async () => {
    const sixty = overrideEnd(60, NOW).toISOString();
    const granted = await grant({ client_id: ada, new_vod_access_level: 3, adminOverrideDate: sixty, reason: '  Injury: free month  ' });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().client).toMatchObject({ vod_access_level: 3, admin_updated_expiration: sixty });

    const extended = await grant({ client_id: ada, new_vod_access_level: 3, adminOverrideDate: overrideEnd(90, NOW).toISOString() });
    expect(extended.statusCode, extended.body).toBe(200);

    const ended = await end(ada);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(EndOverrideResponse.parse(ended.json()).client).toMatchObject({ vod_access_level: 2, admin_updated_expiration: null });

    expect(await history(ada)).toEqual([
      expect.objectContaining({ level: 3, replaced_level: 1, reason: 'Injury: free month', end_kind: 'replaced', ended_by: null }),
      expect.objectContaining({ level: 3, replaced_level: 3, reason: null, end_kind: 'ended', ended_by: 'coach@studio.test' }),
    ]);
    expect(await audit(ada)).toEqual([
      {
        action: 'client.override_grant',
        staff_email: 'coach@studio.test',
        after: { vod_access_level: 3, admin_updated_expiration: sixty, reason: 'Injury: free month' },
      },
      expect.objectContaining({ action: 'client.override_extend', staff_email: 'coach@studio.test' }),
      { action: 'client.override_end', staff_email: 'coach@studio.test', after: { vod_access_level: 2, admin_updated_expiration: null, ended: 'by_staff' } },
    ]);
    // Nothing runs any more: a second end is a conflict, and the list does not show her.
    expect((await end(ada)).statusCode).toBe(409);
    expect((await list(`?filter=${encodeURIComponent(JSON.stringify({ client_id: ada }))}`)).json()).toEqual([]);
  });

  it('refuses an end beyond OVERRIDE_MAX_DAYS and a bad reason, changing nothing', async () => {
    const bad = [{ adminOverrideDate: overrideEnd(366, NOW).toISOString() }, { reason: 'x'.repeat(501) }, { reason: 42 }, { reason: 'a\u0000b' }];
    for (const change of bad) {
      const response = await grant({ client_id: bo, new_vod_access_level: 3, adminOverrideDate: overrideEnd(10, NOW).toISOString(), ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().message).toMatch(/adminOverrideDate|reason/);
    }
    expect(await history(bo)).toEqual([]);
    const narrower = await createTestApp(database, { clock, env: { OVERRIDE_MAX_DAYS: '30' } });
    const refused = await narrower.inject({
      method: 'POST',
      url: GRANT,
      headers: { cookie: await signIn(narrower) },
      payload: { client_id: bo, new_vod_access_level: 3, adminOverrideDate: overrideEnd(31, NOW).toISOString() },
    });
    expect(refused.json().message).toMatch(/at most 30 days/);
    expect(
      (await narrower.inject({ method: 'GET', url: '/api/client/v1/vod-access-levels', headers: { cookie: await signIn(narrower) } })).json().override_max_days,
    ).toBe(30);
    await narrower.close();
  });

  it('ends only what exists, as the override permission allows', async () => {
    expect((await end(999_999)).statusCode).toBe(404);
    expect((await end(bo)).statusCode).toBe(409);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) expect((await end(id)).statusCode, id).toBe(400);
    await grant({ client_id: bo, new_vod_access_level: 2, adminOverrideDate: overrideEnd(3, NOW).toISOString() });
    const denied = await end(bo, frontDesk);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/clients\.override/);
    expect((await list('', frontDesk)).statusCode).toBe(403);
  });

  it('lists the running overrides, soonest end first, and those ending within 7 days', async () => {
    const cy = await insertClient(database, { first_name: 'Cy', email_address: 'cy@studio.test', vod_access_level: 1 });
    await grant({ client_id: cy, new_vod_access_level: 3, adminOverrideDate: overrideEnd(200, NOW).toISOString(), reason: 'Ambassador' });
    const all = await list();
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-range']).toBe('overrides 0-1/2');
    const rows = RunningOverride.array().parse(all.json());
    expect(rows.map((row) => row.first_name)).toEqual(['Bo', 'Cy']);
    expect(rows[1]).toMatchObject({
      level: 3,
      level_name: 'VOD | PREMIUM',
      granted_by: 'coach@studio.test',
      reason: 'Ambassador',
      starts_at: NOW.toISOString(),
    });
    const soon = await list(`?filter=${encodeURIComponent('{"ending_within_days":7}')}`);
    expect(soon.json().map((row: RunningOverride) => row.first_name)).toEqual(['Bo']);
    const latest = await list(`?sort=${encodeURIComponent('["ends_at","DESC"]')}&range=${encodeURIComponent('[0,0]')}`);
    expect(latest.json().map((row: RunningOverride) => row.first_name)).toEqual(['Cy']);
    for (const query of [
      '?filter={"ending_within_days":0}',
      '?filter={"ending_within_days":"x"}',
      '?filter={"nope":1}',
      '?filter=[',
      '?sort=["reason","ASC"]',
    ]) {
      expect((await list(query.replace(/[{}[\]"]/g, encodeURIComponent))).statusCode, query).toBe(400);
    }
  });
});
