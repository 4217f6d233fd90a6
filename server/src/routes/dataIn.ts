import type { FastifyPluginAsync } from 'fastify';
import appReportRoutes from './appReports';
import mindbodySyncRoutes from './mindbodySync';
import revenuecatWebhookRoutes from './revenuecatWebhook';

/** The three ways data comes in (docs/integrations.md): the Mindbody import (status/start), RevenueCat webhooks, the app's reports. */
const dataInRoutes: FastifyPluginAsync = async (app) => {
  await app.register(mindbodySyncRoutes);
  await app.register(revenuecatWebhookRoutes);
  await app.register(appReportRoutes);
};

export default dataInRoutes;
