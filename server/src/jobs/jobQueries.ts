import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';
import type { Clock } from '../types';
import type { Job } from './job';

/**
 * Where the queue's "now" comes from. In production it is the database's clock (`now()`), so leases,
 * due times and schedules mean the same on every instance however far their own clocks drift. Tests
 * pin it to their movable clock instead ('clock'): the database then never reads its own.
 */
export type TimeSource = 'database' | 'clock';

/** In every statement below, $1 is the pinned time, or null for the database's clock. */
const NOW = 'COALESCE($1::timestamptz, now())';
const MS = "* interval '1 millisecond'";
const SINGLETON_CONFLICT = "ON CONFLICT (queue, singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING";

/** A jobs row (read with `*`: the columns below are kept, the lease's own are not). */
const JobRow = z.object({
  id: z.number(),
  queue: z.string(),
  payload: z.record(z.string(), z.unknown()),
  singleton_key: z.string().nullable(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  run_at: timestamp,
  attempts: z.number(),
  max_attempts: z.number(),
  last_error: z.string().nullable(),
  result: z.unknown(),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
}) satisfies z.ZodType<Job>;
const ClaimedRow = JobRow.extend({ claim_token: z.string() });
const IdRow = z.object({ id: z.number() });

/** A job as claimed: the token its claim wrote, which every later write of this worker must match. */
export type ClaimedJob = z.infer<typeof ClaimedRow>;

export interface NewJob {
  payload: Record<string, unknown>;
  singleton_key?: string | null;
  run_at?: Date | null;
}

/** The queue's statements: claims under a lease, fenced by the claim's token, on one clock. */
export function createClaims(database: Database, clock: Clock, time: TimeSource, workerId: string) {
  const now = () => (time === 'clock' ? clock.now().toISOString() : null);
  /** The ids a statement changed (`RETURNING id`). */
  const run = (sql: string, params: unknown[], db: Queryable = database) => db.rows(IdRow, sql, [now(), ...params]);

  return {
    now,

    /** Claims the next due job of `queues`; its lease is its queue's `leases[queue]` ms from now. */
    async claim(queues: string[], leases: Record<string, number>): Promise<ClaimedJob | undefined> {
      if (queues.length === 0) return undefined;
      const [row] = await database.rows(
        ClaimedRow,
        `UPDATE jobs SET state = 'running', attempts = attempts + 1, locked_by = $2, claim_token = $3,
                locked_until = ${NOW} + COALESCE(($4::jsonb ->> queue)::float8, 300000) ${MS}
         WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND queue = ANY($5::text[]) AND run_at <= ${NOW}
                     ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [now(), workerId, randomUUID(), JSON.stringify(leases), queues],
      );
      return row;
    },

    /**
     * Jobs whose lease ran out (their worker died or hung) are queued again. One whose last attempt it
     * was fails when next claimed, through its queue's onFailed.
     */
    async recover(): Promise<void> {
      await database.execute(
        `UPDATE jobs SET state = 'queued', run_at = ${NOW}, locked_by = NULL, locked_until = NULL, claim_token = NULL,
                last_error = 'the worker running it stopped'
         WHERE state = 'running' AND locked_until < ${NOW}`,
        [now()],
      );
    },

    /** Renews the lease; false when the claim is no longer this worker's. */
    async renew(job: ClaimedJob, leaseMs: number, db?: Queryable): Promise<boolean> {
      const rows = await run(
        `UPDATE jobs SET locked_until = GREATEST(locked_until, ${NOW} + $2::float8 ${MS})
         WHERE id = $3 AND claim_token = $4 AND state = 'running' RETURNING id`,
        [leaseMs, job.id, job.claim_token],
        db,
      );
      return rows.length > 0;
    },

    async complete(job: ClaimedJob, result: unknown): Promise<boolean> {
      const rows = await run(
        `UPDATE jobs SET state = 'done', result = $2::jsonb, finished_at = ${NOW}, locked_by = NULL, locked_until = NULL, claim_token = NULL
         WHERE id = $3 AND claim_token = $4 RETURNING id`,
        [JSON.stringify(result ?? null), job.id, job.claim_token],
      );
      return rows.length > 0;
    },

    /** Queued again at `runAt`, or `delayMs` from now; `refund` takes this run off the attempts. */
    async requeue(job: ClaimedJob, next: { runAt?: Date; delayMs?: number; error?: string; refund?: boolean }): Promise<boolean> {
      const rows = await run(
        `UPDATE jobs SET state = 'queued', run_at = COALESCE($2::timestamptz, ${NOW} + $3::float8 ${MS}), last_error = COALESCE($4, last_error),
                attempts = attempts - $5, locked_by = NULL, locked_until = NULL, claim_token = NULL
         WHERE id = $6 AND claim_token = $7 RETURNING id`,
        [next.runAt?.toISOString() ?? null, next.delayMs ?? 0, next.error ?? null, next.refund ? 1 : 0, job.id, job.claim_token],
      );
      return rows.length > 0;
    },

    /** Fails for good; `refund` when this claim only recorded the failure of a worker that stopped. */
    async fail(job: ClaimedJob, error: string, refund = false): Promise<boolean> {
      const rows = await run(
        `UPDATE jobs SET state = 'failed', last_error = $2, finished_at = ${NOW}, attempts = attempts - $3,
                locked_by = NULL, locked_until = NULL, claim_token = NULL
         WHERE id = $4 AND claim_token = $5 RETURNING id`,
        [error.slice(0, 2000), refund ? 1 : 0, job.id, job.claim_token],
      );
      return rows.length > 0;
    },

    /** Enqueues; a job whose singleton key is already queued or running is not added (null). */
    async insert(queue: string, job: NewJob, maxAttempts: number): Promise<number | null> {
      const [row] = await run(
        `INSERT INTO jobs (queue, payload, singleton_key, run_at, max_attempts, created_at)
         VALUES ($2, $3::jsonb, $4, COALESCE($5::timestamptz, ${NOW}), $6, ${NOW}) ${SINGLETON_CONFLICT} RETURNING id`,
        [queue, JSON.stringify(job.payload), job.singleton_key ?? null, job.run_at?.toISOString() ?? null, maxAttempts],
      );
      return row ? row.id : null;
    },

    /** Enqueues many in one statement (in the caller's transaction with `db`); answers how many were added. */
    async insertMany(queue: string, jobs: NewJob[], maxAttempts: number, db?: Queryable): Promise<number> {
      if (jobs.length === 0) return 0;
      const rows = await run(
        `INSERT INTO jobs (queue, payload, singleton_key, run_at, max_attempts, created_at)
         SELECT $2, t.payload, t.singleton_key, COALESCE(t.run_at, ${NOW}), $3, ${NOW}
         FROM jsonb_to_recordset($4::jsonb) AS t(payload jsonb, singleton_key text, run_at timestamptz)
         ${SINGLETON_CONFLICT} RETURNING id`,
        [
          queue,
          maxAttempts,
          JSON.stringify(jobs.map((job) => ({ payload: job.payload, singleton_key: job.singleton_key ?? null, run_at: job.run_at ?? null }))),
        ],
        db,
      );
      return rows.length;
    },

    /** Deletes finished jobs older than `days`, `batch` rows per statement; answers how many. */
    async prune(days: number, batch: number, between?: () => Promise<void>): Promise<number> {
      let removed = 0;
      for (;;) {
        const rows = await run(
          `DELETE FROM jobs WHERE id IN (
             SELECT id FROM jobs WHERE state IN ('done', 'failed') AND finished_at < ${NOW} - $2::float8 * interval '1 day'
             ORDER BY finished_at LIMIT $3)
           RETURNING id`,
          [days, batch],
        );
        removed += rows.length;
        if (rows.length < batch) return removed;
        await between?.();
      }
    },
  };
}

export type Claims = ReturnType<typeof createClaims>;

export async function jobById(database: Queryable, id: number): Promise<Job | undefined> {
  const [row] = await database.rows(JobRow, 'SELECT * FROM jobs WHERE id = $1', [id]);
  return row;
}

export async function latestJob(database: Queryable, queue: string): Promise<Job | undefined> {
  const [row] = await database.rows(JobRow, 'SELECT * FROM jobs WHERE queue = $1 ORDER BY id DESC LIMIT 1', [queue]);
  return row;
}

/** The queued or running job holding `singletonKey` in `queue`, if any. */
export async function activeSingletonJob(database: Queryable, queue: string, singletonKey: string | undefined): Promise<number | undefined> {
  const [row] = await database.rows(IdRow, `SELECT id FROM jobs WHERE queue = $1 AND singleton_key = $2 AND state IN ('queued', 'running') LIMIT 1`, [
    queue,
    singletonKey,
  ]);
  return row?.id;
}

/** PGlite has no autovacuum: after a prune, the deleted rows' space is only reused once this ran. */
export async function vacuumJobs(database: Database): Promise<void> {
  await database.execScript('VACUUM (ANALYZE) jobs;');
}
