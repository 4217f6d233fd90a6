import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse } from '../../../contract/common';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { tags: ['ops'], summary: 'Liveness and database check', response: { 200: HealthResponse } } },
    async () => {
      await app.database.query('SELECT 1');
      return { status: 'ok' as const, database: app.database.kind };
    },
  );
};

export default healthRoutes;
