import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLockedError } from '../db/lock';
import { dumpLines, withSnapshot } from '../db/dump';
import { cliArgs } from './common';

const usage = `Usage: npm run backup -- [--out FILE]
Writes a consistent, gzipped JSON-lines dump of the configured database (DATABASE_URL, or PGlite in DATA_DIR)
to FILE (default backups/studio-<date>.jsonl.gz). With PGlite, stop the server first: one process at a time.`;

const { values } = cliArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', default: false } } }, usage);
const out = values.out ?? `backups/studio-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl.gz`;
const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((error) => {
  console.error(error instanceof DataDirLockedError ? `${error.message}\nStop the server, then run the backup.` : (error as Error).message);
  process.exit(1);
});
try {
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  let tables: Record<string, number> = {};
  await withSnapshot(database, async (run) => {
    async function* text() {
      for await (const line of dumpLines(run, new Date())) {
        if ('end' in line) tables = line.tables;
        yield `${JSON.stringify(line)}\n`;
      }
    }
    await pipeline(Readable.from(text()), createGzip(), fs.createWriteStream(`${out}.partial`));
  });
  fs.renameSync(`${out}.partial`, out);
  const total = Object.values(tables).reduce((a, b) => a + b, 0);
  console.log(`Wrote ${out}: ${Object.keys(tables).length} tables, ${total.toLocaleString('en-US')} rows`);
} finally {
  await database.close();
}
