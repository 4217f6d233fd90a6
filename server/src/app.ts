import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { createSessionStore } from './auth/sessions';
import { setPasswordHashCost } from './staff/password';
import { registerSessionGuard } from './auth/guard';
import { registerErrorHandler } from './lib/errors';
import { registerInputTextCheck } from './lib/inputText';
import { registerJsonDepthLimit } from './lib/jsonDepth';
import { cookieSecret } from './lib/secrets';
import { registerSecurity } from './lib/security';
import { requestLogView } from './lib/logging';
import { registerOpenApi } from './openapi';
import { registerConsole } from './routes/console';
import { routePlugins } from './routes';
import { createJobQueue } from './jobs/queue';
import { defineCoreJobs } from './jobs';
import { scheduledJobs } from './schedules';
import { createMindbody, type MindbodyApi } from './integrations/mindbody';
import { createFcm, type FcmSender } from './integrations/fcm';
import { createPushService } from './push/service';
import { registerPushJobs } from './push/jobs';
import { registerBroadcastJobs } from './broadcasts/send';
import { registerBulkJobs } from './bulk/override';
import { checkEntitlementLevels, resolveIntegrationKeys } from './integrations/keys';
import { registerMindbodyJobs } from './mindbody/jobs';
import { registerRevenueCatJobs } from './revenuecat/events';
import { createAutomation, registerAutomationJobs } from './automation';
import { pushServiceSender, type AutomatedSender } from './automation/sender';
import { registerOverrideJobs } from './clients/accessOverride';
import { registerVideoFigureJobs } from './videos/figures';
import { registerVimeoSyncJobs } from './videos/syncJob';
import { createVimeoCatalogue, type VimeoCatalogue } from './integrations/vimeo';
import { createSearchIndexer, type SearchIndexer } from './integrations/algolia';
import { registerSearchJobs } from './search/jobs';
import { createRevenueCatRest, type RevenueCatRest } from './integrations/revenuecat/rest';
import { registerClientDataJobs } from './clientData/jobs';
import { retentionSettings } from './clientData/retention';
import { refuseChangesToErasedClients } from './clientData/erasedClients';
import { createIdTokenVerifier, googleIdTokenKeys } from './integrations/firebase/idToken';
import type { JWTVerifyGetKey } from 'jose';
import type { Clock } from './types';
import './types';

export interface AppOptions {
  config: Config;
  /** An already-open database (tests share one per file); opened from config otherwise. */
  database?: Database;
  /** Replaced in tests to move time; everything time-based reads it. */
  clock?: Clock;
  logger?: boolean;
  /** Where the logs go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** Replaces the Mindbody client chosen from config (tests pass one with recorded waits). */
  mindbody?: MindbodyApi;
  /** Replaces the push sender of automated messages (tests pass an FCM stand-in or a failing one). */
  automatedSender?: AutomatedSender;
  /** Replaces the FCM sender chosen from config (tests pass one aimed at a stand-in). */
  fcm?: FcmSender;
  /** Replaces RevenueCat's REST client chosen from config (tests pass one aimed at a stand-in). */
  revenuecat?: RevenueCatRest;
  /** Replaces the Vimeo catalogue chosen from config. */
  vimeo?: VimeoCatalogue;
  /** Replaces the search indexer chosen from config (tests pass an Algolia client aimed at a stand-in). */
  searchIndexer?: SearchIndexer;
  /**
   * Replaces Google's published keys for Firebase ID tokens (tests sign with a local key). Only
   * used with FIREBASE_PROJECT_ID; there is no variable for it, so no deployment can swap the keys.
   */
  firebaseIdTokenKeys?: JWTVerifyGetKey;
}

