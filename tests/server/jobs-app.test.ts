import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import type { MindbodyApi } from '../../server/src/integrations/mindbody';
import { AUTOMATION_TICK } from '../../server/src/automation';
import { MINDBODY_SYNC } from '../../server/src/mindbody/sync';
import { startMindbodySync } from '../../server/src/mindbody/jobs';
import { OVERRIDE_EXPIRY } from '../../server/src/clients/accessOverride';
import { testDatabases } from '../support/databases';
import { createTestApp, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { loadConfig } from '../../server/src/config';
import { runMigrations } from '../../server/src/db/migrate';
import { ensureSyncRow, finishSync, getSync, markSyncRunning } from '../../server/src/videos/syncQueries';

const MINUTE = 60_000;
const T0 = new Date('2026-11-22T12:00:00Z');

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('job settings', () => {
  it("validates JOB_RETENTION_DAYS and the lanes' JOB_CONCURRENCY_* with a message naming the variable", () => {
    const config = loadConfig({});
    expect([config.JOB_RETENTION_DAYS, config.JOB_CONCURRENCY_DEFAULT, config.JOB_CONCURRENCY_SYNC, config.JOB_CONCURRENCY_MESSAGES]).toEqual([14, 2, 2, 4]);
    expect(loadConfig({ JOB_RETENTION_DAYS: '30', JOB_CONCURRENCY_MESSAGES: '8' })).toMatchObject({ JOB_RETENTION_DAYS: 30, JOB_CONCURRENCY_MESSAGES: 8 });
    for (const bad of ['0', '-1', '2.5', 'two weeks', '3651']) {
      expect(() => loadConfig({ JOB_RETENTION_DAYS: bad })).toThrow('Invalid configuration: JOB_RETENTION_DAYS must be a whole number of days from 1 to 3650');
    }
    expect(() => loadConfig({ JOB_CONCURRENCY_SYNC: '0' })).toThrow(
      'Invalid configuration: JOB_CONCURRENCY_SYNC must be a whole number of workers from 1 to 20',
    );
    expect(() => loadConfig({ JOB_CONCURRENCY_DEFAULT: 'many' })).toThrow(
      'Invalid configuration: JOB_CONCURRENCY_DEFAULT must be a whole number of workers from 1 to 20',
    );
  });
});

/** The job queue as the whole app uses it: schedules from the configuration, lanes, retention. */
describe.each(testDatabases())('jobs in the app on $name', ({ open }) => {
  let database: Database;
  const clock = testClock(T0);
  const schedule = async (name: string) =>
    database.query<{ every_ms: number; next_run_at: Date }>('SELECT every_ms, next_run_at FROM job_schedules WHERE name = $1', [name]);
  const runsOf = async (queue: string) => (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE queue = $1', [queue]))[0]!.n;

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('AUTOMATED_MESSAGES_INTERVAL_MINUTES=0 on a database that has the schedule removes it, and no run happens', async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(T0);
    const on = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5' } });
    await on.close();
    expect(await schedule(AUTOMATION_TICK)).toHaveLength(1);
    const off = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '0' } });
    try {
      expect(await schedule(AUTOMATION_TICK)).toEqual([]);
      clock.advance(10 * MINUTE);
      await off.jobs.runDue();
      expect(await runsOf(AUTOMATION_TICK)).toBe(0);
    } finally {
      await off.close();
    }
  });

  it('a longer interval takes effect from the last run, a shorter one too', async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(T0);
    const every5 = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '5' } });
    await every5.jobs.runDue(); // the first run, at T0
    await every5.close();
    expect(await runsOf(AUTOMATION_TICK)).toBe(1);

    clock.advance(1 * MINUTE);
    const hourly = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '60' } });
    try {
      expect(await schedule(AUTOMATION_TICK)).toEqual([{ every_ms: 60 * MINUTE, next_run_at: new Date(T0.getTime() + 60 * MINUTE) }]);
      clock.set(new Date(T0.getTime() + 30 * MINUTE));
      await hourly.jobs.runDue();
      expect(await runsOf(AUTOMATION_TICK)).toBe(1);
      clock.set(new Date(T0.getTime() + 60 * MINUTE));
      await hourly.jobs.runDue();
      expect(await runsOf(AUTOMATION_TICK)).toBe(2);
    } finally {
      await hourly.close();
    }

    const every10 = await createTestApp(database, { clock, env: { AUTOMATED_MESSAGES_INTERVAL_MINUTES: '10' } });
    try {
      expect(await schedule(AUTOMATION_TICK)).toEqual([{ every_ms: 10 * MINUTE, next_run_at: new Date(T0.getTime() + 70 * MINUTE) }]);
    } finally {
      await every10.close();
    }
  });

  it('runs override expiry on time while a long Mindbody import holds the sync lane', async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules; DELETE FROM clients;');
    clock.set(T0);
    const importStarted = deferred();
    const importMayEnd = deferred();
    const slowMindbody: MindbodyApi = {
      mode: 'sandbox',
      siteIds: [-99],
      async *clientPages() {
        importStarted.resolve();
        await importMayEnd.promise;
        yield* []; // a studio with no clients, after a long wait
      },
      getClientVisits: async () => [],
      getClientContracts: async () => [],
    };
    const app = await createTestApp(database, { clock, mindbody: slowMindbody });
    try {
      const ada = await insertClient(database, { first_name: 'Ada', vod_access_level: 3, admin_updated_expiration: new Date(T0.getTime() + 5 * MINUTE) });
      await database.query('UPDATE clients SET admin_replaced_access_level = 1 WHERE id = $1', [ada]);
      await app.jobs.runDue(); // the runs due at start, so that the import runs alone below
      await startMindbodySync(app);
      const importPass = app.jobs.runDue();
      await importStarted.promise;

      clock.advance(6 * MINUTE); // within the import's lease: it is still running
      await app.jobs.runDue();
      const [row] = await database.query<{ vod_access_level: number }>('SELECT vod_access_level FROM clients WHERE id = $1', [ada]);
      expect(row!.vod_access_level).toBe(1);
      expect(await runsOf(OVERRIDE_EXPIRY)).toBeGreaterThan(0);
      expect((await app.jobs.latest(MINDBODY_SYNC))?.state).toBe('running');

      importMayEnd.resolve();
      await importPass;
    } finally {
      await app.close();
    }
  });

  it('prunes finished jobs older than JOB_RETENTION_DAYS and keeps the rest', async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(T0);
    const day = 24 * 60 * MINUTE;
    const ago = (days: number) => new Date(T0.getTime() - days * day).toISOString();
    const insert = (state: string, finishedDaysAgo: number | null, createdDaysAgo: number) =>
      database.query<{ id: number }>(
        `INSERT INTO jobs (queue, payload, state, run_at, created_at, finished_at) VALUES ('old.work', '{}', $1, $2, $2, $3) RETURNING id`,
        [state, ago(createdDaysAgo), finishedDaysAgo === null ? null : ago(finishedDaysAgo)],
      );
    for (let i = 0; i < 5; i++) await insert('done', 20, 20);
    await insert('failed', 15, 15);
    const keep = [
      ...(await insert('done', 6, 6)),
      ...(await insert('failed', 1, 1)),
      ...(await insert('queued', null, 30)),
      ...(await insert('running', null, 30)),
    ].map((row) => Number(row.id));
    const app = await createTestApp(database, { clock, env: { JOB_RETENTION_DAYS: '7' } });
    try {
      clock.advance(2 * 60 * MINUTE);
      await app.jobs.runDue();
      const left = (await database.query<{ id: number }>("SELECT id FROM jobs WHERE queue = 'old.work' ORDER BY id")).map((row) => Number(row.id));
      expect(left).toEqual(keep);
    } finally {
      await app.close();
    }
  });

  it("keeps a Vimeo sync's record when its job is pruned", async () => {
    await database.execScript('DELETE FROM vimeo_syncs; DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(T0);
    const day = 24 * 60 * MINUTE;
    const longAgo = new Date(T0.getTime() - 30 * day);
    const job = async (state: string) =>
      Number(
        (
          await database.query<{ id: number }>(
            `INSERT INTO jobs (queue, payload, state, run_at, created_at, finished_at, last_error) VALUES ('vimeo.sync', '{}', $1, $2, $2, $2, $3) RETURNING id`,
            [state, longAgo.toISOString(), state === 'failed' ? 'the worker running it stopped' : null],
          )
        )[0]!.id,
      );
    const finished = await job('done');
    await ensureSyncRow(database, finished, 'sandbox', 'coach@studio.test', longAgo);
    await finishSync(database, finished, { missing: 2, now: longAgo });
    // A sync whose process died: its own row still says running.
    const died = await job('failed');
    await ensureSyncRow(database, died, 'sandbox', null, longAgo);
    await markSyncRunning(database, died, longAgo);
    const [finishedSync, diedSync] = await database.query<{ id: number }>('SELECT id FROM vimeo_syncs ORDER BY id');
    const app = await createTestApp(database, { clock });
    try {
      clock.advance(2 * 60 * MINUTE);
      await app.jobs.runDue();
      expect(await database.query("SELECT id FROM jobs WHERE queue = 'vimeo.sync'")).toEqual([]);
      expect(await getSync(database, Number(finishedSync!.id))).toMatchObject({ state: 'done', videos_missing: 2, requested_by: 'coach@studio.test' });
      expect(await getSync(database, Number(diedSync!.id))).toMatchObject({
        state: 'failed',
        error: 'The sync stopped without finishing (no reason recorded).',
      });
    } finally {
      await app.close();
    }
  });
});

