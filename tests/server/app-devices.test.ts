import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mayUseForPush, slotHolders, SLOT_HELD_MS, type PlacedRecord } from '../../server/src/appReports/deviceSlots';
import type { Database } from '../../server/src/db/client';
import { attachDebugRecords } from '../../server/src/mindbody/clientImport';
import { deviceOf } from '../../server/src/push/tokens';
import { DAY, insertClient } from '../support/clientFixtures';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';

// docs/security-app.md: with only the shared app key, a report cannot take a client's pushes away
// from the device that really belongs to the client.
const KEY = 'app-key-for-the-tests-0123';
const START = new Date('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

describe('device slots (pure rules)', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const placed = (id: number, token: string | null, platform: string | null, ageMs: number, is_ipad = false): PlacedRecord => ({
    id,
    firebase_token_new: token,
    firebase_token_current: null,
    platform,
    is_ipad,
    created_at: new Date(now.getTime() - ageMs),
  });
  const report = (token: string, platform = 'ios', extra: { current?: string; verified?: boolean; is_ipad?: boolean } = {}) => ({
    firebase_token_new: token,
    firebase_token_current: extra.current ?? null,
    platform,
    is_ipad: extra.is_ipad ?? false,
    verified: extra.verified ?? false,
  });

  it('names a device by platform, and by iPad or not only on iOS', () => {
    expect(deviceOf({ platform: 'iOS', is_ipad: true })).toBe('ios|true');
    expect(deviceOf({ platform: 'android', is_ipad: true })).toBe(deviceOf({ platform: 'Android', is_ipad: false }));
  });

  it("holds each device's slot by its newest record with a usable token", () => {
    const holders = slotHolders([
      placed(3, 'null', 'ios', 0),
      placed(2, 'phone-2', 'ios', MINUTE),
      placed(1, 'phone-1', 'ios', 2 * MINUTE),
      placed(4, 'pixel', 'android', 0),
    ]);
    expect([...holders.entries()].map(([device, record]) => [device, record.id])).toEqual([
      ['ios|false', 2],
      ['android|false', 4],
    ]);
  });

  it('lets an unproven report into a free slot, its own slot, or one left for 30 days, and nowhere else', () => {
    const holders = slotHolders([placed(1, 'phone', 'ios', 29 * DAY), placed(2, 'old-pixel', 'android', SLOT_HELD_MS + 1)]);
    const none = new Set<string>();
    expect(mayUseForPush(report('intruder'), holders, none, now)).toBe(false);
    expect(mayUseForPush(report('phone-2', 'ios', { current: 'phone' }), holders, none, now)).toBe(true);
    expect(mayUseForPush(report('tablet', 'ios', { is_ipad: true }), holders, none, now)).toBe(true);
    expect(mayUseForPush(report('new-pixel', 'android'), holders, none, now)).toBe(true);
    expect(mayUseForPush(report('intruder'), holders, new Set(['phone']), now)).toBe(true);
    expect(mayUseForPush(report('proven', 'ios', { verified: true }), holders, none, now)).toBe(true);
  });
});

