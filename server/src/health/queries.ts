import type { Queryable } from '../db/client';

/** The cheapest statement the database must answer; throws when it cannot. */
export async function selectOne(database: Queryable): Promise<void> {
  await database.execute('SELECT 1');
}
