import type { Database } from '../db/client';

/** One recurring job as declared in server/src/schedules.ts. */
export interface ScheduledJob {
  /** The schedule's name; also the queue it enqueues into unless `queue` says otherwise. */
  name: string;
  queue?: string;
  /** 0 (a feature that is off, or an interval set to 0): no schedule, and any run it queued is dropped. */
  everyMs: number;
  /** The first run comes one interval after the schedule is created, not at once. */
  firstRunAfterInterval?: boolean;
}

const NOW = 'COALESCE($1::timestamptz, now())';
const MS = "* interval '1 millisecond'";

/**
 * Schedules live in job_schedules, shared by every instance: whichever instance moves next_run_at
 * first enqueues the run. `now` is the pinned time or null for the database's clock (see jobQueries.ts).
 */
export function createSchedules(database: Database, now: () => string | null) {
  return {
    /** Enqueues every due run, each exactly once however many instances poll at the same moment. */
    async fire(maxAttempts: Record<string, number>): Promise<void> {
      // One statement: the compare-and-set on next_run_at and the enqueue commit together.
      await database.execute(
        `WITH fired AS (
           UPDATE job_schedules SET next_run_at = ${NOW} + every_ms ${MS} WHERE next_run_at <= ${NOW} RETURNING name, queue
         )
         INSERT INTO jobs (queue, payload, singleton_key, run_at, max_attempts, created_at)
         SELECT queue, jsonb_build_object('schedule', name), 'schedule:' || name, ${NOW}, COALESCE(($2::jsonb ->> queue)::int, 5), ${NOW} FROM fired
         ON CONFLICT (queue, singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING`,
        [now(), JSON.stringify(maxAttempts)],
      );
    },

    /**
     * Creates or updates one schedule. A changed interval applies from the last run (the next run
     * moves by the difference), never later than one new interval from now; an unchanged one keeps
     * its next run, so restarting does not postpone it.
     */
    async upsert(schedule: ScheduledJob): Promise<void> {
      await database.execute(
        `INSERT INTO job_schedules (name, queue, every_ms, next_run_at) VALUES ($2, $3, $4, ${NOW} + $5::float8 ${MS})
         ON CONFLICT (name) DO UPDATE SET queue = EXCLUDED.queue, every_ms = EXCLUDED.every_ms,
           next_run_at = LEAST(job_schedules.next_run_at + (EXCLUDED.every_ms - job_schedules.every_ms) ${MS}, ${NOW} + EXCLUDED.every_ms ${MS})`,
        [now(), schedule.name, schedule.queue ?? schedule.name, schedule.everyMs, schedule.firstRunAfterInterval ? schedule.everyMs : 0],
      );
    },

    /** Removes every schedule not in `keep`, with the runs they queued that no worker has started. */
    async removeAllBut(keep: string[]): Promise<void> {
      await database.execute(
        `WITH removed AS (DELETE FROM job_schedules WHERE NOT (name = ANY($1::text[])) RETURNING name, queue)
         DELETE FROM jobs j USING removed r
         WHERE j.state = 'queued' AND j.queue = r.queue AND j.singleton_key = 'schedule:' || r.name AND j.payload ->> 'schedule' = r.name`,
        [keep],
      );
    },
  };
}
