import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { backoffDelayMs, createJobQueue, JobError, runAgainAt } from '../../server/src/jobs/queue';
import { testDatabases } from '../support/databases';
import { testClock } from '../support/server';

const quietLog = { warn: () => undefined, error: () => undefined };
/** The test clock stands in for the database's, so a test can move time. */
const pinned = { time: 'clock' } as const;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('job retries', () => {
  it('wait base, 2 x base, 4 x base (±20 %), never less than Retry-After', () => {
    // The automated messages' base of a minute: 1, 2, 4 minutes.
    expect(backoffDelayMs(1, 60_000, 0, () => 0.5)).toBe(60_000);
    expect(backoffDelayMs(2, 60_000, 0, () => 0)).toBe(96_000);
    expect(backoffDelayMs(3, 60_000, 0, () => 1)).toBe(288_000);
    expect(backoffDelayMs(1, 60_000, 600_000, () => 0.5)).toBe(600_000);
  });
});

describe.each(testDatabases())('durable job queue on $name', ({ open }) => {
  let database: Database;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(new Date('2026-11-22T12:00:00Z'));
  });

  it('runs a job once and keeps its result', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const seen: unknown[] = [];
    queue.define('greet', async (job) => {
      seen.push(job.payload);
      return { greeted: job.payload.name };
    });
    const { id } = await queue.send('greet', { name: 'Ada' });
    expect(await queue.runDue()).toBe(1);
    expect(await queue.runDue()).toBe(0);
    expect(seen).toEqual([{ name: 'Ada' }]);
    expect(await queue.get(id)).toMatchObject({ state: 'done', attempts: 1, result: { greeted: 'Ada' } });
  });

  it('keeps one queued-or-running job per singleton key', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    queue.define('sync', async () => 'ok');
    const first = await queue.send('sync', {}, { singletonKey: 'all' });
    const second = await queue.send('sync', {}, { singletonKey: 'all' });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    await queue.runDue();
    const third = await queue.send('sync', {}, { singletonKey: 'all' });
    expect(third.created).toBe(true);
  });

  it('retries a failing job after a backoff, then records the failure', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    let calls = 0;
    queue.define(
      'flaky',
      async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      { backoffMs: 1000, maxAttempts: 3 },
    );
    const { id } = await queue.send('flaky');
    await queue.runDue();
    expect(await queue.get(id)).toMatchObject({ state: 'queued', attempts: 1, last_error: 'boom 1' });
    await queue.runDue();
    expect(calls).toBe(1); // not due yet
    clock.advance(1300);
    await queue.runDue();
    expect(calls).toBe(2);
    clock.advance(60_000);
    await queue.runDue();
    expect(calls).toBe(3);
    expect(await queue.get(id)).toMatchObject({ state: 'failed', attempts: 3, last_error: 'boom 3' });
  });

  it('fires a schedule once per period even with two instances polling at once', async () => {
    const a = createJobQueue(database, clock, quietLog, pinned);
    const b = createJobQueue(database, clock, quietLog, pinned);
    let runs = 0;
    for (const queue of [a, b]) queue.define('tick', async () => void runs++);
    await a.schedule('every-minute', 'tick', 60_000);
    await b.schedule('every-minute', 'tick', 60_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    clock.advance(60_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(2);
  });

  it('hands each job to exactly one of two concurrent workers', async () => {
    const a = createJobQueue(database, clock, quietLog, pinned);
    const b = createJobQueue(database, clock, quietLog, pinned);
    const handled: number[] = [];
    for (const queue of [a, b]) queue.define('work', async (job) => void handled.push(job.payload.n as number));
    for (let n = 0; n < 20; n++) await a.send('work', { n });
    await Promise.all([a.runDue(), b.runDue()]);
    expect(handled.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('takes over a job whose worker died once its lease has expired', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const handled: number[] = [];
    queue.define('work', async (job) => void handled.push(job.id), { leaseMs: 60_000 });
    const { id } = await queue.send('work');
    // What a worker killed mid-job leaves behind:
    await database.query(`UPDATE jobs SET state = 'running', attempts = 1, locked_by = 'dead', locked_until = $1 WHERE id = $2`, [
      new Date(clock.now().getTime() + 60_000).toISOString(),
      id,
    ]);
    await queue.runDue();
    expect(handled).toEqual([]);
    clock.advance(61_000);
    await queue.runDue();
    expect(handled).toEqual([id]);
    expect(await queue.get(id)).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('does not let a worker whose lease ran out overwrite the job another worker has since claimed', async () => {
    const a = createJobQueue(database, clock, quietLog, pinned);
    const b = createJobQueue(database, clock, quietLog, pinned);
    const aStarted = deferred();
    const aMayFinish = deferred();
    a.define(
      'work',
      async () => {
        aStarted.resolve();
        await aMayFinish.promise;
        return 'from A';
      },
      { leaseMs: 60_000 },
    );
    b.define('work', async () => 'from B', { leaseMs: 60_000 });
    const { id } = await a.send('work');
    const aPass = a.runDue();
    await aStarted.promise;
    clock.advance(61_000); // A's lease is over: B takes the job over and finishes it
    await b.runDue();
    expect(await a.get(id)).toMatchObject({ state: 'done', attempts: 2, result: 'from B' });
    aMayFinish.resolve();
    await aPass;
    expect(await a.get(id)).toMatchObject({ state: 'done', attempts: 2, result: 'from B' });
  });
});

describe.each(testDatabases())('job queue lanes, fencing and outcomes on $name', ({ open }) => {
  let database: Database;
  const clock = testClock();
  const queued = async () =>
    database.query<{ queue: string; payload: Record<string, unknown> }>("SELECT queue, payload FROM jobs WHERE state = 'queued' ORDER BY id");

  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.execScript('DELETE FROM jobs; DELETE FROM job_schedules;');
    clock.set(new Date('2026-11-22T12:00:00Z'));
  });

  it('keeps running short jobs while a long one holds the sync lane, and never more at once than a lane allows', async () => {
    const queue = createJobQueue(database, clock, quietLog, { ...pinned, concurrency: { sync: 1, default: 2 } });
    const longStarted = deferred();
    const longMayEnd = deferred();
    let running = 0;
    let mostAtOnce = 0;
    queue.define(
      'import',
      async () => {
        longStarted.resolve();
        await longMayEnd.promise;
      },
      { lane: 'sync', leaseMs: 60 * 60_000 },
    );
    queue.define('vacuum', async () => 'vacuumed', { lane: 'sync' });
    // The first expiry waits for a second one to be running beside it: two workers in the default lane.
    const twoRunning = deferred();
    queue.define('expire', async () => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (running === 2) twoRunning.resolve();
      await twoRunning.promise;
      running--;
    });
    await queue.send('import');
    await queue.send('vacuum');
    const firstPass = queue.runDue();
    await longStarted.promise;
    for (let n = 0; n < 6; n++) await queue.send('expire');
    // A second pass while the import runs: the default lane's jobs run, the sync lane's next one waits.
    expect(await queue.runDue()).toBe(6);
    expect(mostAtOnce).toBe(2);
    expect((await queued()).map((job) => job.queue)).toEqual(['vacuum']);
    longMayEnd.resolve();
    expect(await firstPass).toBe(2); // the import, then the vacuum on the same lane
  });

  it('polls by itself: while a long job holds the sync lane, a short job sent later still runs', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const longStarted = deferred();
    const longMayEnd = deferred();
    const shortRan = deferred<number>();
    queue.define(
      'import',
      async () => {
        longStarted.resolve();
        await longMayEnd.promise;
      },
      { lane: 'sync', leaseMs: 60 * 60_000 },
    );
    queue.define('expire', async (job) => shortRan.resolve(job.id));
    await queue.send('import');
    queue.start(5);
    try {
      await longStarted.promise;
      const { id } = await queue.send('expire');
      expect(await shortRan.promise).toBe(id);
    } finally {
      longMayEnd.resolve();
      await queue.stop();
    }
  });

  it('stops a worker whose lease was taken over: its heartbeat throws, its signal aborts, its transaction writes nothing', async () => {
    const a = createJobQueue(database, clock, quietLog, pinned);
    const b = createJobQueue(database, clock, quietLog, pinned);
    const aStarted = deferred();
    const aMayGoOn = deferred();
    const seenByA: string[] = [];
    a.define(
      'work',
      async (job) => {
        aStarted.resolve();
        await aMayGoOn.promise;
        await job
          .transaction((tx) => tx.query("INSERT INTO app_settings (key, value) VALUES ('job-test', 'A') ON CONFLICT (key) DO UPDATE SET value = 'A'"))
          .catch((error) => seenByA.push(error.name));
        await job.heartbeat().catch((error) => seenByA.push(error.name));
        seenByA.push(job.signal.aborted ? 'aborted' : 'not aborted');
      },
      { leaseMs: 60_000 },
    );
    b.define(
      'work',
      async (job) => {
        await job.transaction((tx) => tx.query("INSERT INTO app_settings (key, value) VALUES ('job-test', 'B') ON CONFLICT (key) DO UPDATE SET value = 'B'"));
        return 'B';
      },
      { leaseMs: 60_000 },
    );
    await database.query("DELETE FROM app_settings WHERE key = 'job-test'");
    const { id } = await a.send('work');
    const aPass = a.runDue();
    await aStarted.promise;
    clock.advance(61_000);
    await b.runDue();
    aMayGoOn.resolve();
    await aPass;
    expect(seenByA).toEqual(['LeaseLostError', 'LeaseLostError', 'aborted']);
    expect(await database.query("SELECT value FROM app_settings WHERE key = 'job-test'")).toEqual([{ value: 'B' }]);
    expect(await a.get(id)).toMatchObject({ state: 'done', result: 'B', attempts: 2 });
  });

  it('runs a deferred job again at its time without counting the deferral as an attempt', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const later = new Date('2026-11-22T20:00:00Z');
    let runs = 0;
    queue.define('quiet', async () => (++runs === 1 ? runAgainAt(later) : 'sent'), { maxAttempts: 1 });
    const { id } = await queue.send('quiet');
    await queue.runDue();
    expect(await queue.get(id)).toMatchObject({ state: 'queued', attempts: 0, run_at: later });
    clock.set(later);
    await queue.runDue();
    expect(await queue.get(id)).toMatchObject({ state: 'done', attempts: 1, result: 'sent' });
  });

  it("waits at least a failure's Retry-After, fails a permanent failure at once, and reports a final failure once", async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const failed: string[] = [];
    let calls = 0;
    queue.define(
      'busy',
      async () => {
        calls++;
        throw new JobError('429 Too Many Requests', { retryAfterMs: 10 * 60_000 });
      },
      { backoffMs: 1000, maxAttempts: 2, onFailed: async (job, error) => void failed.push(`${job.queue}: ${error}`) },
    );
    queue.define(
      'dead',
      async () => {
        throw new JobError('UNREGISTERED', { permanent: true });
      },
      { maxAttempts: 5, onFailed: async (job, error) => void failed.push(`${job.queue}: ${error}`) },
    );
    const busy = await queue.send('busy');
    const dead = await queue.send('dead');
    await queue.runDue();
    expect(await queue.get(dead.id)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'UNREGISTERED' });
    expect((await queue.get(busy.id))?.run_at).toEqual(new Date(clock.now().getTime() + 10 * 60_000));
    clock.advance(9 * 60_000);
    await queue.runDue();
    expect(calls).toBe(1);
    clock.advance(60_000);
    await queue.runDue();
    expect(calls).toBe(2);
    expect(await queue.get(busy.id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect(failed).toEqual(['dead: UNREGISTERED', 'busy: 429 Too Many Requests']);
  });

  it('records the failure when the worker running the last attempt stopped, through onFailed', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    const failed: string[] = [];
    let ran = 0;
    queue.define('once', async () => void ran++, { maxAttempts: 1, leaseMs: 60_000, onFailed: async (_job, error) => void failed.push(error) });
    const { id } = await queue.send('once');
    await database.query(`UPDATE jobs SET state = 'running', attempts = 1, locked_by = 'dead', claim_token = 'dead', locked_until = $1 WHERE id = $2`, [
      new Date(clock.now().getTime() + 60_000).toISOString(),
      id,
    ]);
    clock.advance(61_000);
    await queue.runDue();
    expect(ran).toBe(0);
    expect(failed).toEqual(['the worker running it stopped']);
    expect(await queue.get(id)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'the worker running it stopped' });
  });

  it("enqueues many jobs in the caller's transaction: a rollback leaves none", async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    queue.define('push', async () => undefined);
    const jobs = [
      { payload: { n: 1 }, singleton_key: 'a' },
      { payload: { n: 2 }, singleton_key: 'b', run_at: new Date('2026-11-23T00:00:00Z') },
    ];
    await expect(
      database.transaction(async (tx) => {
        expect(await queue.sendMany('push', jobs, tx)).toBe(2);
        throw new Error('planning failed');
      }),
    ).rejects.toThrow('planning failed');
    expect(await queued()).toEqual([]);
    expect(await database.transaction((tx) => queue.sendMany('push', jobs, tx))).toBe(2);
    expect(await queue.sendMany('push', jobs)).toBe(0); // the same singleton keys are queued already
    expect((await queued()).map((job) => job.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('applies the declared schedules: 0 and undeclared ones go, with their queued run; a manual run with the same key stays', async () => {
    const queue = createJobQueue(database, clock, quietLog, pinned);
    for (const name of ['kept', 'off', 'retired']) queue.define(name, async () => undefined);
    await queue.schedule('off', 'off', 60_000);
    await queue.schedule('retired', 'retired', 60_000);
    await queue.schedule('kept', 'kept', 60_000);
    clock.advance(60_000);
    await queue.send('retired', { full: true }, { singletonKey: 'manual' });
    await createJobQueue(database, clock, quietLog, pinned).runDue(); // an instance with no handlers: fires, runs nothing
    expect((await queued()).map((job) => job.queue).sort()).toEqual(['kept', 'off', 'retired', 'retired']);
    await queue.applySchedules([
      { name: 'kept', everyMs: 60_000 },
      { name: 'off', everyMs: 0 },
    ]);
    expect((await database.query<{ name: string }>('SELECT name FROM job_schedules ORDER BY name')).map((row) => row.name)).toEqual(['kept']);
    expect((await queued()).map((job) => [job.queue, job.payload])).toEqual([
      ['retired', { full: true }],
      ['kept', { schedule: 'kept' }],
    ]);
  });
});

describe.each(testDatabases())('durable job queue on the database clock on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });

  it("leases and due times follow the database's clock, not an instance's clock that runs ahead", async () => {
    const realClock = { now: () => new Date() };
    const aheadClock = { now: () => new Date(Date.now() + 2 * 60 * 60_000) };
    const a = createJobQueue(database, realClock, quietLog);
    const ahead = createJobQueue(database, aheadClock, quietLog);
    const aStarted = deferred();
    const aMayFinish = deferred();
    const takenOverBy: string[] = [];
    a.define(
      'work',
      async () => {
        aStarted.resolve();
        await aMayFinish.promise;
      },
      { leaseMs: 10 * 60_000 },
    );
    ahead.define('work', async () => void takenOverBy.push('ahead'), { leaseMs: 10 * 60_000 });
    const ranOnA: string[] = [];
    a.define('note', async (job) => void ranOnA.push(String(job.payload.from)));
    ahead.define('note', async () => undefined);

    await a.send('work');
    const aPass = a.runDue();
    await aStarted.promise;
    await ahead.runDue(); // its clock says A's lease ran out two hours ago; the database says it has not
    expect(takenOverBy).toEqual([]);
    aMayFinish.resolve();
    await aPass;

    // A job the instance ahead enqueues "now" is due now for everyone.
    await ahead.send('note', { from: 'ahead' });
    await a.runDue();
    expect(ranOnA).toEqual(['ahead']);
  });
});
