import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common';
import { MindbodySyncStartBody, MindbodySyncStartResponse, MindbodySyncStatus } from '../../../contract/mindbody';
import { startMindbodySync } from '../mindbody/jobs';
import { mindbodySyncStatus } from '../mindbody/status';
import { auditActor, recordAudit } from '../audit/record';

/** Our extension (staff session): when Mindbody was last synced, and starting an import by hand. */
const mindbodySyncRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mindbody'];
  app.get(
    '/api/admin/v1/mindbody/sync',
    {
      schema: {
        tags,
        summary: 'When the Mindbody client import last ran and how it ended, per site',
        response: { 200: MindbodySyncStatus, ...errorResponses },
      },
    },
    async () => mindbodySyncStatus(app.database, app.mindbody.mode, app.mindbody.siteIds),
  );

  app.post(
    '/api/admin/v1/mindbody/sync',
    {
      schema: {
        tags,
        summary: 'Start a Mindbody client import now (the scheduled one runs every MINDBODY_SYNC_INTERVAL_MINUTES)',
        description: 'At most one import is queued or running at a time: while one is, its job is returned with started: false.',
        body: MindbodySyncStartBody,
        response: { 202: MindbodySyncStartResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      // Mindbody failing again and again: say so now (503, retry in N s) rather than queue a doomed import.
      app.mindbody.checkAvailable?.();
      const { id, created } = await startMindbodySync(app, { full: request.body.full });
      // The job queue writes through its own connection, so the entry follows the queued job.
      if (created) {
        await recordAudit(app.db, { ...auditActor(request), action: 'mindbody_sync.start', target_type: 'mindbody_sync', target_id: id, after: { full: request.body.full === true } });
      }
      return reply.status(202).send({ job_id: id, started: created });
    },
  );
};

export default mindbodySyncRoutes;
