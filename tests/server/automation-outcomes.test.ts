import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { addClient, addTemplate, addView, addVisit, resetAutomation } from '../support/automation';

const DAY = 86_400_000;
/** Computed here: MD5("automated:<type>:<Monday>:<client>") as a fraction of 2^32. */
const draw = (seed: string, clientId: number) => parseInt(createHash('md5').update(`${seed}:${clientId}`).digest('hex').slice(0, 8), 16) / 2 ** 32;

describe.each(testDatabases())('automated messages: holdout and results by week on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let owner: string;
  const clock = testClock(new Date('2026-11-23T08:00:00Z'));
  const call = (method: string, url: string, payload?: unknown) =>
    app.inject({ method: method as 'GET', url, headers: { cookie: owner }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5', STUDIO_TIME_ZONE: 'Europe/London' } });
    owner = await signIn(app);
    await resetAutomation(database);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('holds out the drawn share of High Five for the week, and measures the rest against it', async () => {
    await addTemplate(database, 1, 'High five, {first_name}!', 'Nice class.');
    const settings = await call('PUT', '/api/admin/v1/automated-messages/1/settings', {
      settings: { goal: 'stream', goal_window_days: 2, holdout_percent: 40 },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().settings).toMatchObject({ goal: 'stream', goal_window_days: 2, holdout_percent: 40 });
    const bad = await call('PUT', '/api/admin/v1/automated-messages/1/settings', { settings: { holdout_percent: 60 } });
    expect(bad.statusCode).toBe(400);

    const clients: number[] = [];
    for (let i = 0; i < 80; i++) {
      const id = await addClient(database, { first_name: `Client ${i}` });
      clients.push(id);
      await addVisit(database, id, { kind: 'signed_in', start: '2026-11-23T09:00:00Z' });
    }
    clock.set(new Date('2026-11-23T11:00:00Z'));
    for (let round = 0; round < 3; round++) {
      await app.automation.engine.tick();
      await app.jobs.runDue();
    }
    const seed = 'automated:1:2026-11-23';
    const heldOut = clients.filter((id) => draw(seed, id) < 0.4);
    const treated = clients.filter((id) => !heldOut.includes(id));
    const rows = await database.query<{ client_id: number; status: string; skip_reason: string | null; push_id: number | null }>(
      'SELECT client_id, status, skip_reason, push_id FROM automated_pushes WHERE message_type = 1',
    );
    expect(rows).toHaveLength(80);
    expect(
      rows
        .filter((row) => row.skip_reason === 'held_out')
        .map((row) => Number(row.client_id))
        .sort((a, b) => a - b),
    ).toEqual(heldOut);
    expect(rows.filter((row) => row.status === 'sent').length).toBe(treated.length);

    // Streams inside the two-day window for every third client, outside it for every fifth.
    const sentAt = new Map(
      (await database.query<{ client_id: number; created_at: Date | string }>('SELECT client_id, created_at FROM pushes')).map((row) => [
        Number(row.client_id),
        new Date(row.created_at).getTime(),
      ]),
    );
    const start = (id: number) => sentAt.get(id) ?? clock.now().getTime();
    for (const id of clients) {
      if (id % 3 === 0) await addView(database, id, new Date(start(id) + DAY).toISOString());
      if (id % 5 === 0) await addView(database, id, new Date(start(id) + 2 * DAY + 60_000).toISOString());
    }
    const converted = (ids: number[]) => ids.filter((id) => id % 3 === 0).length;
    // sessions end after 30 idle minutes
    owner = await signIn(app);
    const answer = await call('GET', '/api/admin/v1/automation/outcomes?type=1&from=2026-11-16&to=2026-11-30');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual([
      expect.objectContaining({
        type: 1,
        week: '2026-11-23',
        goal: 'stream',
        window_days: 2,
        clients: treated.length,
        sent: treated.length,
        converted: converted(treated),
        holdout: { clients: heldOut.length, converted: converted(heldOut), conversion_rate: converted(heldOut) / heldOut.length },
      }),
    ]);
    const timeline = (await call('GET', `/api/admin/v1/clients/${heldOut[0]}/timeline?kinds=push`)).json();
    expect(timeline.entries).toEqual([expect.objectContaining({ event: 'push.held_out', title: 'High Five' })]);
    // A week with nothing sent has no row; other types none either.
    expect((await call('GET', '/api/admin/v1/automation/outcomes?type=2')).json()).toEqual([]);
    for (const query of ['type=7', 'from=2026-13-01', 'from=2026-11-30&to=2026-11-01', 'type=abc'])
      expect((await call('GET', `/api/admin/v1/automation/outcomes?${query}`)).statusCode, query).toBe(400);
  });
});
