import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import type { Clock } from '../types';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job<Payload = Record<string, unknown>> {
  id: number;
  queue: string;
  payload: Payload;
  singleton_key: string | null;
  state: JobState;
  run_at: Date;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  result: unknown;
  created_at: Date;
  finished_at: Date | null;
}

export interface RunningJob<Payload = Record<string, unknown>> extends Job<Payload> {
  /** Extends the lease; long jobs call it so another instance does not take the job over. */
  heartbeat(): Promise<void>;
  /** Aborted when the server shuts down; stop early and the job is retried later. */
  signal: AbortSignal;
}

export type JobHandler = (job: RunningJob<any>) => Promise<unknown>;

interface QueueOptions {
  leaseMs: number;
  maxAttempts: number;
  /** Delay before retry n (1-based) is backoffMs * 2^(n-1), with ±20 % jitter. */
  backoffMs: number;
}

export interface SendOptions {
  singletonKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobQueue {
  define(queue: string, handler: JobHandler, options?: Partial<QueueOptions>): void;
  /** Enqueues; with a singletonKey an already queued or running job of that key is returned instead. */
  send(queue: string, payload?: Record<string, unknown>, options?: SendOptions): Promise<{ id: number; created: boolean }>;
  /** Runs `queue` every `everyMs`; one instance enqueues each run even when several poll. */
  schedule(name: string, queue: string, everyMs: number, firstRunAt?: Date): Promise<void>;
  get(id: number): Promise<Job | undefined>;
  latest(queue: string): Promise<Job | undefined>;
  /** One pass: fire due schedules, recover expired leases, run due jobs until none is left. */
  runDue(): Promise<number>;
  start(pollMs?: number): void;
  stop(): Promise<void>;
}

const DEFAULTS: QueueOptions = { leaseMs: 5 * 60_000, maxAttempts: 5, backoffMs: 30_000 };

function toJob(row: Record<string, any>): Job {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    id: Number(row.id),
    queue: row.queue,
    payload: row.payload ?? {},
    singleton_key: row.singleton_key,
    state: row.state,
    run_at: date(row.run_at)!,
    attempts: Number(row.attempts),
    max_attempts: Number(row.max_attempts),
    last_error: row.last_error,
    result: row.result ?? null,
    created_at: date(row.created_at)!,
    finished_at: date(row.finished_at),
  };
}

