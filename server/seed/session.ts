import type { Database } from '../src/db/client';

/** What the generator writes through: a Database, or the `tx` of the seed's transaction. */
export type SeedSession = Pick<Database, 'execScript' | 'query'>;

/** Runs `work` in one transaction on one connection (a pool would hand each statement its own). */
export async function inSeedTransaction(database: Database, work: (session: SeedSession) => Promise<void>) {
  await database.transaction((tx) => work({ execScript: tx.execScript, query: tx.query }));
}
