import type { Queryable } from '../db/client';
import { selectOne } from './queries';

/** Liveness: the database answers. A failure is the route's 5xx. */
export async function databaseHealth(database: Queryable): Promise<{ status: 'ok' }> {
  await selectOne(database);
  return { status: 'ok' };
}
