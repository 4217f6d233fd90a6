import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../../server/src/db/client';
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, uniqueDatabaseName } from '../support/databases';

/**
 * Most of a database's start is initdb and the migrations, the same for every file: do them once
 * per run and let each file's database start from the result (tests/support/databases.ts). In
 * PGlite that is a dump each in-memory database loads; in PostgreSQL (TEST_DATABASE_URL) a migrated
 * database each file's CREATE DATABASE copies. Upgrade tests, which need an earlier schema, still
 * start empty.
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pglite-template-'));
  const dropPostgresTemplate = await postgresTemplate();
  const migrated = await openDatabase({ dataDir: dir });
  await migrated.close();
  const pglite = await PGlite.create(path.join(dir, 'pgdata'), { extensions: { pg_trgm } });
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await dropPostgresTemplate();
  };
}

/** Creates and migrates the PostgreSQL template (nothing without TEST_DATABASE_URL); returns what drops it. */
async function postgresTemplate(): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return async () => undefined;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const name = uniqueDatabaseName('sc_template');
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Closed again before any file starts: CREATE DATABASE … TEMPLATE needs the template without sessions.
  const migrated = await openDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 1 });
  await migrated.close();
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
