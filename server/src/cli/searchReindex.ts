import { cliArgs, cliConfig, cliDatabase } from './common';
import { createSearchIndexer } from '../integrations/algolia';
import { rebuildAlgolia, rebuildEmbedded } from '../search/push';

const usage = `Usage: npm run search:reindex
  With ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY and ALGOLIA_SEARCH_KEY: rebuilds hosted Algolia's Customers and
  Videos indexes from the database (built aside, then moved over the live ones).
  Without them: rebuilds the embedded search tables (they are kept current by triggers; this repairs them).`;

cliArgs({ options: { help: { type: 'boolean', default: false } } }, usage);

const config = cliConfig();
const database = await cliDatabase(config, 'Stop the server first (PGlite allows one process at a time).');

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
