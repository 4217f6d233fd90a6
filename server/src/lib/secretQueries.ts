import { z } from 'zod';
import type { Queryable } from '../db/client';

const ValueRow = z.object({ value: z.string() });

/**
 * The secret kept in app_settings under `key`: `candidate` when none was kept yet. Every instance
 * on the same database reads the one that was stored first.
 */
export async function keptSecret(database: Queryable, key: string, candidate: string): Promise<string> {
  await database.execute('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, candidate]);
  const [row] = await database.rows(ValueRow, 'SELECT value FROM app_settings WHERE key = $1', [key]);
  return row!.value;
}
