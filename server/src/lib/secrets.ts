import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';

/**
 * Without SESSION_SECRET, one random secret is made on first start and kept in the database,
 * so restarts and every instance on the same database sign cookies alike.
 */
export async function cookieSecret(database: Database): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  await database.query(`INSERT INTO app_settings (key, value) VALUES ('cookie_secret', $1) ON CONFLICT (key) DO NOTHING`, [candidate]);
  const [row] = await database.query<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'cookie_secret'`);
  return row!.value;
}
