import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Broadcast } from '@contract/broadcasts';
import type { BroadcastOutcome } from '@contract/outcomes';
import type { Database } from '../../server/src/db/client';
import { BROADCAST_SEND } from '../../server/src/broadcasts/store';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { addView, resetActivityFixtures } from '../support/activityFixtures';

const NOW = new Date('2026-11-23T09:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A small seeded generator: the same histories on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Computed here, not by the code under test: MD5("<seed>:<client>") as a fraction of 2^32. */
const draw = (seed: string, clientId: number) => parseInt(createHash('md5').update(`${seed}:${clientId}`).digest('hex').slice(0, 8), 16) / 2 ** 32;

/**
 * Who gets which version, as documented: the holdout (broadcast seed) first; the others ordered by
 * their variant-seed draw, the first round(n × test %) dealt A, B, C, A, …; the rest wait.
 */
function expectedSplit(id: number, clientIds: number[], holdoutPercent: number, testPercent: number, versions: number) {
  const held = clientIds.filter((c) => holdoutPercent > 0 && draw(`broadcast:${id}`, c) < holdoutPercent / 100);
  const treated = clientIds.filter((c) => !held.includes(c)).sort((a, b) => draw(`variant:${id}`, a) - draw(`variant:${id}`, b) || a - b);
  const testSize = Math.round((treated.length * testPercent) / 100);
  const byVersion: number[][] = Array.from({ length: versions }, () => []);
  treated.slice(0, testSize).forEach((c, rank) => byVersion[rank % versions]!.push(c));
  return { held, treated, byVersion, rest: treated.slice(testSize) };
}

/** The reference's interval of p1 − p2 (the normal approximation: every group here has ≥ 10 of each outcome). */
function beatsBeyondInterval(x1: number, n1: number, x2: number, n2: number) {
  for (const [x, n] of [
    [x1, n1],
    [x2, n2],
  ] as const)
    expect(Math.min(x, n - x), 'the test data keeps the normal approximation valid').toBeGreaterThanOrEqual(10);
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  return p1 - p2 - 1.96 * Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2) > 0;
}

/** The winner by the documented rule, computed here: the best rate if it beats every other beyond the interval, else the first. */
function expectedWinner(groups: { n: number; x: number }[]) {
  let best = 0;
  groups.forEach((g, i) => {
    if (g.x / g.n > groups[best]!.x / groups[best]!.n) best = i;
  });
  const clear = groups.every((g, i) => i === best || beatsBeyondInterval(groups[best]!.x, groups[best]!.n, g.x, g.n));
  return clear ? { index: best, reason: 'better' } : { index: 0, reason: 'no_clear_winner' };
}

const VERSIONS = [
  { title: 'A: come back, {first_name}', body: 'Classes this week' },
  { title: 'B: we miss you', body: 'A free class is waiting' },
  { title: 'C: new videos', body: 'Stream the new series' },
];

