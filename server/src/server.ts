import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/lock';
import { ensureStaffAccount } from './staff/accounts';
import { setPasswordHashCost } from './staff/password';
import { isEmpty, seedDemoData } from '../seed/demo';
import { seedRevenue } from '../seed/revenue';

const SHUTDOWN_DEADLINE_MS = 4_500;

/** Where the outside world sends data, and with which key (generated keys are shown in full). */
function inboundBanner(app: FastifyInstance, base: string): string[] {
  const { mindbody, config } = app;
  const key = (value: { value: string; source: string; variable: string }) =>
    value.source === 'env' ? `(from ${value.variable})` : `${value.value}  (generated; ${value.variable} sets your own)`;
  const every = config.MINDBODY_SYNC_INTERVAL_MINUTES;
  return [
    `  Mindbody: ${mindbody.mode === 'live' ? 'live API' : 'sandbox site (set MINDBODY_* for the live API)'}, sites ${mindbody.siteIds.join(', ')}; ` +
      (every > 0 ? `imports every ${every} min` : 'no scheduled import') +
      ' (npm run sync:mindbody, or POST /api/admin/v1/mindbody/sync)',
    `  RevenueCat webhook: POST ${base}/api/webhooks/revenuecat  Authorization: ${key(app.integrationKeys.revenuecatWebhookAuth)}`,
    `  Mobile app: POST ${base}/api/app/v1/debug-info and /video-views  X-App-Key: ${key(app.integrationKeys.appApiKey)}`,
    config.algolia
      ? `  Customer search: hosted Algolia (application ${config.algolia.appId}); changes are pushed every 5 s (npm run search:reindex rebuilds)`
      : `  Customer search: POST ${base}/1/indexes/*/queries  application id ${config.SEARCH_APP_ID}, search key ${key(app.integrationKeys.searchApiKey)} (and a staff session)`,
  ];
}

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  // Before STAFF_PASSWORD's account is hashed below (buildApp sets it too).
  setPasswordHashCost(config.passwordHashCost);

  let shutdown: ((reason: string, exitCode: number) => Promise<void>) | undefined;
  // PGlite's worker thread died: every query now fails (503). Exit, so the supervisor restarts us.
  const onFailure = (error: Error) => {
    console.error(`\n✖ ${error.message}\n`);
    if (shutdown) void shutdown('database stopped', 1);
    else process.exit(1);
  };
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
    onFailure,
  }).catch((error) => {
    if (error instanceof DataDirLockedError) fail(error.message);
    fail(`Cannot open the database (${config.DATABASE_URL ? 'DATABASE_URL' : `PGlite in ${config.dataDir}`}): ${(error as Error).message}`);
  });

  if (config.SEED_DEMO && (await isEmpty(database))) {
    console.log('Empty database: seeding demo data (SEED_DEMO=false skips this)…');
    await seedDemoData(database, { clients: 2000, urlPrefix: config.SERVER_PREFIX, log: (line) => console.log(line) });
    await seedRevenue(database, { now: new Date(), log: (line) => console.log(line) });
  }
  const account = await ensureStaffAccount(database, config);

  const app = await buildApp({ config, database });

  // The requests being answered, named when a stop runs out of time.
  const open = new Set<{ method?: string; url?: string }>();
  app.server.on('request', (request, response) => {
    open.add(request);
    response.on('close', () => open.delete(request));
  });

  let stopping = false;
  shutdown = async (reason: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ reason }, 'shutting down');
    // What the stop was waiting on when the deadline ran out, so an unclean stop can be explained.
    let waitingOn = 'requests still answering and the jobs running';
    const deadline = setTimeout(() => {
      const openRequests = [...open].map((request) => `${request.method} ${request.url}`).slice(0, 20);
      app.log.error({ waitingOn, openRequests }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await app.close(); // stops accepting, lets in-flight requests finish
      waitingOn = 'the database closing';
      await database.close();
      process.exit(exitCode);
    } catch (error) {
      app.log.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown?.('SIGTERM', 0));
  process.on('SIGINT', () => void shutdown?.('SIGINT', 0));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.jobs.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = config.PUBLIC_URL?.replace(/\/$/, '') ?? `http://${shownHost}:${port}`;
  const lines = [
    '',
    `Studio Console is running on ${database.kind === 'pglite' ? `PGlite (${config.dataDir})` : 'PostgreSQL'}.`,
    `  Console:  ${base}/`,
    `  Sign in:  ${base}${config.SERVER_PREFIX}/login`,
  ];
  if (config.oidc) lines.push(`  Sign-in goes through ${config.oidc.issuerUrl}`);
  else if (account?.generatedPassword)
    lines.push(`  Staff account created: ${account.email} / ${account.generatedPassword}  (an owner; shown once; change it from the user menu)`);
  else if (account) lines.push(`  Staff account: ${account.email} (an owner, password from STAFF_PASSWORD)`);
  lines.push(`  API docs: ${base}${config.SERVER_PREFIX}/api/docs`);
  lines.push(...inboundBanner(app, `${base}${config.SERVER_PREFIX}`), '');
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
