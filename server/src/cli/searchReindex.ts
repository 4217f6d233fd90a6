import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { createSearchIndexer } from '../integrations/algolia';
import { rebuildAlgolia, rebuildEmbedded } from '../search/push';

const usage = `Usage: npm run search:reindex
  With ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY and ALGOLIA_SEARCH_KEY: rebuilds hosted Algolia's Customers and
  Videos indexes from the database (built aside, then moved over the live ones).
  Without them: rebuilds the embedded search tables (they are kept current by triggers; this repairs them).`;

const { values } = parseArgs({ options: { help: { type: 'boolean', default: false } } });
if (values.help) {
  console.log(usage);
  process.exit(0);
}

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
})();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((error) => {
  if (error instanceof DataDirLockedError) fail(`${error.message}\nStop the server first (PGlite allows one process at a time).`);
  throw error;
});

const started = Date.now();
try {
  const indexer = createSearchIndexer(config);
  if (indexer.mode === 'algolia') {
    console.log(`Rebuilding Algolia's indexes of application ${config.algolia!.appId}…`);
    await rebuildAlgolia(database, indexer, (line) => console.log(line));
  } else {
    console.log('Rebuilding the embedded search tables (ALGOLIA_* not set)…');
    await rebuildEmbedded(database);
  }
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`✖ ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
