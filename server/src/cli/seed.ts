import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { isEmpty, seedDemoData } from '../../seed/demo';
import { seedRevenue } from '../../seed/revenue';
import { cliArgs } from './common';

const usage = `Usage: npm run seed -- [--clients N] [--videos N] [--views-per-client N] [--force]
Fills the configured database (DATABASE_URL, or PGlite in DATA_DIR) with deterministic demo data.
The server must not be running on the same PGlite DATA_DIR.`;

const { values } = cliArgs(
  {
    options: {
      clients: { type: 'string', default: '2000' },
      videos: { type: 'string', default: '150' },
      'views-per-client': { type: 'string', default: '15' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  },
  usage,
);
const number = (name: string, raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive whole number, got '${raw}'\n\n${usage}`);
    process.exit(2);
  }
  return n;
};

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
try {
  if (!(await isEmpty(database)) && !values.force) {
    console.error('The database already holds clients or videos. Use a fresh DATA_DIR/database, or --force to add more.');
    process.exitCode = 1;
  } else {
    console.log(`Seeding ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}…`);
    await seedDemoData(database, {
      clients: number('clients', values.clients),
      videos: number('videos', values.videos),
      viewsPerClient: number('views-per-client', values['views-per-client']),
      urlPrefix: config.SERVER_PREFIX,
      log: (line) => console.log(line),
    });
    await seedRevenue(database, { now: new Date(), log: (line) => console.log(line) });
  }
} finally {
  await database.close();
}
