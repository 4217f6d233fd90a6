import type { FastifyInstance } from 'fastify';
import { PUSH_RETRY } from './service';

/** Deferred tokens of a push are sent again here, on the durable queue: after a restart too, on one instance. */
export async function registerPushJobs(app: FastifyInstance) {
  // One attempt per job: the push service itself schedules the next try with its back-off.
  app.jobs.define(PUSH_RETRY, async (job) => app.push.retryToken(Number(job.payload.push_id), String(job.payload.token), Number(job.payload.attempt)), {
    maxAttempts: 1,
  });
}
