import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { createFcmClient, createFcmSandbox } from '../../server/src/integrations/fcm';
import { createPushService, type PushService } from '../../server/src/push/service';
import { deviceTokens, type TokenRecord } from '../../server/src/push/tokens';
import { testDatabases } from '../support/databases';
import { insertClient } from '../support/clientFixtures';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { testClock } from '../support/server';

const record = (token_new: string | null, token_current: string | null, platform = 'ios', is_ipad = false): TokenRecord => ({
  firebase_token_new: token_new,
  firebase_token_current: token_current,
  platform,
  is_ipad,
});

describe('device tokens from debug records', () => {
  it("takes each device's newest token, the new one before the current one", () => {
    const records = [record('phone-new', 'phone-old'), record('phone-older', null), record(null, 'tablet', 'ios', true), record('android-1', null, 'android')];
    expect(deviceTokens(records, new Set())).toEqual({ tokens: ['phone-new', 'tablet', 'android-1'], reason: null });
  });

  it('skips placeholders and dead tokens, falling back to an older record of the same device', () => {
    const records = [record('null', 'undefined'), record('dead-1', 'live-1')];
    expect(deviceTokens(records, new Set(['dead-1'])).tokens).toEqual(['live-1']);
  });

  it('says why there is no token', () => {
    expect(deviceTokens([], new Set()).reason).toMatch(/has not sent any debug information/);
    expect(deviceTokens([record(null, '')], new Set()).reason).toMatch(/carry no Firebase token/);
    expect(deviceTokens([record('a', 'b')], new Set(['a', 'b'])).reason).toMatch(/every known token as no longer registered/);
  });

  it('pushes to at most five devices', () => {
    const records = Array.from({ length: 8 }, (_, i) => record(`t${i}`, null, `platform-${i}`));
    expect(deviceTokens(records, new Set()).tokens).toHaveLength(5);
  });
});

describe.each(testDatabases())('push service on $name', ({ open }) => {
  let database: Database;
  let standIn: FcmStandIn;
  let live: PushService;
  let sandbox: PushService;
  let withTokens: number;
  let withoutTokens: number;
  const clock = testClock();

  const addDebug = (clientId: number, tokenNew: string | null, sentAt: string, platform = 'ios') =>
    database.query(
      `INSERT INTO debug_records (client_id, firebase_token_new, firebase_token_current, platform, is_ipad, sent_at) VALUES ($1, $2, NULL, $3, false, $4)`,
      [clientId, tokenNew, platform, sentAt],
    );

  beforeAll(async () => {
    database = await open();
    standIn = await startFcmStandIn();
    live = createPushService({
      database,
      clock,
      fcm: createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async () => undefined }),
    });
    sandbox = createPushService({ database, clock, fcm: createFcmSandbox(clock) });
    withTokens = await insertClient(database, { first_name: 'Ana', email_address: 'ana@studio.test' });
    withoutTokens = await insertClient(database, { first_name: 'Bo', email_address: 'bo@studio.test' });
    await addDebug(withTokens, 'ana-phone', '2026-11-20T10:00:00Z');
    await addDebug(withTokens, 'ana-android', '2026-11-21T10:00:00Z', 'android');
  });
  afterAll(async () => {
    await standIn.close();
    await database.close();
  });

  it('delivers to every device of the client and records the push with per-token results', async () => {
    const outcome = await live.sendToClient({
      clientId: withTokens,
      title: 'Hi Ana',
      body: 'New classes this week',
      sentBy: { staffUserId: null, email: 'coach@studio.test' },
    });
    expect(outcome.updated).toBe(true);
    expect(outcome.results.map((r) => [r.token, r.outcome])).toEqual([
      ['ana-android', 'sent'],
      ['ana-phone', 'sent'],
    ]);
    expect(standIn.state.delivered.map((d) => d.notification)).toEqual([
      { title: 'Hi Ana', body: 'New classes this week' },
      { title: 'Hi Ana', body: 'New classes this week' },
    ]);
    const [recent] = await live.recent(withTokens);
    expect(recent).toMatchObject({ id: outcome.push_id, sent_by: 'coach@studio.test', source: 'console', title: 'Hi Ana', status: 'sent', reason: null });
    expect(recent!.results).toHaveLength(2);
  });

  it('answers updated: false with a reason and sends nothing when the client has no token', async () => {
    const before = standIn.sends().length;
    const outcome = await live.sendToClient({ clientId: withoutTokens, title: 'Hi', body: 'Bo' });
    expect(outcome).toMatchObject({ updated: false, results: [] });
    expect(outcome.reason).toMatch(/no device token/);
    expect(standIn.sends()).toHaveLength(before);
    expect((await live.recent(withoutTokens))[0]).toMatchObject({ status: 'no_token', sent_by: 'automated', source: 'automated' });
  });

  it('marks an UNREGISTERED token dead and never uses it again', async () => {
    standIn.state.unregistered.add('ana-android');
    const first = await live.sendToClient({ clientId: withTokens, title: 'One', body: 'x' });
    expect(first.updated).toBe(true);
    expect(first.results.find((r) => r.token === 'ana-android')).toMatchObject({ outcome: 'dead', code: 'UNREGISTERED' });
    const sendsBefore = standIn.sends().length;
    const second = await live.sendToClient({ clientId: withTokens, title: 'Two', body: 'y' });
    expect(second.results.map((r) => r.token)).toEqual(['ana-phone']);
    expect(standIn.sends().length - sendsBefore).toBe(1);
    expect(await live.tokensFor(withTokens)).toEqual({ tokens: ['ana-phone'], reason: null });
  });

  it('retires a token FCM rejects as invalid, like an unregistered one', async () => {
    const cleo = await insertClient(database, { first_name: 'Cleo', email_address: 'cleo@studio.test' });
    await addDebug(cleo, 'cleo-broken', '2026-11-21T10:00:00Z');
    standIn.state.invalid.add('cleo-broken');
    const first = await live.sendToClient({ clientId: cleo, title: 'One', body: 'x' });
    expect(first.results).toMatchObject([{ token: 'cleo-broken', outcome: 'dead', code: 'INVALID_ARGUMENT' }]);
    const sendsBefore = standIn.sends().length;
    const second = await live.sendToClient({ clientId: cleo, title: 'Two', body: 'y' });
    expect(second).toMatchObject({ updated: false, results: [] });
    expect(second.reason).toMatch(/no usable device token/);
    expect(standIn.sends().length).toBe(sendsBefore);
  });

  it('answers updated: false when FCM delivers to no device', async () => {
    standIn.fail({ status: 503, times: Infinity });
    const outcome = await live.sendToClient({ clientId: withTokens, title: 'Down', body: 'z' });
    standIn.state.failures.length = 0;
    expect(outcome.updated).toBe(false);
    expect(outcome.reason).toMatch(/FCM did not deliver to the client's device: FCM answered 503 UNAVAILABLE/);
    expect((await live.recent(withTokens))[0]).toMatchObject({ status: 'failed' });
  });

  it('sends once per idempotency key and answers a repeat with the first outcome', async () => {
    const push = { clientId: withTokens, title: 'Once', body: 'only', idempotencyKey: 'key-1' };
    const first = await sandbox.sendToClient(push);
    const second = await sandbox.sendToClient(push);
    expect(second).toEqual(first);
    const rows = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM pushes WHERE title = 'Once'");
    expect(rows[0]!.n).toBe(1);
  });
});
