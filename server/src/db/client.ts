import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startPgliteThread, type DatabaseStoppedError, type PgliteThread } from './pgliteThread';
import pg from 'pg';
import type { z } from 'zod';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { runMigrations } from './migrate';
import { checkedRows, type RowSchema } from './rows';

// int8 (bigint) columns and count(*) arrive as strings from node-postgres; ids here fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface StatementOptions {
  /**
   * The statement's best plan does not depend on its values (a lookup by primary key or another
   * unique key): PostgreSQL may plan it once per connection and reuse that plan (its
   * plan_cache_mode 'auto': custom plans for the first five runs, then the generic plan when it is
   * estimated no worse). Planning is most of such a statement's cost; on PGlite, which plans every
   * other statement for its values, it is ~60 %. Leave it off for anything whose plan should follow
   * its values (date ranges, name prefixes, optional filters). Inside a PGlite transaction it has
   * no effect.
   */
  reusePlan?: boolean;
}

/** Statement names for node-postgres: one per distinct text, prepared once on each pooled connection. */
const statementNames = new Map<string, string>();
const statementName = (sqlText: string) => {
  let name = statementNames.get(sqlText);
  if (!name) statementNames.set(sqlText, (name = `reuse_${statementNames.size + 1}`));
  return name;
};
/** One statement on a pool or a pooled connection; a reusable plan goes by a statement name. */
const onPostgres = (target: pg.Pool | pg.PoolClient, sqlText: string, params: unknown[] | undefined, options: StatementOptions | undefined) =>
  options?.reusePlan ? target.query({ name: statementName(sqlText), text: sqlText, values: params }) : target.query(sqlText, params);

export interface Database extends Queryable {
  kind: 'pglite' | 'postgres';
  /** Runs parameterless SQL that may hold several statements (migrations, seeding). */
  execScript(sqlText: string): Promise<void>;
  /**
   * The one way to open a transaction: `work` runs on one connection and everything it does through
   * `tx` (`tx.rows`, `tx.execute`, `tx.execScript`) commits together, or nothing does if it
   * throws. Inside, use only `tx`: PGlite has one connection, so a query outside waits for it to end.
   * `snapshot`: one consistent read-only view (REPEATABLE READ READ ONLY), for dumps.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: { snapshot?: boolean }): Promise<T>;
  /** PostgreSQL's pool, for work that needs one connection of its own (a snapshot, a restore). */
  pool?: pg.Pool;
  /** The worker thread that owns PGlite (tests end it to see what a crash does). */
  pgliteWorker?: Worker;
  close(): Promise<void>;
}

/**
 * What an area's data module needs: a Database, or the `tx` of `database.transaction`.
 *
 * The one way the server reaches its data is plain SQL through `rows` (its answer checked against a
 * zod row schema, which is also its type) and `execute` (a statement whose rows nobody reads).
 * `query` is the untyped primitive under both, for the database layer itself and for tests.
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sqlText: string, params?: unknown[], options?: StatementOptions): Promise<Row[]>;
  /** Runs one parameterised statement; each row is checked against `row` (a 500 naming the column when it does not fit). */
  rows<Schema extends RowSchema>(row: Schema, sqlText: string, params?: unknown[], options?: StatementOptions): Promise<z.output<Schema>[]>;
  /** Runs one parameterised statement whose rows are not read (an INSERT, UPDATE or DELETE without RETURNING). */
  execute(sqlText: string, params?: unknown[], options?: StatementOptions): Promise<void>;
}

/** `rows` and `execute` over a `query`. */
function withRows<Target extends Pick<Queryable, 'query'>>(target: Target): Target & Pick<Queryable, 'rows' | 'execute'> {
  return Object.assign(target, {
    rows: async <Schema extends RowSchema>(row: Schema, sqlText: string, params?: unknown[], options?: StatementOptions) =>
      checkedRows(row, await target.query(sqlText, params, options), sqlText),
    execute: async (sqlText: string, params?: unknown[], options?: StatementOptions) => {
      await target.query(sqlText, params, options);
    },
  });
}

/** The `tx` of `database.transaction`: statements and scripts, all in that one transaction. */
export interface Transaction extends Queryable {
  execScript(sqlText: string): Promise<void>;
}