describe.each(testDatabases())('broadcast versions on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  const clock = testClock(NOW);

  const call = (method: string, url: string, payload?: unknown) =>
    app.inject({ method: method as 'GET', url, headers: { cookie: owner }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const read = async (id: number) => (await call('GET', `/api/admin/v1/broadcasts/${id}`)).json() as Broadcast;
  const outcome = async (id: number) => {
    const answer = await call('GET', `/api/admin/v1/broadcasts/${id}/outcome`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as BroadcastOutcome;
  };
  const drain = () => app.jobs.drain([BROADCAST_SEND]);
  const at = async (time: Date) => {
    clock.set(time);
    owner = await signIn(app);
  };
  /** `n` fresh clients with a device each, reached by the filter q = '@<tag>.test'. */
  const clients = async (tag: string, n: number) => {
    const rows = await database.query<{ id: number; first_name: string }>(
      `INSERT INTO clients (first_name, last_name, email_address, client_status)
       SELECT 'V' || g, 'Variant', 'v' || g || '@${tag}.test', 'Active' FROM generate_series(1, ${n}) g RETURNING id, first_name`,
    );
    for (const row of rows) names.set(Number(row.id), row.first_name);
    const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    await database.query(
      `INSERT INTO debug_records (client_id, email, platform, firebase_token_new, used_for_push, created_at)
       SELECT id, 'x@studio.test', 'ios', 'tok-' || id, true, now() FROM unnest($1::bigint[]) AS t(id)`,
      [ids],
    );
    return ids;
  };
  /** The title of the push each client got from this broadcast. */
  const titles = async (id: number) => {
    const rows = await database.query<{ client_id: number; title: string }>("SELECT client_id, title FROM pushes WHERE data->>'broadcast_id' = $1", [
      String(id),
    ]);
    return new Map(rows.map((row) => [Number(row.client_id), row.title]));
  };
  const names = new Map<number, string>();
  /** A version's title as a client sees it, {first_name} filled in. */
  const titleFor = (version: number, client: number) => VERSIONS[version]!.title.replace('{first_name}', names.get(client)!);
  const accounted = (b: Broadcast) =>
    b.counts.sent + b.counts.failed + b.counts.skipped + b.counts.pending + b.counts.retrying + b.counts.waiting + b.counts.not_sent;

  beforeAll(async () => {
    resetActivityFixtures();
    database = await open();
    app = await createTestApp(database, { clock });
    owner = await signIn(app);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('sends each version to its equal share of the test part, never to the held out, and keeps the rest waiting, counted as such', async () => {
    const ids = await clients('split', 240);
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      filter: { q: '@split.test' },
      variants: VERSIONS,
      holdout_percent: 20,
      test_percent: 30,
      pick_winner_after_hours: 6,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id, recipients } = created.json();
    const split = expectedSplit(id, ids, 20, 30, 3);
    expect(recipients).toBe(split.treated.length);
    const shares = split.byVersion.map((v) => v.length);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);

    await drain();
    const got = await titles(id);
    split.byVersion.forEach((version, index) => {
      for (const client of version) expect(got.get(client)).toBe(titleFor(index, client));
    });
    expect(got.size).toBe(split.byVersion.flat().length);
    for (const client of [...split.held, ...split.rest]) expect(got.has(client)).toBe(false);

    const broadcast = await read(id);
    expect(broadcast).toMatchObject({
      status: 'sending',
      variants: VERSIONS,
      test_percent: 30,
      pick_winner_after_hours: 6,
      winner_metric: 'conversion',
      winner: null,
      title: VERSIONS[0]!.title,
      held_out: split.held.length,
    });
    expect(broadcast.counts).toMatchObject({ sent: split.byVersion.flat().length, waiting: split.rest.length, pending: 0 });
    expect(accounted(broadcast)).toBe(broadcast.recipients);

    const result = await outcome(id);
    expect(result.variants.map((v) => v.clients)).toEqual(shares);
    expect(result.variants.map((v) => v.sent)).toEqual(shares);
    expect(result).toMatchObject({
      waiting: split.rest.length,
      winner: null,
      winner_due_at: new Date(NOW.getTime() + 6 * HOUR).toISOString(),
      clients: split.byVersion.flat().length,
      holdout: { clients: split.held.length },
    });

    // Before the hours are up nothing more goes out; a cancel then leaves the rest unsent for good.
    await at(new Date(NOW.getTime() + 2 * HOUR));
    await drain();
    expect((await titles(id)).size).toBe(split.byVersion.flat().length);
    expect((await call('POST', `/api/admin/v1/broadcasts/${id}/cancel`)).statusCode).toBe(200);
    await at(new Date(NOW.getTime() + 7 * HOUR));
    await drain();
    const cancelled = await read(id);
    expect(cancelled).toMatchObject({ status: 'cancelled', winner: null, counts: { waiting: 0, not_sent: split.rest.length } });
    expect(accounted(cancelled)).toBe(cancelled.recipients);
    expect((await titles(id)).size).toBe(split.byVersion.flat().length);
    expect(await outcome(id)).toMatchObject({ waiting: 0, winner: null, winner_due_at: null, clients: split.byVersion.flat().length });
  });

  it('picks the version with the best conversion rate beyond the interval after the hours, sends it to the rest by itself, and measures each version as computed by hand', async () => {
    const start = new Date(NOW.getTime() + DAY);
    await at(start);
    const ids = await clients('winner', 400);
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      filter: { q: '@winner.test' },
      variants: VERSIONS.slice(0, 2),
      holdout_percent: 10,
      test_percent: 50,
      pick_winner_after_hours: 4,
      winner_metric: 'conversion',
      goal: { kind: 'stream', window_days: 2 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json();
    const split = expectedSplit(id, ids, 10, 50, 2);
    await drain();

    // A generated history: B's clients stream far more often within the hours; the held out and the
    // rest stream too, some before the rest is sent to (not a conversion of theirs), some after.
    const random = generator(42);
    const events = new Map<number, number[]>();
    const odds = (client: number) => (split.byVersion[1]!.includes(client) ? 0.45 : 0.15);
    for (const client of ids) {
      const times: number[] = [];
      if (random() < odds(client)) times.push(start.getTime() + Math.floor(1 + random() * 2.5 * 60) * 60_000);
      if (random() < 0.2) times.push(start.getTime() + Math.floor(random() * 48) * HOUR + 30 * 60_000);
      events.set(client, times);
      for (const time of times) await addView(database, client, new Date(time));
    }
    const converted = (group: number[], from: number, days: number) =>
      group.filter((c) => (events.get(c) ?? []).some((t) => t >= from && t < from + days * DAY)).length;

    const testGroups = split.byVersion.map((version) => ({ n: version.length, x: converted(version, start.getTime(), 2) }));
    const wanted = expectedWinner(testGroups);
    expect(wanted, 'the generated history has a clear winner').toEqual({ index: 1, reason: 'better' });

    // An hour before: still waiting.
    await at(new Date(start.getTime() + 3 * HOUR));
    await drain();
    expect((await read(id)).counts.waiting).toBe(split.rest.length);

    const pickedAt = new Date(start.getTime() + 4 * HOUR);
    await at(pickedAt);
    await drain();
    const done = await read(id);
    expect(done).toMatchObject({ status: 'sent', winner: { index: 1, reason: 'better' }, counts: { waiting: 0, sent: done.recipients } });
    expect(accounted(done)).toBe(done.recipients);
    const got = await titles(id);
    for (const client of split.rest) expect(got.get(client)).toBe(VERSIONS[1]!.title);
    for (const client of split.byVersion[0]!) expect(got.get(client)).toBe(titleFor(0, client));

    const result = await outcome(id);
    expect(result.winner).toMatchObject({
      index: 1,
      reason: 'better',
      metric: 'conversion',
      versions: testGroups.map((g) => ({ clients: g.n, hits: g.x })),
    });
    result.winner!.versions.forEach((v, i) => expect(v.rate).toBeCloseTo(testGroups[i]!.x / testGroups[i]!.n, 12));
    expect(result.variants.map((v) => ({ clients: v.clients, converted: v.converted, winner: v.winner }))).toEqual(
      testGroups.map((g, i) => ({ clients: g.n, converted: g.x, winner: i === 1 })),
    );
    // Everyone sent to, the rest measured from their own push (the pick's moment), the holdout from the start.
    const restConverted = converted(split.rest, pickedAt.getTime(), 2);
    expect(result).toMatchObject({
      clients: split.treated.length,
      converted: testGroups[0]!.x + testGroups[1]!.x + restConverted,
      holdout: { clients: split.held.length, converted: converted(split.held, start.getTime(), 2) },
      waiting: 0,
      winner_due_at: null,
    });
  });

  it('sends the first version to the rest when none is better beyond the interval (by opens), and picks it after a restart', async () => {
    const start = new Date(NOW.getTime() + 2 * DAY);
    await at(start);
    const ids = await clients('tie', 300);
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      filter: { q: '@tie.test' },
      variants: VERSIONS.slice(1, 3),
      test_percent: 50,
      pick_winner_after_hours: 2,
      winner_metric: 'open',
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json();
    const split = expectedSplit(id, ids, 0, 50, 2);
    await drain();
    // Opens reported for about a third of each version's pushes: no clear difference.
    const random = generator(7);
    const openedBy = split.byVersion.map((version) => version.filter(() => random() < 0.33));
    await database.query(`UPDATE pushes SET opened_at = $2 WHERE data->>'broadcast_id' = $1 AND client_id = ANY($3::bigint[])`, [
      String(id),
      new Date(start.getTime() + HOUR).toISOString(),
      openedBy.flat(),
    ]);
    const groups = split.byVersion.map((version, i) => ({ n: version.length, x: openedBy[i]!.length }));
    expect(expectedWinner(groups)).toEqual({ index: 0, reason: 'no_clear_winner' });

    // The server stops and another starts on the same database: the pick is still due, and happens.
    await app.close();
    app = await createTestApp(database, { clock });
    await at(new Date(start.getTime() + 2 * HOUR));
    await drain();
    const done = await read(id);
    expect(done).toMatchObject({ status: 'sent', winner: { index: 0, reason: 'no_clear_winner' } });
    const got = await titles(id);
    for (const client of split.rest) expect(got.get(client)).toBe(VERSIONS[1]!.title);
    const result = await outcome(id);
    expect(result.winner).toMatchObject({ metric: 'open', reason: 'no_clear_winner', versions: groups.map((g) => ({ clients: g.n, hits: g.x })) });
    expect(result.variants.map((v) => v.opened)).toEqual(groups.map((g) => g.x));
    result.variants.forEach((v, i) => expect(v.open_rate).toBeCloseTo(groups[i]!.x / groups[i]!.n, 12));
  });

  it('keeps the versions of a draft, edits version A with the draft, and deals them when the draft is sent', async () => {
    const start = new Date(NOW.getTime() + 3 * DAY);
    await at(start);
    const ids = await clients('draft', 60);
    const created = await call('POST', '/api/admin/v1/broadcasts', {
      filter: { q: '@draft.test' },
      variants: VERSIONS.slice(1, 3),
      test_percent: 50,
      draft: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json();
    expect(await read(id)).toMatchObject({
      status: 'draft',
      variants: VERSIONS.slice(1, 3),
      test_percent: 50,
      pick_winner_after_hours: 4,
      winner_metric: 'conversion',
    });
    const edited = await call('PUT', `/api/admin/v1/broadcasts/${id}`, { title: 'Edited A', body: 'Edited text' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().variants).toEqual([{ title: 'Edited A', body: 'Edited text' }, VERSIONS[2]]);
    expect((await call('POST', `/api/admin/v1/broadcasts/${id}/send`, {})).statusCode).toBe(200);
    await drain();
    const split = expectedSplit(id, ids, 0, 50, 2);
    const got = await titles(id);
    for (const client of split.byVersion[0]!) expect(got.get(client)).toBe('Edited A');
    for (const client of split.byVersion[1]!) expect(got.get(client)).toBe(VERSIONS[2]!.title);
    expect(got.size).toBe(split.byVersion.flat().length);
    expect((await read(id)).counts.waiting).toBe(split.rest.length);
  });

  it('refuses bad versions and settings with 400, naming the field', async () => {
    const base = { filter: { q: '@split.test' } };
    const refused = async (payload: object, path: string) => {
      const answer = await call('POST', '/api/admin/v1/broadcasts', { ...base, ...payload });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await refused({ variants: [...VERSIONS, VERSIONS[0]] }, 'body.variants');
    await refused({ variants: VERSIONS.slice(0, 1) }, 'body.variants');
    await refused({ variants: [VERSIONS[0], { title: '  ', body: 'x' }] }, 'body.variants.1.title');
    await refused({ variants: [VERSIONS[0], { title: 'B', body: '' }] }, 'body.variants.1.body');
    await refused({ variants: VERSIONS.slice(0, 2), test_percent: 4 }, 'body.test_percent');
    await refused({ variants: VERSIONS.slice(0, 2), test_percent: 51 }, 'body.test_percent');
    await refused({ variants: VERSIONS.slice(0, 2), test_percent: 12.5 }, 'body.test_percent');
    await refused({ variants: VERSIONS.slice(0, 2), pick_winner_after_hours: 0 }, 'body.pick_winner_after_hours');
    await refused({ variants: VERSIONS.slice(0, 2), pick_winner_after_hours: 169 }, 'body.pick_winner_after_hours');
    await refused({ variants: VERSIONS.slice(0, 2), winner_metric: 'clicks' }, 'body.winner_metric');
    await refused({ variants: VERSIONS.slice(0, 2), body: 'also a body' }, 'body.body');
    await refused({ body: 'one text', test_percent: 20 }, 'body.test_percent');
    await refused({ title: 'no body' }, 'body.body');
    const count = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM broadcasts WHERE filter->>'q' = '@split.test'");
    expect(Number(count[0]!.n)).toBe(1);
  });
});
