import type { FastifyInstance } from 'fastify';
import type { JobQueue } from '../jobs/queue';
import { REVENUECAT_SWEEP } from '../revenuecat/events';
import { MINDBODY_SYNC, syncMindbody, type SyncDeps } from './sync';

// Scheduled and manual imports share the schedule's singleton key, so only one ever runs.
export const MINDBODY_SYNC_KEY = `schedule:${MINDBODY_SYNC}`;

export function startMindbodySync(app: { jobs: JobQueue }, options: { full?: boolean } = {}) {
  return app.jobs.send(MINDBODY_SYNC, { full: options.full === true }, { singletonKey: MINDBODY_SYNC_KEY });
}

/** The import as a job: runs every site, then lets waiting RevenueCat events try the new clients. */
export function defineMindbodySync(jobs: JobQueue, deps: SyncDeps) {
  jobs.define(
    MINDBODY_SYNC,
    async (job) => {
      const results = await syncMindbody(deps, { full: job.payload.full === true, jobId: job.id, signal: job.signal, onPage: () => job.heartbeat() });
      if (results.some((result) => result.clients_created + result.clients_updated > 0)) {
        await jobs.send(REVENUECAT_SWEEP, { after: 'mindbody' }, { singletonKey: 'after-mindbody' });
      }
      const failed = results.filter((result) => result.status === 'failed');
      if (failed.length > 0) throw new Error(failed.map((result) => `site ${result.site_id}: ${result.error}`).join('; '));
      return results;
    },
    // Failures resume at the next scheduled run; the HTTP calls already retry with backoff.
    { maxAttempts: 1, leaseMs: 15 * 60_000, lane: 'sync' },
  );
}

/** The import's handler; server/src/schedules.ts schedules it every MINDBODY_SYNC_INTERVAL_MINUTES. */
export function registerMindbodyJobs(app: FastifyInstance) {
  defineMindbodySync(app.jobs, {
    database: app.database,
    mindbody: app.mindbody,
    clock: app.clock,
    visitsDays: app.config.MINDBODY_VISITS_DAYS,
    callLimit: app.config.MINDBODY_DAILY_CALL_LIMIT,
    log: app.log,
  });
}
