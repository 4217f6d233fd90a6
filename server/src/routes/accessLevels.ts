import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccessLevelsResponse, VideoOptionsParams, VideoOptionsResponse } from '@contract/accessLevels';
import { errorResponses } from '@contract/common';
import { videoOptionGroups, resolveAccessLevel, accessLevels } from '../clients/videoOptions';
import { badRequest } from '../lib/errors';

const accessLevelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client/v1/vod-access-levels',
    {
      config: { permission: 'signed_in' },
      schema: {
        tags: ['access levels'],
        summary: 'The VOD access levels, by sort_order (spec §7)',
        response: { 200: AccessLevelsResponse, ...errorResponses },
      },
    },
    async () => ({ levels: await accessLevels(app.database), override_max_days: app.config.OVERRIDE_MAX_DAYS }),
  );

  app.get(
    '/api/client/v1/video-options/:vodAccessLevel',
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: ['access levels'],
        summary: 'Enabled videos a level may watch, grouped by category (spec §7)',
        description:
          'FREE: free videos; BASIC: free and basic; PREMIUM: all. Categories in their sort order, videos by title. ' +
          'The level is its sort_order or its name; an unknown level is a 400.',
        params: VideoOptionsParams,
        response: { 200: VideoOptionsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const level = await resolveAccessLevel(app.database, request.params.vodAccessLevel);
      if (level === null) {
        throw badRequest(`Unknown VOD access level '${request.params.vodAccessLevel}': use a sort_order from /api/client/v1/vod-access-levels`);
      }
      return { videos: await videoOptionGroups(app.database, level) };
    },
  );
};

export default accessLevelRoutes;