describe.each(testDatabases())("a client's devices with the shared app key only, on $name", ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let ada: number;
  const clock = testClock(START);

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(START);
    await database.execScript('DELETE FROM debug_records; DELETE FROM pushes; DELETE FROM dead_push_tokens; DELETE FROM clients;');
    ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@example.test', mb_client_id: '100042', mb_site_id: -99 });
  });

  const report = (body: Record<string, unknown>, remoteAddress = '198.51.100.20') =>
    app.inject({
      method: 'POST',
      url: '/api/app/v1/debug-info',
      headers: { 'x-app-key': KEY },
      remoteAddress,
      payload: { email: 'ada@example.test', ...body },
    });
  const phoneReports = () =>
    report(
      { platform: 'ios', is_ipad: false, firebase_token_new: 'ada-iphone', firebase_token_current: 'ada-iphone', sent_at: clock.now().toISOString() },
      '203.0.113.7',
    );
  const pushedTo = async () => {
    const outcome = await app.push.sendToClient({
      clientId: ada,
      title: 'Hello',
      body: 'From the studio',
      sentBy: { staffUserId: null, email: 'coach@studio.test' },
    });
    return outcome.results.map((result) => result.token).sort();
  };

  it('keeps pushing to the real device after five reports with other platforms and a sent_at in 2099', async () => {
    expect((await phoneReports()).statusCode).toBe(201);
    clock.advance(10 * MINUTE);
    for (const [i, platform] of ['ios', 'android', 'web', 'windows', 'macos'].entries()) {
      await report({ platform, is_ipad: false, firebase_token_new: `attacker-${i}`, firebase_token_current: `attacker-${i}`, sent_at: '2099-01-01T00:00:00Z' });
    }
    clock.advance(MINUTE);
    expect((await phoneReports()).statusCode).toBe(201);

    expect(await pushedTo()).toContain('ada-iphone');
    expect((await app.push.tokensFor(ada)).tokens).toContain('ada-iphone');
  });

  it('refuses a sent_at beyond a few minutes ahead with a 400 naming body.sent_at, and stores nothing', async () => {
    const response = await report({ platform: 'ios', firebase_token_new: 'x', sent_at: '2099-01-01T00:00:00Z' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: expect.stringMatching(/body\.sent_at: is in the future/),
      errors: [{ path: 'body.sent_at', message: expect.stringMatching(/in the future/) }],
    });
    const slightlyAhead = await report({ platform: 'ios', firebase_token_new: 'y', sent_at: new Date(START.getTime() + 4 * MINUTE).toISOString() });
    expect(slightlyAhead.statusCode).toBe(201);
    const rows = await database.query<{ firebase_token_new: string }>('SELECT firebase_token_new FROM debug_records');
    expect(rows).toEqual([{ firebase_token_new: 'y' }]);
  });

  it('accepts only the platforms the app sends, in any letter case, and names the field otherwise', async () => {
    for (const platform of ['web', 'windows', 'macos', 'ios\u0000', 'іos', '', 7]) {
      const response = await report({ platform, firebase_token_new: 'x' });
      expect(response.statusCode, JSON.stringify(platform)).toBe(400);
      expect(response.json().message).toMatch(/body\.platform/);
    }
    expect((await report({ platform: 'iOS', firebase_token_new: 'a' })).statusCode).toBe(201);
    expect((await report({ platform: 'Android', firebase_token_new: 'b' })).statusCode).toBe(201);
    const rows = await database.query<{ platform: string }>('SELECT platform FROM debug_records ORDER BY id');
    expect(rows.map((row) => row.platform)).toEqual(['ios', 'android']);
  });

  it('orders devices by when the server received the report, not by the sent_at the app claims', async () => {
    await report({ platform: 'android', firebase_token_new: 'old-android', sent_at: new Date(START.getTime() + 4 * MINUTE).toISOString() });
    clock.advance(40 * DAY);
    // A token the slot holder has not reported for 30 days gives the slot up, whatever the new one claims.
    await report({ platform: 'android', firebase_token_new: 'new-android', sent_at: new Date(START.getTime() - DAY).toISOString() });
    expect((await app.push.tokensFor(ada)).tokens).toEqual(['new-android']);
  });

  it('lets a report add a device into a free slot but not displace a device that reported in the last 30 days', async () => {
    await phoneReports();
    clock.advance(MINUTE);
    const intruder = await report({ platform: 'ios', is_ipad: false, firebase_token_new: 'intruder-iphone', firebase_token_current: 'intruder-iphone' });
    expect(intruder.statusCode).toBe(201);
    await report({ platform: 'android', firebase_token_new: 'new-android' });
    expect(await pushedTo()).toEqual(['ada-iphone', 'new-android']);

    // The device rotating its token (its current one is the token it held) stays the same device.
    clock.advance(MINUTE);
    await report({ platform: 'ios', is_ipad: false, firebase_token_new: 'ada-iphone-2', firebase_token_current: 'ada-iphone' });
    expect((await app.push.tokensFor(ada)).tokens.sort()).toEqual(['ada-iphone-2', 'new-android']);

    // 30 days without a report from the phone frees its slot for the next device of that kind.
    clock.advance(31 * DAY);
    await report({ platform: 'ios', is_ipad: false, firebase_token_new: 'replacement-iphone' });
    expect((await app.push.tokensFor(ada)).tokens).toContain('replacement-iphone');
  });

  it('frees the slot of a device whose tokens FCM declared dead', async () => {
    await phoneReports();
    await database.query("INSERT INTO dead_push_tokens (token, code, marked_at) VALUES ('ada-iphone', 'UNREGISTERED', $1)", [START.toISOString()]);
    clock.advance(MINUTE);
    await report({ platform: 'ios', is_ipad: false, firebase_token_new: 'reinstalled-iphone' });
    expect((await app.push.tokensFor(ada)).tokens).toEqual(['reinstalled-iphone']);
  });

  it('keeps the report that did not get a slot, for staff to read, without pushing to it', async () => {
    await phoneReports();
    clock.advance(MINUTE);
    await report({ platform: 'ios', is_ipad: false, firebase_token_new: 'intruder-iphone' });
    const rows = await database.query<{ firebase_token_new: string }>('SELECT firebase_token_new FROM debug_records WHERE client_id = $1 ORDER BY id', [ada]);
    expect(rows.map((row) => row.firebase_token_new)).toEqual(['ada-iphone', 'intruder-iphone']);
    expect((await app.push.tokensFor(ada)).tokens).toEqual(['ada-iphone']);
  });

  it('decides held reports when the import attaches them, oldest first, as if they had just arrived', async () => {
    await report({ email: 'late@example.test', platform: 'ios', firebase_token_new: 'late-iphone' }, '203.0.113.9');
    clock.advance(MINUTE);
    await report({ email: 'late@example.test', platform: 'ios', firebase_token_new: 'late-iphone-2', firebase_token_current: 'late-iphone' }, '203.0.113.9');
    clock.advance(MINUTE);
    await report({ email: 'late@example.test', platform: 'ios', firebase_token_new: 'intruder-iphone' });
    const late = await insertClient(database, { first_name: 'Late', email_address: 'late@example.test' });
    expect(await attachDebugRecords(database, [late], clock.now())).toBe(3);
    expect((await app.push.tokensFor(late)).tokens).toEqual(['late-iphone-2']);
  });

  it('does not let parallel bursts of intruding reports displace the device', async () => {
    await phoneReports();
    clock.advance(MINUTE);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        report({ platform: i % 2 ? 'ios' : 'android', is_ipad: i % 4 === 1, firebase_token_new: `burst-${i}` }, `198.51.100.${i}`),
      ),
    );
    expect((await app.push.tokensFor(ada)).tokens).toContain('ada-iphone');
  });
});
