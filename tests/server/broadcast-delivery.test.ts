import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Broadcast } from '@contract/broadcasts';
import type { Database, Queryable } from '../../server/src/db/client';
import type { RunningJob } from '../../server/src/jobs/job';
import { createBroadcastSending } from '../../server/src/broadcasts/send';
import { BROADCAST_SEND } from '../../server/src/broadcasts/store';
import { createFcmClient } from '../../server/src/integrations/fcm/client';
import { MAX_PUSH_RETRIES } from '../../server/src/push/retry';
import { insertClient } from '../support/clientFixtures';
import { testDatabases } from '../support/databases';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { addDevice } from '../support/activityFixtures';
import { createTestApp, signIn, testClock } from '../support/server';

const NOW = new Date('2026-11-22T12:00:00Z');
const MINUTE = 60_000;

/** What a broadcast's counts must always be: every recipient in exactly one of them. */
const accounted = (b: Broadcast) => b.counts.sent + b.counts.failed + b.counts.skipped + b.counts.pending + b.counts.retrying + b.counts.not_sent;

/**
 * Broadcasts against live FCM (a local stand-in that counts what it delivered): counts that never
 * say sent before FCM accepted, retries and give-ups reflected, and the channel's pace.
 */
describe.each(testDatabases())('broadcast delivery through FCM on $name', ({ open }) => {
  let database: Database;
  let standIn: FcmStandIn;
  let app: FastifyInstance;
  let owner: string;
  const clock = testClock(NOW);
  let batch = 0;

  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: method as 'GET', url, headers: { cookie: owner, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const read = async (id: number) => (await call('GET', `/api/admin/v1/broadcasts/${id}`)).json() as Broadcast;
  const drain = () => app.jobs.drain([BROADCAST_SEND]);
  /** `n` clients with one device each, reachable by the filter q = '@<tag>.test'. */
  const clients = async (tag: string, n: number) => {
    batch++;
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = await insertClient(database, { first_name: `${tag}${i}`, email_address: `${tag}${i}@${tag}.test` });
      const token = `tok-${tag}-${batch}-${i}`;
      await addDevice(database, id, token);
      tokens.push(token);
    }
    return tokens;
  };
  const deliveredTo = (tokens: string[]) => {
    const wanted = new Set(tokens);
    return standIn.state.delivered.filter((d) => wanted.has(d.token));
  };
  /** Moves the test clock to each retry as it falls due until the broadcast is over. */
  const untilFinished = async (id: number, rounds = MAX_PUSH_RETRIES + 3) => {
    for (let round = 0; round < rounds; round++) {
      await drain();
      const now = await read(id);
      if (now.status === 'sent') return now;
      const [next] = await database.query<{ at: Date | string | null }>(
        "SELECT min(retry_at) AS at FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'retrying'",
        [id],
      );
      clock.set(new Date(Math.max(clock.now().getTime(), next?.at ? new Date(next.at).getTime() : clock.now().getTime()) + 1000));
      owner = await signIn(app);
    }
    return read(id);
  };

  beforeAll(async () => {
    database = await open();
    standIn = await startFcmStandIn();
    app = await createTestApp(database, {
      clock,
      fcm: createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async () => undefined, now: clock.now }),
      env: { FCM_QUOTA_PER_MINUTE: '6000000' },
    });
    owner = await signIn(app);
  });
  beforeEach(async () => {
    await database.execScript('DELETE FROM automated_push_days');
  });
  afterEach(() => {
    standIn.state.failures.length = 0;
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
    await database?.close();
  });

  it('counts a recipient sent only once FCM accepted it: pushes FCM defers are retrying, and it is finished only when none is left', async () => {
    const tokens = await clients('defer', 12);
    standIn.fail({ status: 429, retryAfter: '0', times: 4 });
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@defer.test' }, body: 'Doors open at 7' })).json();
    expect(created.recipients).toBe(12);
    await drain();
    const during = await read(created.id);
    expect(during.status).toBe('sending');
    expect(during.counts).toMatchObject({ sent: deliveredTo(tokens).length, retrying: 12 - deliveredTo(tokens).length, failed: 0, pending: 0 });
    expect(during.counts.retrying).toBeGreaterThan(0);
    expect(accounted(during)).toBe(12);

    const done = await untilFinished(created.id);
    expect(done.status).toBe('sent');
    expect(done.counts).toMatchObject({ sent: 12, retrying: 0, failed: 0, pending: 0 });
    // Each client got exactly one message, and the stand-in delivered as many as the broadcast says it sent.
    expect(
      deliveredTo(tokens)
        .map((d) => d.token)
        .sort(),
    ).toEqual([...tokens].sort());
  });

  it('keeps sent + failed + skipped + pending + retrying = recipients while it runs, and never says sent before the stand-in delivered', async () => {
    const tokens = await clients('watch', 150);
    standIn.fail({ status: 429, retryAfter: '0', times: 10 });
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@watch.test' }, body: 'Watched' })).json();
    let running = true;
    const sending = drain().finally(() => (running = false));
    const reads: { accounted: number; sent: number; delivered: number }[] = [];
    do {
      const now = await read(created.id);
      reads.push({ accounted: accounted(now), sent: now.counts.sent, delivered: deliveredTo(tokens).length });
    } while (running);
    await sending;
    expect(reads.every((r) => r.accounted === 150)).toBe(true);
    expect(reads.filter((r) => r.sent > r.delivered)).toEqual([]);
    const done = await untilFinished(created.id);
    expect(done.counts.sent).toBe(150);
    expect(deliveredTo(tokens)).toHaveLength(150);
  });

  it('a stop while pushes are out: the next run sends them again under the same collapse key, so each device shows the message once and all count as sent', async () => {
    const tokens = await clients('stopmid', 6);
    const replacedBefore = standIn.state.replaced;
    // The first two requests reach the devices, but their answers never come back: the sender stops meanwhile.
    standIn.fail({ hang: true, afterDelivery: true, times: 2 });
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@stopmid.test' }, body: 'Once only' })).json();
    const stop = new AbortController();
    const job = {
      payload: { broadcast_id: created.id },
      signal: stop.signal,
      heartbeat: async () => undefined,
      transaction: <T>(work: (tx: Queryable) => Promise<T>) => database.transaction(work),
    } as unknown as RunningJob;
    const run = createBroadcastSending(app).send(job);
    const stopped = run.then(
      () => 'finished',
      () => 'stopped',
    );
    // Stopped once the four answered ones are written and two requests are still out.
    for (;;) {
      const now = await read(created.id);
      if (now.counts.sent === 4 && deliveredTo(tokens).length === 6) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    stop.abort(new Error('the server stopped'));
    expect(await stopped).toBe('stopped');
    const between = await read(created.id);
    // Not known whether the two arrived: neither sent nor failed, still to do.
    expect(between.counts).toMatchObject({ sent: 4, failed: 0, pending: 2 });
    expect(accounted(between)).toBe(6);

    const done = await untilFinished(created.id);
    expect(done.counts).toMatchObject({ sent: 6, failed: 0, skipped: 0, pending: 0, retrying: 0 });
    // Sent again, shown in place of the first: each device shows the message once, and the broadcast's sent is what they show.
    expect(standIn.state.replaced - replacedBefore).toBe(2);
    expect(
      deliveredTo(tokens)
        .map((d) => d.token)
        .sort(),
    ).toEqual([...tokens].sort());
    const sends = standIn.sends().filter((r) => tokens.includes(r.body?.message?.token));
    expect(sends).toHaveLength(8);
    // Every request for a client carried the same collapse key, on Android, iOS and the web alike.
    for (const request of sends) {
      const { message } = request.body;
      const tag = message.android.notification.tag;
      expect(tag).toMatch(new RegExp(`^\\d+:broadcast:${created.id}$`));
      expect(message.apns.headers['apns-collapse-id']).toBe(tag);
      expect(message.webpush.notification.tag).toBe(tag);
      expect(sends.filter((r) => r.body.message.token === message.token).every((r) => r.body.message.android.notification.tag === tag)).toBe(true);
    }
    // One push record per client, sent.
    const [{ n }] = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM pushes WHERE data->>'broadcast_id' = $1 AND status = 'sent'", [
      String(created.id),
    ]);
    expect(n).toBe(6);
  });

  it('a cancelled broadcast shows what it did not send as not sent, never as pending', async () => {
    await clients('stop', 3);
    const at = new Date(clock.now().getTime() + 2 * 3_600_000).toISOString();
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@stop.test' }, body: 'Stopped', send_at: at })).json();
    const cancelled = (await call('POST', `/api/admin/v1/broadcasts/${created.id}/cancel`)).json() as Broadcast;
    expect(cancelled.counts).toMatchObject({ sent: 0, pending: 0, retrying: 0, not_sent: 3 });
    expect(accounted(cancelled)).toBe(3);
  });

  it('the same Idempotency-Key twice, even at once, answers the same broadcast and sends once; another request with it is refused', async () => {
    const tokens = await clients('once', 2);
    const payload = { filter: { q: '@once.test' }, body: 'Only once' };
    const headers = { 'idempotency-key': 'dialog-7f3a9c2e' };
    const [first, second] = await Promise.all([
      call('POST', '/api/admin/v1/broadcasts', payload, headers),
      call('POST', '/api/admin/v1/broadcasts', payload, headers),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().id).toBe(first.json().id);
    await drain();
    const again = await call('POST', '/api/admin/v1/broadcasts', payload, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: first.json().id, recipients: 2 });
    await drain();
    expect(await database.query("SELECT id FROM broadcasts WHERE body = 'Only once'")).toHaveLength(1);
    expect(deliveredTo(tokens)).toHaveLength(2);

    const other = await call('POST', '/api/admin/v1/broadcasts', { ...payload, body: 'Something else' }, headers);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(/Idempotency-Key/);
    // Without a key, two requests are two broadcasts (as before); a bad key is named.
    expect((await call('POST', '/api/admin/v1/broadcasts', payload, { 'idempotency-key': 'short' })).statusCode).toBe(400);
  });

  it('a push FCM keeps deferring gives up after the last retry: failed with its reason in the broadcast, which then finishes', async () => {
    const tokens = await clients('giveup', 1);
    standIn.fail({ status: 503, times: Infinity });
    const created = (await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@giveup.test' }, body: 'Never arrives' })).json();
    const done = await untilFinished(created.id);
    expect(done.status).toBe('sent');
    expect(done.counts).toMatchObject({ sent: 0, failed: 1, retrying: 0, pending: 0, failed_by_reason: { gave_up: 1 } });
    expect(deliveredTo(tokens)).toHaveLength(0);
    const [push] = await database.query<{ status: string; reason: string }>("SELECT status, reason FROM pushes WHERE data->>'broadcast_id' = $1", [
      String(created.id),
    ]);
    expect(push).toMatchObject({ status: 'failed' });
    expect(push!.reason).toContain(`gave up after ${MAX_PUSH_RETRIES} retries`);
  });
});