const SNAPSHOT = 'ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** A transaction's `tx` over whatever runs its statements. */
function transactionOn(
  run: (sqlText: string, params?: unknown[], options?: StatementOptions) => Promise<unknown[]>,
  exec: (sqlText: string) => Promise<unknown>,
): Transaction {
  return withRows<Omit<Transaction, 'rows' | 'execute'>>({
    query: async (sqlText, params, options) => (await run(sqlText, params, options)) as never[],
    execScript: async (sqlText) => {
      await exec(sqlText);
    },
  });
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it PGlite runs in a worker thread of this process. */
  url?: string;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
  /** Apply migrations only up to this file name (inclusive): tests of an upgrade from that version. */
  migrateThrough?: string;
  /**
   * PGlite only: called once if the worker thread that owns the database dies. Every query then
   * fails with a DatabaseStoppedError (503); the server exits so its supervisor restarts it.
   */
  onFailure?: (error: DatabaseStoppedError) => void;
  /**
   * PGlite with a data directory only: PostgreSQL's shared_buffers (PGLITE_SHARED_BUFFERS, '512MB'
   * by default; PGlite's own default, 128MB, otherwise). Its pages are all the cache PGlite has
   * between statements.
   */
  pgliteSharedBuffers?: string;
  /** PGlite in memory only: start from this dump (PGlite's dumpDataDir, e.g. an already migrated cluster) instead of an empty one. */
  startFrom?: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url
    ? await openPostgres(options.url, options.poolSize ?? 20)
    : await openPglite(options.dataDir, options.onFailure, options.startFrom, options.pgliteSharedBuffers);
  try {
    await runMigrations(database, options.migrateThrough);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Runs `work` on one pooled connection between `begin` and COMMIT; ROLLBACK when it throws. */
async function inPgTransaction<T>(pool: pg.Pool, begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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

/**
 * The connection string with our session settings after any `options` it gives (pg lets the
 * string's own parameters win over its config's). JIT off: the server's statements are short, and
 * PostgreSQL estimates some far above their cost (a LIMIT over filters that depend on each other,
 * as in the customer search), then spends 10-30 ms compiling a statement that runs in 1-3 ms.
 */
export function withSessionOptions(url: string): string {
  const ours = '-c jit=off';
  try {
    const parsed = new URL(url);
    parsed.searchParams.set('options', [parsed.searchParams.get('options'), ours].filter(Boolean).join(' '));
    return parsed.toString();
  } catch {
    return url; // not a URL (key=value): pg reads it as it is
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: withSessionOptions(url), max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (restart, failover, a DBA's terminate) emits 'error' on the
  // pool; unhandled, that event would crash the whole process. The pool replaces the client on the
  // next checkout, and queries in flight already fail with their own error.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL dropped an idle connection: ${error.message}`);
  });
  // Fail at boot, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  return withRows({
    kind: 'postgres' as const,
    pool,
    async execScript(sqlText) {
      await pool.query(sqlText);
    },
    async query(sqlText, params, options) {
      return (await onPostgres(pool, sqlText, params, options)).rows;
    },
    transaction(work, options) {
      return inPgTransaction(pool, options?.snapshot ? `BEGIN ${SNAPSHOT}` : 'BEGIN', (client) =>
        work(
          transactionOn(
            async (sqlText, params, statement) => (await onPostgres(client, sqlText, params, statement)).rows,
            (sqlText) => client.query(sqlText),
          ),
        ),
      );
    },
    async close() {
      await pool.end();
    },
  } satisfies Omit<Database, 'rows' | 'execute'>);
}

async function openPglite(
  dataDir: string,
  onFailure: DatabaseOptions['onFailure'],
  startFrom: string | undefined,
  sharedBuffers: string | undefined,
): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  if (startFrom && !inMemory) throw new Error('startFrom is for an in-memory PGlite (memory://) only');
  let lock: DataDirLock | undefined;
  if (!inMemory) {
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    fs.mkdirSync(dataDir, { recursive: true });
    lock = acquireDataDirLock(dataDir);
  }
  let thread: PgliteThread;
  try {
    thread = await startPgliteThread(
      inMemory ? undefined : path.join(dataDir, 'pgdata'),
      (error) => {
        // The data directory is no longer open: a restarted process may take it at once.
        lock?.release();
        onFailure?.(error);
      },
      startFrom,
      inMemory ? undefined : sharedBuffers,
    );
  } catch (error) {
    lock?.release();
    throw error;
  }
  const { client } = thread;
  let closed = false;
  return withRows({
    kind: 'pglite' as const,
    pgliteWorker: thread.worker,
    execScript: (sqlText) => client.exec(sqlText),
    async query(sqlText, params, options) {
      return (await client.query(sqlText, params, options?.reusePlan ? { reusePlan: true } : undefined)).rows as never[];
    },
    transaction(work, options) {
      return client.transaction(async (tx) => {
        if (options?.snapshot) await tx.exec(`SET TRANSACTION ${SNAPSHOT}`);
        return work(
          transactionOn(
            async (sqlText, params) => (await tx.query(sqlText, params)).rows,
            (sqlText) => tx.exec(sqlText),
          ),
        );
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await thread.close(!inMemory);
      } finally {
        lock?.release();
      }
    },
  } satisfies Omit<Database, 'rows' | 'execute'>);
}
