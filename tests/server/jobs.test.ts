import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client';
import { createJobQueue } from '../../server/src/jobs/queue';
import { testDatabases } from '../support/databases';
import { testClock } from '../support/server';

const quietLog = { warn: () => undefined, error: () => undefined };

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
    const queue = createJobQueue(database, clock, quietLog);
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
    const queue = createJobQueue(database, clock, quietLog);
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
    const queue = createJobQueue(database, clock, quietLog);
    let calls = 0;
    queue.define('flaky', async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    }, { backoffMs: 1000, maxAttempts: 3 });
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
    const a = createJobQueue(database, clock, quietLog);
    const b = createJobQueue(database, clock, quietLog);
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
    const a = createJobQueue(database, clock, quietLog);
    const b = createJobQueue(database, clock, quietLog);
    const handled: number[] = [];
    for (const queue of [a, b]) queue.define('work', async (job) => void handled.push(job.payload.n as number));
    for (let n = 0; n < 20; n++) await a.send('work', { n });
    await Promise.all([a.runDue(), b.runDue()]);
    expect(handled.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('takes over a job whose worker died once its lease has expired', async () => {
    const queue = createJobQueue(database, clock, quietLog);
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
});