/** Fastify's trustProxy; a hop count as the function Fastify itself builds from one. */
function proxyTrust(setting: Config['TRUST_PROXY']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

export const systemClock: Clock = { now: () => new Date() };

/** Builds the whole server. `server.ts` listens with it; tests call `app.inject` on it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  setPasswordHashCost(config.passwordHashCost);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.LOG_LEVEL, serializers: { req: requestLogView }, ...(options.logStream ? { stream: options.logStream } : {}) },
    // Requests that take longer than this are cut off rather than holding a connection forever.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    trustProxy: proxyTrust(config.TRUST_PROXY),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = !options.database;
  const database =
    options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS }));
  const clock = options.clock ?? systemClock;
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('clock', clock);
  app.decorate('pathPrefix', config.SERVER_PREFIX);
  app.decorate(
    'sessions',
    createSessionStore(database, () => clock.now()),
  );
  app.decorate(
    'jobs',
    createJobQueue(database, clock, app.log, {
      // A test's clock stands in for the database's too; a deployment's instances all read the database's.
      time: options.clock ? 'clock' : 'database',
      concurrency: { default: config.JOB_CONCURRENCY_DEFAULT, sync: config.JOB_CONCURRENCY_SYNC, messages: config.JOB_CONCURRENCY_MESSAGES },
    }),
  );
  app.decorate('mindbody', options.mindbody ?? createMindbody(config, clock));
  app.decorate('push', createPushService({ database, fcm: options.fcm ?? createFcm(config, clock), clock, jobs: app.jobs }));
  app.decorate('searchIndexer', options.searchIndexer ?? createSearchIndexer(config));
  app.decorate('revenuecat', options.revenuecat ?? createRevenueCatRest(config));
  app.decorate('vimeo', options.vimeo ?? createVimeoCatalogue(config, app.log));
  app.decorate('integrationKeys', await resolveIntegrationKeys(database, config));
  app.decorate(
    'idTokens',
    config.FIREBASE_PROJECT_ID
      ? createIdTokenVerifier({
          projectId: config.FIREBASE_PROJECT_ID,
          keys: options.firebaseIdTokenKeys ?? googleIdTokenKeys({ now: () => clock.now().getTime() }),
          now: () => clock.now(),
        })
      : null,
  );
  await checkEntitlementLevels(database, config.REVENUECAT_ENTITLEMENT_LEVELS);
  app.decorate('automation', createAutomation(app, options.automatedSender ?? pushServiceSender(app.push)));
  // Stop polling before the database goes away.
  app.addHook('onClose', async () => app.jobs.stop());
  if (ownsDatabase) app.addHook('onClose', async () => database.close());

  registerErrorHandler(app);
  registerSecurity(app);
  registerJsonDepthLimit(app);
  registerInputTextCheck(app);
  // Every route, for the tests that walk them all (guard, fuzzing).
  const routeTable: FastifyInstance['routeTable'] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const config = route.config as { public?: boolean; scrubsText?: boolean } | undefined;
      // `public` and `permission` are read when asked: a plugin's own onRoute hook (markRoutesPublic) runs after this one.
      routeTable.push({
        method,
        url: route.url,
        get public() {
          return Boolean(route.config?.public);
        },
        get permission() {
          return route.config?.permission;
        },
        get reauth() {
          return Boolean(route.config?.reauth);
        },
        schema: route.schema,
        scrubsText: Boolean(config?.scrubsText),
      });
    }
  });
  await app.register(cookie, { secret: config.SESSION_SECRET ?? (await cookieSecret(database)) });
  registerSessionGuard(app);
  refuseChangesToErasedClients(app);
  await registerOpenApi(app);
  await app.register(
    async (scoped) => {
      for (const plugin of routePlugins) await scoped.register(plugin);
    },
    { prefix: config.SERVER_PREFIX },
  );
  defineCoreJobs(app, async () => (await retentionSettings(database, config.JOB_RETENTION_DAYS)).finished_jobs);
  registerMindbodyJobs(app);
  registerRevenueCatJobs(app);
  await registerAutomationJobs(app);
  registerOverrideJobs(app);
  registerVideoFigureJobs(app);
  registerVimeoSyncJobs(app);
  await registerSearchJobs(app);
  await registerPushJobs(app);
  registerBroadcastJobs(app);
  registerBulkJobs(app);
  registerClientDataJobs(app);
  await app.jobs.applySchedules(scheduledJobs(app));
  await registerConsole(app);
  return app;
}