export function createJobQueue(database: Database, clock: Clock, log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void }): JobQueue {
  const handlers = new Map<string, { handler: JobHandler; options: QueueOptions }>();
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const query = database.query.bind(database);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopping = false;
  const abort = new AbortController();

  async function fireSchedules(now: Date) {
    const due = await query<{ name: string; queue: string; every_ms: number; next_run_at: string }>(
      'SELECT name, queue, every_ms, next_run_at FROM job_schedules WHERE next_run_at <= $1',
      [now.toISOString()],
    );
    for (const schedule of due) {
      // Compare-and-set on next_run_at: exactly one poller wins each run.
      const won = await query(
        'UPDATE job_schedules SET next_run_at = $1 WHERE name = $2 AND next_run_at = $3 RETURNING name',
        [new Date(now.getTime() + Number(schedule.every_ms)).toISOString(), schedule.name, schedule.next_run_at],
      );
      if (won.length > 0) await queue.send(schedule.queue, { schedule: schedule.name }, { singletonKey: `schedule:${schedule.name}` });
    }
  }

  async function recoverLeases(now: Date) {
    await query(
      `UPDATE jobs SET state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
              locked_by = NULL, locked_until = NULL, run_at = $1,
              last_error = COALESCE(last_error, 'the worker running it stopped'),
              finished_at = CASE WHEN attempts >= max_attempts THEN $1::timestamptz END
       WHERE state = 'running' AND locked_until < $1`,
      [now.toISOString()],
    );
  }

  async function claim(now: Date): Promise<Job | undefined> {
    const names = [...handlers.keys()];
    if (names.length === 0) return undefined;
    const leaseMs = Math.max(...[...handlers.values()].map((h) => h.options.leaseMs));
    const [row] = await query(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = $1, locked_until = $2
       WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND queue = ANY($3::text[]) AND run_at <= $4
                   ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [workerId, new Date(now.getTime() + leaseMs).toISOString(), names, now.toISOString()],
    );
    return row ? toJob(row) : undefined;
  }

  async function execute(job: Job) {
    const entry = handlers.get(job.queue)!;
    const running: RunningJob = {
      ...job,
      signal: abort.signal,
      heartbeat: async () => {
        await query('UPDATE jobs SET locked_until = $1 WHERE id = $2 AND locked_by = $3', [
          new Date(clock.now().getTime() + entry.options.leaseMs).toISOString(),
          job.id,
          workerId,
        ]);
      },
    };
    try {
      const result = await entry.handler(running);
      await query(`UPDATE jobs SET state = 'done', result = $1, finished_at = $2, locked_by = NULL, locked_until = NULL WHERE id = $3`, [
        JSON.stringify(result ?? null),
        clock.now().toISOString(),
        job.id,
      ]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.max_attempts;
      const backoff = entry.options.backoffMs * 2 ** (job.attempts - 1) * (0.8 + Math.random() * 0.4);
      log.warn({ err: error, queue: job.queue, job: job.id, attempt: job.attempts, final }, 'job failed');
      await query(
        `UPDATE jobs SET state = $1, last_error = $2, run_at = $3, finished_at = $4, locked_by = NULL, locked_until = NULL WHERE id = $5`,
        [
          final ? 'failed' : 'queued',
          message.slice(0, 2000),
          new Date(clock.now().getTime() + backoff).toISOString(),
          final ? clock.now().toISOString() : null,
          job.id,
        ],
      );
    }
  }

  async function poll() {
    let processed = 0;
    await fireSchedules(clock.now());
    await recoverLeases(clock.now());
    for (;;) {
      if (stopping) break;
      const job = await claim(clock.now());
      if (!job) break;
      await execute(job);
      processed++;
    }
    return processed;
  }

  const queue: JobQueue = {
    define(name, handler, options) {
      handlers.set(name, { handler, options: { ...DEFAULTS, ...options } });
    },

    async send(name, payload = {}, options = {}) {
      const maxAttempts = options.maxAttempts ?? handlers.get(name)?.options.maxAttempts ?? DEFAULTS.maxAttempts;
      const now = clock.now();
      const [row] = await query<{ id: number }>(
        `INSERT INTO jobs (queue, payload, singleton_key, run_at, max_attempts, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (queue, singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING
         RETURNING id`,
        [name, JSON.stringify(payload), options.singletonKey ?? null, (options.runAt ?? now).toISOString(), maxAttempts, now.toISOString()],
      );
      if (row) return { id: Number(row.id), created: true };
      const [existing] = await query<{ id: number }>(
        `SELECT id FROM jobs WHERE queue = $1 AND singleton_key = $2 AND state IN ('queued', 'running') LIMIT 1`,
        [name, options.singletonKey],
      );
      if (!existing) return queue.send(name, payload, options); // it finished in between
      return { id: Number(existing.id), created: false };
    },

    async schedule(name, queueName, everyMs, firstRunAt) {
      await query(
        `INSERT INTO job_schedules (name, queue, every_ms, next_run_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO UPDATE SET queue = EXCLUDED.queue, every_ms = EXCLUDED.every_ms,
           next_run_at = LEAST(job_schedules.next_run_at, EXCLUDED.next_run_at)`,
        [name, queueName, everyMs, (firstRunAt ?? clock.now()).toISOString()],
      );
    },

    async get(id) {
      const [row] = await query('SELECT * FROM jobs WHERE id = $1', [id]);
      return row ? toJob(row) : undefined;
    },

    async latest(name) {
      const [row] = await query('SELECT * FROM jobs WHERE queue = $1 ORDER BY id DESC LIMIT 1', [name]);
      return row ? toJob(row) : undefined;
    },

    runDue() {
      // One pass at a time per instance; a timer tick during a long job just waits for it.
      const pass = (running ?? Promise.resolve()).then(poll, poll);
      running = pass.catch(() => undefined);
      return pass;
    },

    start(pollMs = 1000) {
      stopping = false;
      const tick = async () => {
        try {
          await queue.runDue();
        } catch (error) {
          log.error({ err: error }, 'job polling failed');
        }
        if (!stopping) {
          timer = setTimeout(tick, pollMs);
          timer.unref();
        }
      };
      timer = setTimeout(tick, 0);
      timer.unref();
    },

    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      // A running job gets a moment to notice the abort; otherwise its lease expires and it is retried.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    },
  };
  return queue;
}
