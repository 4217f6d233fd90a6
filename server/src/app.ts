import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { openDatabase, type Database } from './db/client';
import { createSessionStore } from './auth/sessions';
import { registerSessionGuard } from './auth/guard';
import { registerErrorHandler } from './lib/errors';
import { cookieSecret } from './lib/secrets';
import { registerSecurity } from './lib/security';
import { registerOpenApi } from './openapi';
import { registerConsole } from './routes/console';
import { routePlugins } from './routes';
import { createJobQueue } from './jobs/queue';
import { registerCoreJobs } from './jobs';
import { createMindbody, type MindbodyApi } from './integrations/mindbody';
import { createFcm, type FcmSender } from './integrations/fcm';
import { createPushService } from './push/service';
import { checkEntitlementLevels, resolveIntegrationKeys } from './integrations/keys';
import { registerMindbodyJobs } from './mindbody/jobs';
import { registerRevenueCatJobs } from './revenuecat/events';
import { createAutomation, registerAutomationJobs } from './automation';
import { pushServiceSender, type AutomatedSender } from './automation/sender';
import { registerOverrideJobs } from './clients/accessOverride';
import { createSearchIndexer, type SearchIndexer } from './integrations/algolia';
import { registerSearchJobs } from './search/jobs';
import type { Clock } from './types';
import './types';

export interface AppOptions {
  config: Config;
  /** An already-open database (tests share one per file); opened from config otherwise. */
  database?: Database;
  /** Replaced in tests to move time; everything time-based reads it. */
  clock?: Clock;
  logger?: boolean;
  /** Replaces the Mindbody client chosen from config (tests pass one with recorded waits). */
  mindbody?: MindbodyApi;
  /** Replaces the push sender of automated messages (tests pass an FCM stand-in or a failing one). */
  automatedSender?: AutomatedSender;
  /** Replaces the FCM sender chosen from config (tests pass one aimed at a stand-in). */
  fcm?: FcmSender;
  /** Replaces the search indexer chosen from config (tests pass an Algolia client aimed at a stand-in). */
  searchIndexer?: SearchIndexer;
}

export const systemClock: Clock = { now: () => new Date() };

/** Builds the whole server. `server.ts` listens with it; tests call `app.inject` on it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.LOG_LEVEL, redact: ['req.headers.cookie', 'req.headers.authorization'] },
    // Requests that take longer than this are cut off rather than holding a connection forever.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    trustProxy: process.env.TRUST_PROXY === 'true',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }));
  const clock = options.clock ?? systemClock;
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('clock', clock);
  app.decorate('pathPrefix', config.SERVER_PREFIX);
  app.decorate('sessions', createSessionStore(database.db, () => clock.now()));
  app.decorate('jobs', createJobQueue(database, clock, app.log));
  app.decorate('mindbody', options.mindbody ?? createMindbody(config, clock));
  app.decorate('push', createPushService({ database, fcm: options.fcm ?? createFcm(config, clock), clock }));
  app.decorate('searchIndexer', options.searchIndexer ?? createSearchIndexer(config));
  app.decorate('integrationKeys', await resolveIntegrationKeys(database, config));
  await checkEntitlementLevels(database, config.REVENUECAT_ENTITLEMENT_LEVELS);
  app.decorate('automation', createAutomation(app, options.automatedSender ?? pushServiceSender(app.push)));
  // Stop polling before the database goes away.
  app.addHook('onClose', async () => app.jobs.stop());
  if (ownsDatabase) app.addHook('onClose', async () => database.close());

  registerErrorHandler(app);
  registerSecurity(app);
  // Every route, for the tests that walk them all (guard, fuzzing).
  const routeTable: { method: string; url: string; public: boolean }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, public: Boolean((route.config as { public?: boolean } | undefined)?.public) });
    }
  });
  await app.register(cookie, { secret: config.SESSION_SECRET ?? (await cookieSecret(database)) });
  await app.register(formbody);
  registerSessionGuard(app);
  await registerOpenApi(app);
  await app.register(
    async (scoped) => {
      for (const plugin of routePlugins) await scoped.register(plugin);
    },
    { prefix: config.SERVER_PREFIX },
  );
  await registerCoreJobs(app);
  await registerMindbodyJobs(app);
  await registerRevenueCatJobs(app);
  await registerAutomationJobs(app);
  await registerOverrideJobs(app);
  await registerSearchJobs(app);
  await registerConsole(app);
  return app;
}
