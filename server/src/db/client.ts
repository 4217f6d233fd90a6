import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { takeTurns } from './turns';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { runMigrations } from './migrate';

// int8 (bigint) columns and count(*) arrive as strings from node-postgres; ids here fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs parameterless SQL that may hold several statements (migrations, seeding). */
  execScript(sqlText: string): Promise<void>;
  /** Runs one parameterised query and returns its rows. */
  query<Row = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: all its queries commit together, or none does if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Underlying handles for libraries that need their own connection (pg-boss). */
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
}

/** What raw-SQL helpers need: a Database, or the `tx` of `database.transaction`. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sqlText: string, params?: unknown[]): Promise<Row[]>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it PGlite runs in-process. */
  url?: string;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
  /** Apply migrations only up to this file name (inclusive): tests of an upgrade from that version. */
  migrateThrough?: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url ? await openPostgres(options.url, options.poolSize ?? 20) : await openPglite(options.dataDir);
  try {
    await runMigrations(database, options.migrateThrough);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Runs `work` on one pooled connection between `begin` and COMMIT; ROLLBACK when it throws. */
export async function inPgTransaction<T>(pool: pg.Pool, begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (restart, failover, a DBA's terminate) emits 'error' on the
  // pool; unhandled, that event would crash the whole process. The pool replaces the client on the
  // next checkout, and queries in flight already fail with their own error.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL dropped an idle connection: ${error.message}`);
  });
  // Fail at boot, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    pool,
    async execScript(sqlText) {
      await pool.query(sqlText);
    },
    async query(sqlText, params) {
      const result = await pool.query(sqlText, params as unknown[]);
      return result.rows;
    },
    transaction(work) {
      return inPgTransaction(pool, 'BEGIN', (client) => work({ query: async (sqlText, params) => (await client.query(sqlText, params as unknown[])).rows as never[] }));
    },
    async close() {
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  let lock: DataDirLock | undefined;
  if (!inMemory) {
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    fs.mkdirSync(dataDir, { recursive: true });
    lock = acquireDataDirLock(dataDir);
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(inMemory ? undefined : path.join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // PGlite runs with fsync off, so the OS decides when files reach the disk. What keeps an
  // acknowledged write through a crash of this process (SIGKILL, OOM) is that every commit's WAL is
  // written to the OS before the commit returns: synchronous_commit must stay on (it is PGlite's
  // default; set here so no later setting can turn it off). tests/server/crash.test.ts checks it.
  // Surviving power loss or an OS crash needs fsync, i.e. PostgreSQL (DATABASE_URL).
  try {
    await pglite.exec('SET synchronous_commit TO on');
  } catch (error) {
    await pglite.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  pglite = takeTurns(pglite);
  let closed = false;
  return {
    kind: 'pglite',
    db: drizzlePglite({ client: pglite, schema }) as unknown as Db,
    pglite,
    async execScript(sqlText) {
      await pglite.exec(sqlText);
    },
    async query(sqlText, params) {
      const result = await pglite.query(sqlText, params as unknown[]);
      return result.rows as never[];
    },
    transaction(work) {
      return pglite.transaction((tx) => work({ query: async (sqlText, params) => (await tx.query(sqlText, params as unknown[])).rows as never[] }));
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        // PGlite runs with fsync off; a checkpoint leaves the files consistent for the next open.
        if (!inMemory) await pglite.exec('CHECKPOINT');
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}
