import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth';
import healthRoutes from './health';
import clientRoutes from './clients';
import statsRoutes from './stats';
import messagingRoutes from './messaging';
import videoRoutes from './videos';
import vimeoSyncRoutes from './vimeoSync';
import dataInRoutes from './dataIn';
import auditRoutes from './audit';
import sessionRoutes from './sessions';
import automationRoutes from './automation';
import searchRoutes from './search';
import demoAssetRoutes from './demoAssets';

/** Every area's routes; each is mounted under SERVER_PREFIX. Add a line per area. */
export const routePlugins: FastifyPluginAsync[] = [
  authRoutes,
  healthRoutes,
  clientRoutes,
  messagingRoutes,
  videoRoutes,
  vimeoSyncRoutes,
  statsRoutes,
  dataInRoutes,
  auditRoutes,
  sessionRoutes,
  automationRoutes,
  searchRoutes,
  demoAssetRoutes,
];
