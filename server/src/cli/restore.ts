import fs from 'node:fs';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { restoreLines, type DumpLine } from '../db/dump';
import { expirePurchaseAccess } from '../revenuecat/events';
import { cliArgs } from './common';
import { vacuumAnalyzeAll } from './queries';

const usage = `Usage: npm run restore -- FILE
Loads a dump written by npm run backup into the configured database, which must be empty
(a new DATA_DIR, or a new PostgreSQL database). Everything is restored in one transaction, or nothing.`;

const { positionals } = cliArgs({ allowPositionals: true, options: { help: { type: 'boolean', default: false } } }, usage);
if (positionals.length !== 1) {
  console.error(`✖ ${positionals.length === 0 ? 'Name the dump file to restore.' : 'Name one dump file.'}\n\n${usage}`);
  process.exit(2);
}
const file = positionals[0]!;
if (!fs.existsSync(file)) {
  console.error(`No such file: ${file}`);
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((error) => {
  console.error(error instanceof DataDirLockedError ? `${error.message}\nStop the server, then restore.` : (error as Error).message);
  process.exit(1);
});
try {
  const input = fs.createReadStream(file).pipe(file.endsWith('.gz') ? createGunzip() : new (await import('node:stream')).PassThrough());
  async function* lines(): AsyncGenerator<DumpLine> {
    for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
      if (line.trim()) yield JSON.parse(line) as DumpLine;
    }
  }
  const counts = await restoreLines(database, lines());
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`Restored ${Object.keys(counts).length} tables, ${total.toLocaleString('en-US')} rows from ${file}`);
  // What the server would otherwise do in its first minutes, beside the first staff's requests: the
  // restored purchases flagged their clients for the access-expiry job, and no loaded table is vacuumed.
  const { refreshed } = await expirePurchaseAccess({ database, clock: { now: () => new Date() } });
  await vacuumAnalyzeAll(database);
  console.log(`Recomputed ${refreshed.toLocaleString('en-US')} clients' access from their purchases; vacuumed and analyzed every table`);
} catch (error) {
  console.error(`Restore failed, nothing was changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
