import type { FastifyInstance } from 'fastify';
import type { ScheduledJob } from './jobs/queue';
import { JOB_PRUNE, JOB_PRUNE_EVERY_MS, SESSION_PURGE, SESSION_PURGE_EVERY_MS } from './jobs';
import { MINDBODY_SYNC } from './mindbody/sync';
import { AUTOMATION_TICK } from './automation';
import { EXPIRY_EVERY_MS, OVERRIDE_EXPIRY } from './clients/accessOverride';
import { ACCESS_EXPIRY_EVERY_MS, PURCHASE_ACCESS_EXPIRY, REVENUECAT_SWEEP, SWEEP_EVERY_MS } from './revenuecat/events';
import { SEARCH_PUSH_EVERY_MS, SEARCH_VACUUM_EVERY_MS, SEARCH_VACUUM_QUEUE } from './search/jobs';
import { SEARCH_PUSH_QUEUE } from './search/push';
import { VIDEO_FIGURES, VIDEO_FIGURES_EVERY_MS } from './videos/figures';
import { DATA_RETENTION, DATA_RETENTION_EVERY_MS } from './clientData/jobs';

const minutes = (n: number) => n * 60_000;

/**
 * Every recurring job, in one place, with its interval from the configuration. At start
 * `app.jobs.applySchedules` makes the shared job_schedules table match this list: an interval of 0
 * (or a feature that is off) removes the schedule and a run it had queued, a changed interval applies
 * from the last run, and a schedule no longer listed here is removed.
 */
export function scheduledJobs(app: FastifyInstance): ScheduledJob[] {
  const { config } = app;
  return [
    { name: SESSION_PURGE, everyMs: SESSION_PURGE_EVERY_MS },
    // Not at start, like the vacuum: nothing is old enough on a fresh start, and restarts do not postpone it.
    { name: JOB_PRUNE, everyMs: JOB_PRUNE_EVERY_MS, firstRunAfterInterval: true },
    // The first scheduled import comes one interval after start; staff can start one any time.
    { name: MINDBODY_SYNC, everyMs: minutes(config.MINDBODY_SYNC_INTERVAL_MINUTES), firstRunAfterInterval: true },
    { name: AUTOMATION_TICK, everyMs: minutes(config.AUTOMATED_MESSAGES_INTERVAL_MINUTES) },
    { name: OVERRIDE_EXPIRY, everyMs: EXPIRY_EVERY_MS },
    { name: REVENUECAT_SWEEP, everyMs: SWEEP_EVERY_MS, firstRunAfterInterval: true },
    { name: PURCHASE_ACCESS_EXPIRY, everyMs: ACCESS_EXPIRY_EVERY_MS },
    { name: SEARCH_PUSH_QUEUE, everyMs: app.searchIndexer.mode === 'algolia' ? SEARCH_PUSH_EVERY_MS : 0 },
    // Not at start: a fresh start (or a data set just built, which is vacuumed then) has nothing to
    // clean, and on a million clients the first requests would wait behind it.
    { name: SEARCH_VACUUM_QUEUE, everyMs: SEARCH_VACUUM_EVERY_MS, firstRunAfterInterval: true },
    // The Video Manager's per-video figures: at start, then every 10 minutes.
    { name: VIDEO_FIGURES, everyMs: VIDEO_FIGURES_EVERY_MS },
    // Retention (docs/operations.md): daily, not at start, so restarts neither postpone nor repeat it.
    { name: DATA_RETENTION, everyMs: DATA_RETENTION_EVERY_MS, firstRunAfterInterval: true },
  ];
}
