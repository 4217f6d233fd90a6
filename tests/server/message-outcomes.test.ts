import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { BROADCAST_SEND } from '../../server/src/broadcasts/store';
import { mergeClients } from '../../server/src/mindbody/merge';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { addDevice, addView, addVisit, resetActivityFixtures } from '../support/activityFixtures';

const NOW = new Date('2026-11-23T12:00:00Z');
const DAY = 86_400_000;
const HOUR = 3_600_000;
const KEY = 'outcome-app-key-0123456789';
const CLIENTS = 300;

/** A small seeded generator: the same histories on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Computed here, not by the code under test: MD5("broadcast:<id>:<client>") as a fraction of 2^32. */
const draw = (seed: string, clientId: number) => parseInt(createHash('md5').update(`${seed}:${clientId}`).digest('hex').slice(0, 8), 16) / 2 ** 32;

type Event = { kind: 'class' | 'stream' | 'purchase'; at: number; signedIn: boolean };

/** The normal-approximation interval of the reference (enough conversions in both groups here), scaled to the treated clients. */
function expectedLift(x1: number, n1: number, x2: number, n2: number) {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const half = 1.96 * Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  return { clients: Math.round((p1 - p2) * n1), low: (p1 - p2 - half) * n1, high: (p1 - p2 + half) * n1 };
}

