import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { contentRange, IdParams } from '@contract/raSimpleRest';
import { StartVimeoSyncResponse, VimeoSync, VimeoSyncListQuery } from '@contract/videos';
import { auditActor } from '../audit/record';
import { requestVimeoSync } from '../videos/syncJob';
import { listSyncs, requireSync } from '../videos/syncQueries';

const vimeoSyncRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/sync/all-vimeo-videos',
    {
      config: { permission: 'videos.edit', changesState: true },
      // A HEAD would start a sync too.
      exposeHeadRoute: false,
      schema: {
        tags: ['vimeo sync'],
        summary: "Start a Vimeo sync in the background (spec §7, sidebar 'Sync Vimeo videos')",
        description:
          'Answers at once; 503 with "retry in N s" while repeated Vimeo failures keep its circuit breaker open. ' +
          'While a sync is queued or running no second one starts: the answer is still 200, with ' +
          'started false, already_running true and the sync under way.',
        response: { 200: StartVimeoSyncResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return requestVimeoSync(app, auditActor(request));
    },
  );

  app.get(
    '/api/admin/v1/vimeo-syncs',
    {
      config: { permission: 'videos.edit' },
      schema: {
        tags: ['vimeo sync'],
        summary: 'Syncs, newest first by default: progress while running, outcome after (ra-data-simple-rest getList)',
        querystring: VimeoSyncListQuery,
        response: { 200: z.array(VimeoSync), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { sort = ['id', 'DESC'], range = [0, 9], filter = {} } = request.query;
      const { rows, total } = await listSyncs(app.database, { sort, range, state: filter.state });
      reply.header('cache-control', 'no-store');
      reply.header('content-range', contentRange('vimeo-syncs', range[0], rows.length, total));
      return rows;
    },
  );

  app.get(
    '/api/admin/v1/vimeo-syncs/:id',
    {
      config: { permission: 'videos.edit' },
      schema: { tags: ['vimeo sync'], summary: 'One sync', params: IdParams, response: { 200: VimeoSync, ...errorResponses } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return requireSync(app.database, request.params.id);
    },
  );
};

export default vimeoSyncRoutes;
