import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/src/db/client';

/** The migrated PGlite dump tests/server/global-setup.ts writes once per run. */
export const PGLITE_TEMPLATE_ENV = 'STUDIO_TEST_PGLITE_TEMPLATE';
/** The migrated PostgreSQL database tests/server/global-setup.ts creates once per run, copied by each file's CREATE DATABASE. */
export const POSTGRES_TEMPLATE_ENV = 'STUDIO_TEST_POSTGRES_TEMPLATE';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** `migrateThrough`: a database at an earlier schema version (upgrade tests). */
  open(options?: { migrateThrough?: string }): Promise<Database>;
}

/**
 * The server suites run on PGlite always and on PostgreSQL too when TEST_DATABASE_URL is set.
 * In CI a missing TEST_DATABASE_URL is an error, so the PostgreSQL half can never silently skip.
 */
export function testDatabases(): TestDatabase[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI) throw new Error('CI must set TEST_DATABASE_URL so the server suites also run on PostgreSQL');
  const template = process.env[PGLITE_TEMPLATE_ENV];
  const list: TestDatabase[] = [
    {
      name: 'pglite',
      // The migrations still run on open, and find nothing left to do.
      open: (options) => openDatabase({ dataDir: 'memory://', ...(template && !options?.migrateThrough ? { startFrom: template } : {}), ...options }),
    },
  ];
  if (url) list.push({ name: 'postgres', open: (options) => openFreshPostgres(url, options?.migrateThrough) });
  return list;
}

/** A database name no other run (or other test file) on the same server uses. */
export const uniqueDatabaseName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/**
 * A new database per test file, dropped again when the file closes it: a copy of the migrated
 * template made once per run (like PGlite's dump), or an empty one for upgrade tests.
 */
async function openFreshPostgres(adminUrl: string, migrateThrough?: string): Promise<Database> {
  const name = uniqueDatabaseName('sc_test');
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template && !migrateThrough ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // The migrations still run on open, and find nothing left to do in a copy of the template.
  const database = await openDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 5, migrateThrough });
  const close = database.close.bind(database);
  database.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  return database;
}