describe.each(testDatabases())('broadcast pace against a quota-limited FCM on $name', ({ open }) => {
  let database: Database;
  let standIn: FcmStandIn;
  let app: FastifyInstance;
  let owner: string;
  const clock = testClock(NOW);

  beforeAll(async () => {
    database = await open();
    // 30 sends a second: the quota, scaled down so a test can meet it. The server believes in 1,000 a second.
    standIn = await startFcmStandIn({ quota: { limit: 30, windowMs: 1000 } });
    app = await createTestApp(database, {
      clock,
      fcm: createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async () => undefined, now: clock.now }),
      env: { FCM_QUOTA_PER_MINUTE: '60000' },
    });
    owner = await signIn(app);
  });
  afterAll(async () => {
    await app?.close();
    await standIn?.close();
    await database?.close();
  });

  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/admin/v1/broadcasts', headers: { cookie: owner }, payload }).then((response) => response.json());
  const read = async (id: number) =>
    (await app.inject({ method: 'GET', url: `/api/admin/v1/broadcasts/${id}`, headers: { cookie: owner } })).json() as Broadcast;

  it('slows down on 429s by itself: few quota errors for the messages sent, and the counts match what the stand-in delivered', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = await insertClient(database, { first_name: `q${i}`, email_address: `q${i}@quota.test` });
      await addDevice(database, id, `tok-quota-${i}`);
      tokens.push(`tok-quota-${i}`);
    }
    const created = await post({ filter: { q: '@quota.test' }, body: 'Paced' });
    for (let round = 0; round < 20; round++) {
      await app.jobs.drain([BROADCAST_SEND]);
      if (process.env.DEBUG_PACE)
        console.log(round, standIn.state.quotaRefusals, standIn.state.delivered.length, JSON.stringify((await read(created.id)).counts));
      if ((await read(created.id)).status === 'sent') break;
      clock.advance(10 * MINUTE);
      owner = await signIn(app);
    }
    const done = await read(created.id);
    const delivered = standIn.state.delivered.filter((d) => d.token.startsWith('tok-quota-'));
    expect(done).toMatchObject({ status: 'sent', counts: { sent: 200, failed: 0, retrying: 0, pending: 0 } });
    expect(new Set(delivered.map((d) => d.token)).size).toBe(200);
    expect(delivered).toHaveLength(200);
    // Before pacing: 3,955 quota errors to deliver 1,117 messages (3.5 a message). Now a slow start and one
    // slow-down per wave: ~45 here on a quiet machine, up to ~70 beside other tests (the quota's window is
    // the wall clock's), so the line is drawn at one error for two messages, seven times fewer than before.
    expect(standIn.state.quotaRefusals).toBeLessThan(delivered.length / 2);
  });

  it("keeps a broadcast's own max_per_minute: under the quota, no 429 at all", async () => {
    standIn.state.quotaRefusals = 0;
    for (let i = 0; i < 20; i++) {
      const id = await insertClient(database, { first_name: `t${i}`, email_address: `t${i}@throttle.test` });
      await addDevice(database, id, `tok-throttle-${i}`);
    }
    const created = await post({ filter: { q: '@throttle.test' }, body: 'Gently', max_per_minute: 900 });
    await app.jobs.drain([BROADCAST_SEND]);
    expect(await read(created.id)).toMatchObject({ status: 'sent', max_per_minute: 900, counts: { sent: 20 } });
    expect(standIn.state.quotaRefusals).toBe(0);
  });
});
