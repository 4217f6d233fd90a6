import fs from 'node:fs';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { restoreLines, type DumpLine } from '../db/dump';

const usage = `Usage: npm run restore -- FILE
Loads a dump written by npm run backup into the configured database, which must be empty
(a new DATA_DIR, or a new PostgreSQL database). Everything is restored in one transaction, or nothing.`;

const file = process.argv[2];
if (!file || file === '--help') {
  console.log(usage);
  process.exit(file ? 0 : 2);
}
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
} catch (error) {
  console.error(`Restore failed, nothing was changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
