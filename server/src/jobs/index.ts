import type { FastifyInstance } from 'fastify';

export const SESSION_PURGE = 'sessions.purge';

/** Jobs that belong to no single area. Areas define their own queues next to their routes. */
export async function registerCoreJobs(app: FastifyInstance) {
  app.jobs.define(SESSION_PURGE, async () => ({ removed: await app.sessions.purgeExpired() }), { maxAttempts: 1 });
  await app.jobs.schedule(SESSION_PURGE, SESSION_PURGE, 10 * 60_000);
}
