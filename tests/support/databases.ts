import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/src/db/client';

/** The migrated PGlite dump tests/server/global-setup.ts writes once per run. */
export const PGLITE_TEMPLATE_ENV = 'STUDIO_TEST_PGLITE_TEMPLATE';

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

/** A new, empty database per test file, dropped again when the file closes it. */
async function openFreshPostgres(adminUrl: string, migrateThrough?: string): Promise<Database> {
  const name = `sc_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
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
