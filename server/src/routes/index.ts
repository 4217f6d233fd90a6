import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth';
import twoStepRoutes from './twoStep';
import passkeyRoutes from './passkeys';
import healthRoutes from './health';
import clientRoutes from './clients';
import statsRoutes from './stats';
import messagingRoutes from './messaging';
import videoRoutes from './videos';
import vimeoSyncRoutes from './vimeoSync';
import mindbodySyncRoutes from './mindbodySync';
import revenuecatWebhookRoutes from './revenuecatWebhook';
import appReportRoutes from './appReports';
import auditRoutes from './audit';
import sessionRoutes from './sessions';
import staffRoutes from './staff';
import automationRoutes from './automation';
import searchRoutes from './search';
import demoAssetRoutes from './demoAssets';
import segmentRoutes from './segments';
import broadcastRoutes from './broadcasts';
import overrideRoutes from './overrides';
import clientProfileRoutes from './clientProfile';
import clientDataRoutes from './clientData';
import outcomeRoutes from './outcomes';
import revenueRoutes from './revenue';
import clientContactRoutes from './clientContacts';

/** Every area's routes; each is mounted under SERVER_PREFIX. Add a line per area. */
export const routePlugins: FastifyPluginAsync[] = [
  authRoutes,
  twoStepRoutes,
  passkeyRoutes,
  healthRoutes,
  clientRoutes,
  messagingRoutes,
  videoRoutes,
  vimeoSyncRoutes,
  statsRoutes,
  // The ways data comes in (docs/integrations.md): the Mindbody import, RevenueCat webhooks, the app's reports.
  mindbodySyncRoutes,
  revenuecatWebhookRoutes,
  appReportRoutes,
  auditRoutes,
  sessionRoutes,
  staffRoutes,
  automationRoutes,
  searchRoutes,
  demoAssetRoutes,
  segmentRoutes,
  broadcastRoutes,
  overrideRoutes,
  clientProfileRoutes,
  clientDataRoutes,
  outcomeRoutes,
  revenueRoutes,
  clientContactRoutes,
];
