import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '@contract/common';
import { MindbodySyncStartBody, MindbodySyncStartResponse, MindbodySyncStatus } from '@contract/mindbody';
import { mindbodySyncStatus } from '../mindbody/status';
import { requestMindbodySync } from '../mindbody/requests';
import { auditActor } from '../audit/record';

/** Our extension (staff session): when Mindbody was last synced, and starting an import by hand. */
const mindbodySyncRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mindbody'];
  app.get(
    '/api/admin/v1/mindbody/sync',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: 'When the Mindbody client import last ran and how it ended, per site',
        response: { 200: MindbodySyncStatus, ...errorResponses },
      },
    },
    async () =>
      mindbodySyncStatus(app.database, app.mindbody.mode, app.mindbody.siteIds, { now: app.clock.now(), dailyCallLimit: app.config.MINDBODY_DAILY_CALL_LIMIT }),
  );

  app.post(
    '/api/admin/v1/mindbody/sync',
    {
      config: { permission: 'mindbody.import' },
      schema: {
        tags,
        summary: 'Start a Mindbody client import now (the scheduled one runs every MINDBODY_SYNC_INTERVAL_MINUTES)',
        description: 'At most one import is queued or running at a time: while one is, its job is returned with started: false.',
        body: MindbodySyncStartBody,
        response: { 202: MindbodySyncStartResponse, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(202).send(await requestMindbodySync(app, { full: request.body.full }, auditActor(request))),
  );
};

export default mindbodySyncRoutes;
