import type { FastifyInstance } from 'fastify';
import { ERASE_OUTSIDE, eraseOutside } from './outside';
import { unfinishedErasures } from './queries';
import { applyRetention } from './retention';

/** Daily: deletes what is older than the retention settings, and picks up erasures whose outside work was left. */
export const DATA_RETENTION = 'data.retention';
export const DATA_RETENTION_EVERY_MS = 24 * 60 * 60_000;

/** Erasures with outside work not done and no job to do it (its retries ran out): queued again. */
async function resumeErasures(app: FastifyInstance) {
  const clientIds = await unfinishedErasures(app.database);
  for (const clientId of clientIds) await app.jobs.send(ERASE_OUTSIDE, { client_id: clientId }, { singletonKey: `erase:${clientId}` });
  return clientIds.length;
}

export function registerClientDataJobs(app: FastifyInstance) {
  // RevenueCat or Algolia down for a while: retried with backoff, and again by the daily run.
  app.jobs.define(ERASE_OUTSIDE, async (job) => eraseOutside(app, Number(job.payload.client_id)), { maxAttempts: 8, backoffMs: 60_000 });
  app.jobs.define(
    DATA_RETENTION,
    async (job) => {
      const removed = await applyRetention(app, job.heartbeat);
      return { removed, erasures_resumed: await resumeErasures(app) };
    },
    { maxAttempts: 1, lane: 'sync' },
  );
}
