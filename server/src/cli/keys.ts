import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { resolveIntegrationKeys } from '../integrations/keys';
import { cliArgs } from './common';

const usage = `Usage: npm run keys
Shows the keys the RevenueCat webhook and the mobile app must send (generated on first start
unless REVENUECAT_WEBHOOK_AUTH / APP_API_KEY are set).`;
cliArgs({ options: { help: { type: 'boolean', default: false } } }, usage);
try {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    const keys = await resolveIntegrationKeys(database, config);
    for (const [what, key] of [
      ['RevenueCat webhook  Authorization:', keys.revenuecatWebhookAuth],
      ['Mobile app          X-App-Key:    ', keys.appApiKey],
    ] as const) {
      console.log(`${what} ${key.value}   (${key.source === 'env' ? `from ${key.variable}` : `generated; set ${key.variable} to choose your own`})`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`✖ ${error.message}${error instanceof DataDirLockedError ? '\nThe server prints the keys when it starts.' : ''}`);
    process.exit(1);
  }
  throw error;
}
