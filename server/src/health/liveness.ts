import type { Queryable } from '../db/client';

/** Liveness: the database answers. A failure is the route's 5xx. */
export async function databaseHealth(database: Queryable): Promise<{ status: 'ok' }> {
  await database.query('SELECT 1');
  return { status: 'ok' };
}