describe.each(testDatabases())('upgrading automated pushes onto the job queue on $name', ({ open }) => {
  it('gives every waiting push its sending job, with its attempts, and leaves decided ones alone', async () => {
    const database = await open({ migrateThrough: '0032_job_claims_and_retention.sql' });
    try {
      const [client] = await database.query<{ id: number }>("INSERT INTO clients (first_name) VALUES ('Ana') RETURNING id");
      const push = async (status: string, attempts: number, dueAt: string) =>
        Number(
          (
            await database.query<{ id: number }>(
              `INSERT INTO automated_pushes (message_type, client_id, event_key, planned_for, due_at, status, attempts, locked_by, locked_until, created_at)
             VALUES (1, $1, $2, $3, $3, $4, $5, $6, $7, $3) RETURNING id`,
              [client!.id, `visit:${status}`, dueAt, status, attempts, status === 'sending' ? 'old-worker' : null, status === 'sending' ? dueAt : null],
            )
          )[0]!.id,
        );
      const waiting = await push('pending', 1, '2026-11-23T11:00:00Z');
      const claimed = await push('sending', 2, '2026-11-23T11:05:00Z');
      await push('sent', 1, '2026-11-23T10:00:00Z');
      expect(await runMigrations(database)).toContain('0033_automated_pushes_on_queue.sql');
      expect(await database.query('SELECT status FROM automated_pushes ORDER BY id')).toEqual([
        { status: 'pending' },
        { status: 'pending' },
        { status: 'sent' },
      ]);
      expect(
        await database.query("SELECT payload, singleton_key, state, run_at, attempts, max_attempts FROM jobs WHERE queue = 'automation.send' ORDER BY id"),
      ).toEqual([
        {
          payload: { automated_push_id: waiting },
          singleton_key: String(waiting),
          state: 'queued',
          run_at: new Date('2026-11-23T11:00:00Z'),
          attempts: 1,
          max_attempts: 4,
        },
        {
          payload: { automated_push_id: claimed },
          singleton_key: String(claimed),
          state: 'queued',
          run_at: new Date('2026-11-23T11:05:00Z'),
          attempts: 2,
          max_attempts: 4,
        },
      ]);
    } finally {
      await database.close();
    }
  });
});
