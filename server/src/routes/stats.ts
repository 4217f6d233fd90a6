import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '@contract/common';
import { StatsResponse, StatsTrendsResponse } from '@contract/stats';
import { computeStats, computeTrends } from '../stats/figures';

const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/stats/v1',
    {
      config: { permission: 'dashboard.read' },
      schema: {
        tags: ['dashboard'],
        summary: 'Dashboard figures: paid VOD subscribers, average daily plays, most popular category',
        description: 'Figures that cannot be computed are listed in `errors` (and are null in `result`); the call itself still answers 200.',
        response: { 200: StatsResponse, ...errorResponses },
      },
    },
    async (request) => computeStats(app.database, app.clock.now(), request.log),
  );

  app.get(
    '/api/admin/v1/stats/trends',
    {
      config: { permission: 'dashboard.read' },
      schema: {
        tags: ['dashboard'],
        summary: 'Daily plays over the last 30 full days and paid subscribers weekly over the last 12 weeks',
        response: { 200: StatsTrendsResponse, ...errorResponses },
      },
    },
    async () => computeTrends(app.database, app.clock.now()),
  );
};

export default statsRoutes;
