import { inPgTransaction, type Database } from '../src/db/client';

/** What the generator writes through: a Database, or one connection of the pool inside the seed's transaction. */
export type SeedSession = Pick<Database, 'execScript' | 'query'>;

/** Runs `work` in one transaction on one connection (a pool would hand each statement its own). */
export async function inSeedTransaction(database: Database, work: (session: SeedSession) => Promise<void>) {
  if (database.pool) {
    return inPgTransaction(database.pool, 'BEGIN', (client) =>
      work({
        execScript: async (sqlText) => {
          await client.query(sqlText);
        },
        query: async (sqlText, params) => (await client.query(sqlText, params as unknown[])).rows,
      }),
    );
  }
  await database.execScript('BEGIN;');
  try {
    await work(database);
    await database.execScript('COMMIT;');
  } catch (error) {
    await database.execScript('ROLLBACK;').catch(() => undefined);
    throw error;
  }
}
