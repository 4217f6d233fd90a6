import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../../server/src/db/client';
import { PGLITE_TEMPLATE_ENV } from '../support/databases';

/**
 * Most of an in-memory PGlite start is initdb and the migrations, the same for every file: do them
 * once per run and let each file's database start from a dump of the result
 * (tests/support/databases.ts). Upgrade tests, which need an earlier schema, still start empty.
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pglite-template-'));
  const migrated = await openDatabase({ dataDir: dir });
  await migrated.close();
  const pglite = await PGlite.create(path.join(dir, 'pgdata'), { extensions: { pg_trgm } });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
