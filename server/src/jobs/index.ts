import type { FastifyInstance } from 'fastify';
import { vacuumJobs } from './jobQueries';

export const SESSION_PURGE = 'sessions.purge';
export const SESSION_PURGE_EVERY_MS = 10 * 60_000;

/** Deletes finished jobs older than the retention setting (JOB_RETENTION_DAYS by default), so the jobs table stays bounded. */
export const JOB_PRUNE = 'jobs.prune';
export const JOB_PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Jobs that belong to no single area. Areas define their own queues next to their routes; server/src/schedules.ts schedules them.
 * `finishedJobsDays` is how long finished jobs are kept: the studio's retention setting, which an area
 * stores, so the queue (below the areas) is handed it rather than importing that area.
 */
export function defineCoreJobs(app: FastifyInstance, finishedJobsDays: () => Promise<number>) {
  app.jobs.define(SESSION_PURGE, async () => ({ removed: await app.sessions.purgeExpired() }), { maxAttempts: 1 });
  app.jobs.define(
    JOB_PRUNE,
    async (job) => {
      const days = await finishedJobsDays();
      const removed = await app.jobs.pruneFinished(days, { between: job.heartbeat });
      if (removed > 0) await vacuumJobs(app.database);
      return { removed };
    },
    { maxAttempts: 1, lane: 'sync' },
  );
}
