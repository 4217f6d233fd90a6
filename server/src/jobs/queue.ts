import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/client';
import type { Clock } from '../types';
import { activeSingletonJob, createClaims, jobById, latestJob, type NewJob, type TimeSource } from './jobQueries';
import { createRunner } from './runner';
import { createSchedules, type ScheduledJob } from './scheduleQueries';
import { LANES, type Job, type JobHandler, type Lane, type QueueOptions } from './job';

export { backoffDelayMs, JobError, LANES, LeaseLostError, runAgainAt, RunAgain } from './job';
export type { Job, JobHandler, JobState, Lane, QueueOptions, RunningJob } from './job';
export type { NewJob, TimeSource } from './jobQueries';
export type { ScheduledJob } from './scheduleQueries';

export interface SendOptions {
  singletonKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobQueueOptions {
  /** 'database' (the default): leases, due times and schedules read the database's clock. 'clock': tests. */
  time?: TimeSource;
  /** Workers per lane on this instance (JOB_CONCURRENCY_*). */
  concurrency?: Partial<Record<Lane, number>>;
}

export interface JobQueue {
  define(queue: string, handler: JobHandler, options?: Partial<QueueOptions>): void;
  /** Enqueues; with a singletonKey an already queued or running job of that key is returned instead. */
  send(queue: string, payload?: Record<string, unknown>, options?: SendOptions): Promise<{ id: number; created: boolean }>;
  /** Enqueues many in one statement, in the caller's transaction when `db` is its `tx`; answers how many were added. */
  sendMany(queue: string, jobs: NewJob[], db?: Queryable): Promise<number>;
  /** Runs `queue` every `everyMs`; one instance enqueues each run even when several poll. */
  schedule(name: string, queue: string, everyMs: number, options?: { firstRunAfterInterval?: boolean }): Promise<void>;
  /** Makes job_schedules match `schedules` (server/src/schedules.ts): see ScheduledJob. */
  applySchedules(schedules: ScheduledJob[]): Promise<void>;
  get(id: number): Promise<Job | undefined>;
  latest(queue: string): Promise<Job | undefined>;
  /**
   * One pass: fire due schedules, recover expired leases, and fill each lane's free workers, which
   * run due jobs until none is left (also those the pass's own jobs queue); resolves when they stop,
   * with how many jobs they ran. A lane whose workers are all busy (a long sync from an earlier
   * pass) is left to them. Tests and CLIs drive jobs with it; the server polls with start().
   */
  runDue(): Promise<number>;
  /** Runs the due jobs of `queues` on one worker of the caller's, outside the lanes, until none is left. */
  drain(queues: string[]): Promise<number>;
  /** Deletes finished (done, failed) jobs older than `days`, in batches. */
  pruneFinished(days: number, options?: { batch?: number; between?: () => Promise<void> }): Promise<number>;
  start(pollMs?: number): void;
  stop(): Promise<void>;
}

export const DEFAULT_CONCURRENCY: Record<Lane, number> = { default: 2, sync: 2, messages: 4 };
const DEFAULTS: QueueOptions = { lane: 'default', leaseMs: 5 * 60_000, maxAttempts: 5, backoffMs: 30_000 };

export function createJobQueue(
  database: Database,
  clock: Clock,
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void },
  options: JobQueueOptions = {},
): JobQueue {
  const handlers = new Map<string, { handler: JobHandler; options: QueueOptions }>();
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const claims = createClaims(database, clock, options.time ?? 'database', workerId);
  const schedules = createSchedules(database, claims.now);
  const runner = createRunner({ database, claims, handlers, log, concurrency: { ...DEFAULT_CONCURRENCY, ...options.concurrency } });
  let timer: NodeJS.Timeout | undefined;
  const maxAttemptsOf = (name: string) => handlers.get(name)?.options.maxAttempts ?? DEFAULTS.maxAttempts;
  const maxAttemptsByQueue = () => Object.fromEntries([...handlers].map(([name, entry]) => [name, entry.options.maxAttempts]));

  async function prepare() {
    await schedules.fire(maxAttemptsByQueue());
    await claims.recover();
  }

  const queue: JobQueue = {
    define(name, handler, definition) {
      handlers.set(name, { handler, options: { ...DEFAULTS, ...definition } });
    },

    async send(name, payload = {}, sendOptions = {}) {
      const job = { payload, singleton_key: sendOptions.singletonKey ?? null, run_at: sendOptions.runAt ?? null };
      const id = await claims.insert(name, job, sendOptions.maxAttempts ?? maxAttemptsOf(name));
      if (id !== null) return { id, created: true };
      const existing = await activeSingletonJob(database, name, sendOptions.singletonKey);
      if (existing === undefined) return queue.send(name, payload, sendOptions); // it finished in between
      return { id: existing, created: false };
    },

    sendMany(name, jobs, db) {
      return claims.insertMany(name, jobs, maxAttemptsOf(name), db);
    },

    async schedule(name, queueName, everyMs, scheduleOptions = {}) {
      await schedules.upsert({ name, queue: queueName, everyMs, ...scheduleOptions });
    },

    async applySchedules(list) {
      const active = list.filter((schedule) => schedule.everyMs > 0);
      for (const schedule of active) await schedules.upsert(schedule);
      await schedules.removeAllBut(active.map((schedule) => schedule.name));
    },

    get(id) {
      return jobById(database, id);
    },

    latest(name) {
      return latestJob(database, name);
    },

    async runDue() {
      await prepare();
      let total = 0;
      // Again while jobs ran: one may have queued work for another lane whose workers had stopped.
      for (;;) {
        const ran = (await Promise.all(LANES.map((lane) => runner.fillLane(lane)))).reduce((sum, n) => sum + n, 0);
        if (ran === 0) return total;
        total += ran;
      }
    },

    async drain(queues) {
      await claims.recover();
      return runner.drain(queues);
    },

    pruneFinished(days, pruneOptions = {}) {
      return claims.prune(days, pruneOptions.batch ?? 5000, pruneOptions.between);
    },

    start(pollMs = 1000) {
      runner.resume();
      // Each tick fills the lanes' free workers and does not wait for them: a long job holds its
      // worker only, and the next tick still starts due jobs on the others.
      const tick = async () => {
        try {
          await prepare();
          for (const lane of LANES) runner.fillLane(lane).catch((error) => log.error({ err: error, lane }, 'job worker failed'));
        } catch (error) {
          log.error({ err: error }, 'job polling failed');
        }
        if (!runner.stopping) {
          timer = setTimeout(tick, pollMs);
          timer.unref();
        }
      };
      timer = setTimeout(tick, 0);
      timer.unref();
    },

    async stop() {
      if (timer) clearTimeout(timer);
      await runner.stop();
    },
  };
  return queue;
}