describe.each(testDatabases())('message outcomes on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  const clock = testClock(NOW);
  let clientIds: number[] = [];
  const history = new Map<number, Event[]>();
  let first: { id: number; recipients: number };

  const call = (method: string, url: string, payload?: unknown, cookie = owner) =>
    app.inject({ method: method as 'GET', url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const opened = (payload: unknown, key: string | null = KEY) =>
    app.inject({ method: 'POST', url: '/api/app/v1/push-opened', headers: key ? { 'x-app-key': key } : {}, payload: payload as object });
  const outcome = async (id: number) => {
    const answer = await call('GET', `/api/admin/v1/broadcasts/${id}/outcome`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };
  const email = (clientId: number) => `c${clientId}@outcome.test`;

  /** Who converted, computed from the generated history: a goal event in [start, start + window). */
  const convertedSet = (ids: number[], goal: string, start: number, windowDays: number) =>
    ids.filter((id) =>
      (history.get(id) ?? []).some(
        (event) =>
          (goal === 'any' || goal === event.kind) && (event.kind !== 'class' || event.signedIn) && event.at >= start && event.at < start + windowDays * DAY,
      ),
    );

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock, env: { APP_API_KEY: KEY, APP_RATE_LIMIT_PER_MINUTE: '1000', APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000' } });
    owner = await signIn(app);
    const rows = await database.query<{ id: number }>(
      `INSERT INTO clients (first_name, last_name, email_address, client_status)
       SELECT 'C' || g, 'Outcome', 'pending-' || g || '@outcome.test', 'Active' FROM generate_series(1, ${CLIENTS}) g RETURNING id`,
    );
    clientIds = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    await database.query("UPDATE clients SET email_address = 'c' || id || '@outcome.test' WHERE last_name = 'Outcome'");
    // every tenth client has no device: skipped, yet meant for the message
    for (const id of clientIds) if (id % 10 !== 0) await addDevice(database, id, `token-${id}`);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('holds out the clients the hash says, sends to the others only, and their counts still add up', async () => {
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      filter: { q: '@outcome.test' },
      title: 'Come back, {first_name}',
      body: 'A class is waiting',
      goal: { kind: 'any', window_days: 7 },
      holdout_percent: 50,
    });
    expect(created.statusCode, created.body).toBe(200);
    first = created.json();
    const heldOut = clientIds.filter((id) => draw(`broadcast:${first.id}`, id) < 0.5);
    expect(first.recipients).toBe(CLIENTS - heldOut.length);
    const broadcast = (await call('GET', `/api/admin/v1/broadcasts/${first.id}`)).json();
    expect(broadcast).toMatchObject({ goal: 'any', window_days: 7, holdout_percent: 50, held_out: heldOut.length, recipients: CLIENTS - heldOut.length });
    await app.jobs.drain([BROADCAST_SEND]);
    const sent = (await call('GET', `/api/admin/v1/broadcasts/${first.id}`)).json();
    const { sent: s, failed, skipped, pending } = sent.counts;
    expect(s + failed + skipped + pending).toBe(sent.recipients);
    const pushed = await database.query<{ client_id: number }>("SELECT client_id FROM pushes WHERE data->>'broadcast_id' = $1", [String(first.id)]);
    const pushedIds = new Set(pushed.map((row) => Number(row.client_id)));
    expect(heldOut.filter((id) => pushedIds.has(id))).toEqual([]);
    expect(pushedIds.size).toBe(CLIENTS - heldOut.length);
    // no-token clients get a record with no device reached: skipped
    expect(skipped).toBe(clientIds.filter((id) => id % 10 === 0 && !heldOut.includes(id)).length);
  });

  it('counts conversions, the holdout and the lift of a generated history as computed by hand', async () => {
    const random = generator(37);
    const kinds: Event['kind'][] = ['class', 'stream', 'purchase'];
    for (const id of clientIds) {
      const events: Event[] = Array.from({ length: Math.floor(random() * 3) }, () => ({
        kind: kinds[Math.floor(random() * 3)]!,
        // from 3 days before the send to 12 days after, on whole hours
        at: NOW.getTime() + Math.round((random() * 15 - 3) * 24) * HOUR,
        signedIn: random() < 0.8,
      }));
      history.set(id, events);
      for (const event of events) {
        if (event.kind === 'class') await addVisit(database, id, new Date(event.at), event.signedIn);
        else if (event.kind === 'stream') await addView(database, id, new Date(event.at));
        else await database.query('INSERT INTO purchases (client_id, purchased_at) VALUES ($1, $2)', [id, new Date(event.at).toISOString()]);
      }
    }
    const heldOut = clientIds.filter((id) => draw(`broadcast:${first.id}`, id) < 0.5);
    const treated = clientIds.filter((id) => !heldOut.includes(id));
    const x1 = convertedSet(treated, 'any', NOW.getTime(), 7).length;
    const x2 = convertedSet(heldOut, 'any', NOW.getTime(), 7).length;
    const result = await outcome(first.id);
    expect(result).toMatchObject({
      goal: 'any',
      window_days: 7,
      clients: treated.length,
      sent: treated.filter((id) => id % 10 !== 0).length,
      delivered: treated.filter((id) => id % 10 !== 0).length,
      opened: 0,
      converted: x1,
      holdout: { clients: heldOut.length, converted: x2 },
      window_closes_at: new Date(NOW.getTime() + 7 * DAY).toISOString(),
    });
    expect(result.conversion_rate).toBeCloseTo(x1 / treated.length, 12);
    expect(result.holdout.conversion_rate).toBeCloseTo(x2 / heldOut.length, 12);
    const lift = expectedLift(x1, treated.length, x2, heldOut.length);
    expect(result.lift).toMatchObject({ clients: lift.clients, method: 'normal', significant: lift.low > 0 || lift.high < 0 });
    expect(Math.abs(result.lift.low - lift.low)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(result.lift.high - lift.high)).toBeLessThanOrEqual(0.5);
    // The clients behind each number open as a client list.
    const listed = async (group: string) => {
      const answer = await call('GET', `/api/client/v1/clients/1?perPage=500&outcome=broadcast:${first.id}:${group}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer
        .json()
        .clients.map((client: { _id: number }) => Number(client._id))
        .sort((a: number, b: number) => a - b);
    };
    expect(await listed('converted')).toEqual(convertedSet(treated, 'any', NOW.getTime(), 7));
    expect(await listed('held_out_converted')).toEqual(convertedSet(heldOut, 'any', NOW.getTime(), 7));
    expect(await listed('held_out')).toEqual(heldOut);
    expect((await call('GET', `/api/client/v1/clients/1?outcome=broadcast:${first.id}:everyone`)).statusCode).toBe(400);
  });

  it('measures a second broadcast by its own goal and window, skipped clients included', async () => {
    clock.set(new Date(NOW.getTime() + HOUR));
    owner = await signIn(app);
    const created = (
      await call('POST', '/api/admin/v1/broadcasts', {
        filter: { q: '@outcome.test' },
        body: 'Classes this week',
        goal: { kind: 'class', window_days: 3 },
        holdout_percent: 20,
      })
    ).json();
    await app.jobs.drain([BROADCAST_SEND]);
    const heldOut = clientIds.filter((id) => draw(`broadcast:${created.id}`, id) < 0.2);
    const treated = clientIds.filter((id) => !heldOut.includes(id));
    const start = NOW.getTime() + HOUR;
    const result = await outcome(created.id);
    // Clients at their daily cap are skipped, yet still meant for it.
    expect(result).toMatchObject({
      goal: 'class',
      window_days: 3,
      clients: treated.length,
      converted: convertedSet(treated, 'class', start, 3).length,
      holdout: { clients: heldOut.length, converted: convertedSet(heldOut, 'class', start, 3).length },
    });
  });

  it('keeps up as visits, views and purchases arrive, change and go', async () => {
    const heldOut = new Set(clientIds.filter((id) => draw(`broadcast:${first.id}`, id) < 0.5));
    const before = await outcome(first.id);
    const notYet = clientIds.filter((id) => !heldOut.has(id) && convertedSet([id], 'any', NOW.getTime(), 7).length === 0);
    const [a, b, c] = notYet;
    await addView(database, a!, new Date(NOW.getTime() + 2 * DAY));
    await addVisit(database, b!, new Date(NOW.getTime() + 3 * DAY), false);
    // outside the window: changes nothing
    await database.query('INSERT INTO purchases (client_id, purchased_at) VALUES ($1, $2)', [c, new Date(NOW.getTime() + 7 * DAY).toISOString()]);
    expect((await outcome(first.id)).converted).toBe(before.converted + 1);
    await database.query('UPDATE mindbody_visits SET signed_in = true WHERE client_id = $1', [b]);
    expect((await outcome(first.id)).converted).toBe(before.converted + 2);
    await database.query('DELETE FROM video_views WHERE client_id = $1', [a]);
    expect((await outcome(first.id)).converted).toBe(before.converted + 1);
  });

  it('records opens the app reports, once, refusing pushes that are not the client’s alike', async () => {
    const pushes = await database.query<{ id: number; client_id: number }>(
      "SELECT id, client_id FROM pushes WHERE data->>'broadcast_id' = $1 AND status = 'sent' ORDER BY id LIMIT 3",
      [String(first.id)],
    );
    for (const push of pushes) {
      const answer = await opened({ email: email(Number(push.client_id)), push_id: push.id });
      expect(answer.statusCode, answer.body).toBe(201);
      expect(answer.json()).toMatchObject({ push_id: Number(push.id), duplicate: false });
    }
    const again = await opened({ email: email(Number(pushes[0]!.client_id)), push_id: String(pushes[0]!.id) });
    expect(again.statusCode).toBe(200);
    expect(again.json().duplicate).toBe(true);
    const others = await opened({ email: email(Number(pushes[1]!.client_id)), push_id: pushes[0]!.id });
    const unknown = await opened({ email: email(Number(pushes[1]!.client_id)), push_id: 999_999_999 });
    const nobody = await opened({ email: 'nobody@outcome.test', push_id: pushes[0]!.id });
    expect([others.statusCode, unknown.statusCode, nobody.statusCode]).toEqual([404, 404, 404]);
    expect(new Set([others.json().message, unknown.json().message, nobody.json().message]).size).toBe(1);
    for (const bad of [
      { email: email(1) },
      { email: email(1), push_id: -1 },
      { email: email(1), push_id: '1e3' },
      { push_id: 1 },
      { email: email(1), push_id: 1, opened_at: '2099-01-01T00:00:00Z' },
    ])
      expect((await opened(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    expect((await opened({ email: email(1), push_id: 1 }, null)).statusCode).toBe(401);
    expect((await outcome(first.id)).opened).toBe(3);
    const timeline = (await call('GET', `/api/admin/v1/clients/${pushes[0]!.client_id}/timeline?kinds=push`)).json();
    expect(timeline.entries.filter((entry: { event: string }) => entry.event === 'push.opened')).toEqual([
      expect.objectContaining({ event: 'push.opened', title: expect.stringMatching(/^Come back, C\d+$/) }),
    ]);
  });

  it('keeps one outcome per broadcast when two clients who both got it are merged', async () => {
    const [kept, merged] = clientIds.slice(-2) as [number, number];
    const before = await outcome(first.id);
    await mergeClients(database, [kept, merged], { siteId: -99, mbClientId: 'outcome-merge', uniqueId: null }, 'same_client_id', clock.now());
    const after = await outcome(first.id);
    expect(after.clients + after.holdout.clients).toBe(before.clients + before.holdout.clients - 1);
    const rows = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM message_outcomes WHERE broadcast_id = $1 AND client_id = $2', [
      first.id,
      kept,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  it('marks the held-out clients on their timeline, and answers 404 for an unknown broadcast', async () => {
    const held = clientIds.find((id) => draw(`broadcast:${first.id}`, id) < 0.5)!;
    const timeline = (await call('GET', `/api/admin/v1/clients/${held}/timeline?kinds=push`)).json();
    expect(timeline.entries).toContainEqual(expect.objectContaining({ event: 'push.held_out', title: 'Come back, {first_name}' }));
    expect((await call('GET', '/api/admin/v1/broadcasts/999999/outcome')).statusCode).toBe(404);
    for (const payload of [
      { holdout_percent: 51 },
      { holdout_percent: -1 },
      { holdout_percent: 10.5 },
      { goal: { kind: 'visit' } },
      { goal: { kind: 'any', window_days: 31 } },
      { goal: { kind: 'any', window_days: 0 } },
    ]) {
      const answer = await call('POST', '/api/admin/v1/broadcasts', { filter: { q: '@outcome.test' }, body: 'x', draft: true, ...payload });
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});
