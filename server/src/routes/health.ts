import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse } from '@contract/common';
import { databaseHealth } from '../health/liveness';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { config: { public: true, anyHost: true }, schema: { tags: ['ops'], summary: 'Liveness and database check', response: { 200: HealthResponse } } },
    async () => databaseHealth(app.database),
  );
};

export default healthRoutes;
