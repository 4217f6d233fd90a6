import { z } from 'zod';
import type { Queryable } from '../db/client';

const SortOrderRow = z.object({ sort_order: z.number() });

/** Every access level, by its sort order (the level number the entitlement mapping names). */
export async function accessLevelOrders(database: Queryable): Promise<number[]> {
  const rows = await database.rows(SortOrderRow, 'SELECT sort_order FROM access_levels ORDER BY sort_order');
  return rows.map((row) => row.sort_order);
}
